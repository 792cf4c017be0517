"""Small helpers over the ORM for the hot paths of a round."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from django.db import connections
from django.db.models import FilteredRelation, Model, Q, QuerySet
from django.db.models.expressions import RawSQL

from baccarat.models import Bet, Play, Shoe, Table


def save_all(objects: Sequence[Model], fields: list[str]) -> None:
    """Write ``fields`` of ``objects`` (all of one model): ``bulk_update``, but a plain
    ``UPDATE`` when there is only one. ``bulk_update`` builds a ``CASE`` per field and
    row, about five times the CPU of the plain statement, and a single-seat round writes
    one play and one or two bets."""
    if len(objects) == 1:
        (obj,) = objects
        type(obj)._default_manager.filter(pk=obj.pk).update(
            **{name: getattr(obj, name) for name in fields}
        )
    elif objects:
        type(objects[0])._default_manager.bulk_update(objects, fields)


def cache_bets(play: Play, bets: Iterable[Bet]) -> None:
    """Leave ``bets`` on ``play`` as ``prefetch_related("bets")`` would (oldest first), so
    ``play.bets.all()`` reads no more."""
    cached = play.bets.all()
    cached._result_cache = sorted(bets, key=lambda bet: bet.pk or 0)
    cached._prefetch_done = True  # type: ignore[attr-defined]
    play._prefetched_objects_cache = {"bets": cached}  # type: ignore[attr-defined]


def with_bets(plays: QuerySet[Play]) -> list[Play]:
    """The plays of ``plays`` with their bets, in one query instead of
    ``prefetch_related("bets")``'s two: each play's row carries its bets as a JSON array
    (a correlated subquery on the bets' play index). A bet's columns are integers and
    text, which JSON carries as they are (``tests/baccarat/test_db_helpers.py`` compares
    every field with the bet read the usual way)."""
    db = plays.db
    quote = connections[db].ops.quote_name
    fields = Bet._meta.concrete_fields
    columns = ", ".join(quote(field.column) for field in fields)
    array, aggregate = (
        ("json_build_array", "json_agg")
        if connections[db].vendor == "postgresql"
        else ("json_array", "json_group_array")
    )
    sql = (
        f"SELECT {aggregate}({array}({columns})) FROM {quote(Bet._meta.db_table)}"  # noqa: S608
        f" WHERE {quote(Bet._meta.get_field('play').column)}"
        f" = {quote(Play._meta.db_table)}.{quote(Play._meta.pk.column)}"
    )
    names = [field.attname for field in fields]
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    loaded = list(plays.annotate(bet_rows=RawSQL(sql, ())))  # noqa: S611
    for play in loaded:
        rows = play.bet_rows  # type: ignore[attr-defined]
        if isinstance(rows, str):  # SQLite gives the JSON as text
            rows = json.loads(rows)
        bets = [Bet.from_db(db, names, row) for row in rows or ()]
        for bet in bets:
            bet.play = play
        cache_bets(play, bets)
    return loaded


def with_open_shoe(plays: QuerySet[Play], table: Table) -> QuerySet[Play]:
    """``plays`` (a player's at a single-seat ``table``) each with ``open_shoe``: the
    player's open shoe there, joined in the same query. At most one row joins: a player
    has one open shoe per table (the constraint ``one_open_shoe_per_player``). At a table
    that reshuffles every coup the last round's shoe has ended, and this saves a query
    for the one that comes next."""
    condition = Q(player__shoes__table=table, player__shoes__is_finished=False)
    return plays.annotate(
        open_shoe=FilteredRelation("player__shoes", condition=condition)
    ).select_related("open_shoe")  # type: ignore[misc]  # the stubs know no FilteredRelation


def open_shoe_of(plays: Sequence[Play]) -> Shoe | None:
    """The open shoe :func:`with_open_shoe` joined to ``plays`` (the same on each), if
    any: where none joins, Django leaves the attribute unset."""
    return getattr(plays[0], "open_shoe", None) if plays else None
