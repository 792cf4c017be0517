"""Small helpers over the ORM, and written-out statements, for the hot paths: a round at
a single-seat table, its page and the protocol, a full table's chips, Deals and board.

Each written-out statement replaces an ORM query whose building cost more CPU than the
query itself; ``tests/baccarat/test_db_helpers.py`` compares each with the ORM's read or
write on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar, cast

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Case, Field, Model, QuerySet, Value, When
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django.db.models.sql import InsertQuery, UpdateQuery

from baccarat.models import Bet, Play, Round, Seat, Shoe, Table, TableEvent
from wallet.models import Account

M = TypeVar("M", bound=Model)


def fetch_rows(connection: BaseDatabaseWrapper, sql: str, params: Sequence[Any]) -> list[Any]:
    """Every row a written-out statement answers."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


class Statement(NamedTuple):
    """A statement that changes rows, built but not run: its SQL and parameters, and the
    expression of a changed row's id (what :func:`write_together` has it return)."""

    sql: str
    params: Sequence[Any]
    key: str


# A read, built but not run: its SQL and parameters.
Query = tuple[str, Sequence[Any]]


def save_all(objects: Sequence[Model], fields: list[str]) -> None:
    """Write ``fields`` of ``objects`` (all of one model) in one statement
    (:func:`save_statements`)."""
    if objects:
        write_together(objects[0]._state.db or "default", save_statements(objects, fields))


def save_statements(objects: Sequence[Model], fields: list[str]) -> list[Statement]:
    """The statement that writes ``fields`` of ``objects`` (all of one model, saved
    before), built but not run: a plain ``UPDATE`` for one object; for several, on
    PostgreSQL ``UPDATE ... FROM (VALUES ...)`` written out, elsewhere ``bulk_update``'s
    (a ``CASE`` per field). ``bulk_update`` builds a ``CASE`` per field and row: about
    five times the CPU of the plain statement for one row, and at a full table's last
    DEAL (eight plays and their bets settled) some 10 ms of CPU on PostgreSQL."""
    if not objects:
        return []
    db = objects[0]._state.db or "default"
    connection = connections[db]
    manager = type(objects[0])._default_manager.using(db)
    if len(objects) == 1:
        (obj,) = objects
        return [update_row(type(obj), obj.pk, {name: getattr(obj, name) for name in fields}, db=db)]
    if connection.vendor == "postgresql":
        return [_update_from_values(connection, objects, fields)]
    meta = type(objects[0])._meta
    cases: dict[str, Any] = {}
    for name in fields:
        field = cast("Field[Any, Any]", meta.get_field(name))
        case: Any = Case(
            *(
                When(pk=obj.pk, then=Value(getattr(obj, field.attname), output_field=field))
                for obj in objects
            ),
            output_field=field,
        )
        if connection.features.requires_casted_case_in_updates:
            case = Cast(case, output_field=field)
        cases[field.attname] = case
    return [update_statement(manager.filter(pk__in=[obj.pk for obj in objects]), **cases)]


class _Written(NamedTuple):
    """A statement written once: its SQL and the fields whose values it takes."""

    sql: str
    fields: list[Field[Any, Any]]
    key: str


def _written_out(meta: Any, fields: Sequence[Field[Any, Any]]) -> bool:
    """Whether a statement written out here is the ORM's: not where a field has a
    placeholder of its own or the model has parents (the ORM adds to those)."""
    return not meta.parents and not any(hasattr(field, "get_placeholder") for field in fields)


def _any_expression(values: Iterable[Any]) -> bool:
    """An expression (``F()``, a subquery, a database default) among ``values``: those
    the ORM compiles."""
    return any(hasattr(value, "resolve_expression") for value in values)


def update_row(
    model: type[Model],
    pk: Any,
    values: dict[str, Any],
    *,
    where: dict[str, Any] | None = None,
    db: str = "default",
) -> Statement:
    """``model.objects.filter(pk=pk, **where).update(**values)``, built but not run:
    the same statement, written once per model, fields and conditions (the ORM spent
    about 0.15-0.3 ms of CPU building it each time, seven times a round). A condition
    ``None`` is ``IS NULL``. Values with an expression go through the ORM."""
    where = where or {}
    written = _update_row(model, tuple(values), tuple((k, v is None) for k, v in where.items()), db)
    if written is None or _any_expression(values.values()):
        lookups = {
            (f"{k}__isnull" if v is None else k): (True if v is None else v)
            for k, v in where.items()
        }
        queryset = model._default_manager.using(db).filter(pk=pk, **lookups)
        return update_statement(queryset, **values)
    connection = connections[db]
    params = [
        field.get_db_prep_save(
            getattr(value, "pk", value) if field.is_relation else value, connection
        )
        for field, value in zip(written.fields, values.values(), strict=True)
    ]
    params.append(model._meta.pk.get_db_prep_value(pk, connection))
    meta = model._meta
    for name, value in where.items():
        if value is not None:
            field = cast("Field[Any, Any]", meta.get_field(name))
            params.append(field.get_db_prep_value(value, connection, prepared=False))
    return Statement(written.sql, params, written.key)


@cache
def _update_row(
    model: type[Model], names: tuple[str, ...], conditions: tuple[tuple[str, bool], ...], db: str
) -> _Written | None:
    """``UPDATE <table> SET <column> = %s, ... WHERE <table>.<pk> = %s [AND <column> = %s
    | IS NULL ...]``; None where the ORM's is more (:func:`_written_out`)."""
    connection = connections[db]
    meta = model._meta
    fields = [cast("Field[Any, Any]", meta.get_field(name)) for name in names]
    if not _written_out(meta, fields):
        return None
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    tests = [f"{table}.{quote(meta.pk.column)} = %s"]
    for name, is_null in conditions:
        column = f"{table}.{quote(cast('Field[Any, Any]', meta.get_field(name)).column)}"
        tests.append(f"{column} IS NULL" if is_null else f"{column} = %s")
    sql = f"UPDATE {table} SET {assignments} WHERE {' AND '.join(tests)}"  # noqa: S608  (the model's names)
    return _Written(sql, fields, _key(model, connection))


def update_statement(queryset: QuerySet[Any], **values: Any) -> Statement:
    """What ``queryset.update(**values)`` runs, built by the ORM but not run."""
    query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
    query.add_update_values(values)
    sql, params = query.get_compiler(queryset.db).as_sql()
    return Statement(sql, params, _key(queryset.model, connections[queryset.db]))


def _key(model: type[Model], connection: BaseDatabaseWrapper, alias: str = "") -> str:
    quote = connection.ops.quote_name
    return f"{alias or quote(model._meta.db_table)}.{quote(model._meta.pk.column or '')}"


@cache
def _insert_by_rows(model: type[Model], rows: int, db: str) -> _Written | None:
    """``INSERT INTO <table> (<columns>) VALUES (%s, ...), ...`` for ``rows`` new rows of
    ``model``, written once per model, row count and database (the ORM spent about
    0.3 ms of CPU building it, three times a round); None where the ORM's is more
    (:func:`_written_out`)."""
    connection = connections[db]
    meta = model._meta
    fields = [field for field in meta.concrete_fields if not field.primary_key]
    if not _written_out(meta, fields):
        return None
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"  # noqa: S608  (the model's names)
    return _Written(sql, fields, _key(model, connection))


def insert_statement(objects: Sequence[Model], db: str = "default") -> Statement:
    """What ``bulk_create(objects)`` runs for new rows of one model, built by the ORM but
    not run (one statement for all of them; :func:`write_together` answers their ids)."""
    model = type(objects[0])
    written = _insert_by_rows(model, len(objects), db)
    if written is not None:
        # As the ORM prepares each value: pre_save (auto_now_add and the like), then
        # get_db_prep_save.
        values = [field.pre_save(obj, add=True) for obj in objects for field in written.fields]
        if not _any_expression(values):
            connection = connections[db]
            fields = written.fields * len(objects)
            params = [
                field.get_db_prep_save(value, connection)
                for field, value in zip(fields, values, strict=True)
            ]
            return Statement(written.sql, params, written.key)
    query = InsertQuery(model)
    query.insert_values(
        [field for field in model._meta.concrete_fields if not field.primary_key], list(objects)
    )
    ((sql, params),) = query.get_compiler(db).as_sql()
    return Statement(sql, params, _key(model, connections[db]))


def write_together(
    db: str, writes: Sequence[Statement], read: Query | None = None
) -> tuple[list[list[int]], list[dict[str, Any]]]:
    """Run ``writes`` in order (statements that change rows, none reading what another
    writes), then ``read``; the ids of the rows each write changed (or inserted), and the
    rows ``read`` answered (by column name).

    On PostgreSQL one statement, one round trip: each write a data-modifying ``WITH``
    query, ``read`` another (its rows as JSON). PostgreSQL runs them in the order of the
    answer's columns, each to its end: the writes in the order given (an ended shoe is
    finished before the next is stored: one open shoe per table and owner), ``read``
    last, which matters when it locks (``FOR UPDATE``): a round's step locks the
    ledger's accounts after its own rows, as when they were statements apart. There
    ``read`` sees its rows as they were before the statement: it must not read what the
    writes change. Elsewhere (SQLite) one statement after the other. A write that fails
    fails the caller's transaction, as a statement would."""
    connection = connections[db]
    if not writes and read is None:
        return [], []
    if connection.vendor != "postgresql":
        ids = []
        with connection.cursor() as cursor:
            for sql, params, key in writes:
                cursor.execute(f"{sql} RETURNING {key}", params)
                ids.append([row[0] for row in cursor.fetchall()])
            rows: list[dict[str, Any]] = []
            if read is not None:
                cursor.execute(*read)
                names = [column[0] for column in cursor.description]
                rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
        return ids, rows
    queries = [
        f"w{index} AS ({sql} RETURNING {key} AS k)" for index, (sql, _p, key) in enumerate(writes)
    ]
    # The callers' own statements, and names made here: nothing from outside.
    answer = [f"(SELECT array_agg(k) FROM w{index})" for index in range(len(writes))]  # noqa: S608
    params = [param for write in writes for param in write.params]
    if read is not None:
        queries.append(f"r AS ({read[0]})")
        answer.append("(SELECT json_agg(r) FROM r)")
        params += read[1]
    (row,) = fetch_rows(connection, f"WITH {', '.join(queries)} SELECT {', '.join(answer)}", params)
    ids = [list(changed or []) for changed in row[: len(writes)]]
    return ids, list(row[-1] or []) if read is not None else []


def insert_events(
    *, table_id: int, events: Sequence[tuple[str, Any]], created_at: Any, db: str = "default"
) -> int:
    """Number ``events`` (kind, data) with the table's next sequence numbers and store
    them; the table's last number now. The statement that raises ``Table.event_seq``
    takes the table's row lock (or finds it held by the caller's transaction), so the
    numbers follow the order of the commits.

    On PostgreSQL one statement (``UPDATE ... RETURNING`` feeding the ``INSERT``): a
    player's own change takes the table's lock here, for this statement and its commit
    alone. Elsewhere the update, then the insert."""
    connection = connections[db]
    quote = connection.ops.quote_name
    meta, tables = TableEvent._meta, quote(Table._meta.db_table)
    seq_column = quote(cast("Field[Any, Any]", Table._meta.get_field("event_seq")).column or "")
    fields = [cast("Field[Any, Any]", meta.get_field(name)) for name in ("kind", "data")]
    stamp = cast("Field[Any, Any]", meta.get_field("created_at"))
    count = len(events)
    raise_seq = (
        f"UPDATE {tables} SET {seq_column} = {seq_column} + %s"  # noqa: S608
        f" WHERE id = %s RETURNING {seq_column}"
    )
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(raise_seq, [count, table_id])
            (last,) = cursor.fetchone()
        TableEvent.objects.using(db).bulk_create(
            TableEvent(
                table_id=table_id, seq=last - count + n, kind=kind, data=data, created_at=created_at
            )
            for n, (kind, data) in enumerate(events, start=1)
        )
        return int(last)
    types = [field.db_type(connection) for field in fields]
    row = ", ".join(["%s::integer", *(f"%s::{db_type}" for db_type in types)])
    params: list[Any] = [count, table_id, table_id, count]
    params.append(stamp.get_db_prep_save(created_at, connection))
    kind_field, data_field = fields
    for n, (kind, data) in enumerate(events, start=1):
        params += [n, kind_field.get_db_prep_save(kind, connection)]
        params.append(data_field.get_db_prep_save(data, connection))
    names = [
        quote(cast("Field[Any, Any]", meta.get_field(name)).column or "")
        for name in ("table", "seq", "kind", "data", "created_at")
    ]
    # Nothing but the models' own table and column names and column types goes in.
    sql = (
        f"WITH t AS ({raise_seq})"  # noqa: S608
        f" INSERT INTO {quote(meta.db_table)} ({', '.join(names)})"
        f" SELECT %s, t.{seq_column} - %s + v.n, v.kind, v.data, %s"
        f" FROM t, (VALUES {', '.join([f'({row})'] * count)}) AS v (n, kind, data)"
        f" RETURNING {names[1]}"
    )
    rows = fetch_rows(connection, sql, params)
    if len(rows) != count:
        raise Table.DoesNotExist(f"no table {table_id}")
    return max(int(seq) for (seq,) in rows)


def _update_from_values(
    connection: BaseDatabaseWrapper, objects: Sequence[Model], fields: list[str]
) -> Statement:
    """PostgreSQL: ``UPDATE t SET a = v.a, ... FROM (VALUES (id, a, ...), ...) v WHERE
    t.id = v.id``, each value cast to its column's type and prepared as the ORM prepares
    it (``get_db_prep_save``)."""
    meta = type(objects[0])._meta
    quote = connection.ops.quote_name
    columns = [cast("Field[Any, Any]", meta.get_field(name)) for name in fields]
    pk = meta.pk
    types = [pk.rel_db_type(connection), *(field.db_type(connection) for field in columns)]
    row = ", ".join(f"%s::{db_type}" for db_type in types)
    params: list[Any] = []
    for obj in objects:
        params.append(pk.get_db_prep_save(obj.pk, connection))
        params += [
            field.get_db_prep_save(getattr(obj, field.attname), connection) for field in columns
        ]
    names = [quote(field.column or "") for field in columns]
    # Nothing but the model's own table, column names and column types goes into the SQL.
    sql = (
        f"UPDATE {quote(meta.db_table)} AS t"  # noqa: S608
        f" SET {', '.join(f'{name} = v.{name}' for name in names)}"
        f" FROM (VALUES {', '.join([f'({row})'] * len(objects))})"
        f" AS v ({quote(pk.column or '')}, {', '.join(names)})"
        f" WHERE t.{quote(pk.column or '')} = v.{quote(pk.column or '')}"
    )
    return Statement(sql, params, _key(type(objects[0]), connection, "t"))


def cache_bets(play: Play, bets: Iterable[Bet]) -> None:
    """Leave ``bets`` on ``play`` as ``prefetch_related("bets")`` would (oldest first), so
    ``play.bets.all()`` reads no more.

    The queryset is built bare, its filter on the play deferred as a prefetch defers it
    (applied only when something chains a query on it), instead of through the related
    manager, whose copies of the query cost more than the rest of a full table's board
    read (a twelfth of the web processes' CPU at full tables)."""
    cached: QuerySet[Bet] = QuerySet(model=Bet, using=play._state.db or "default")
    cached._deferred_filter = (False, (), {"play": play})  # type: ignore[attr-defined]
    cached._result_cache = sorted(bets, key=lambda bet: bet.pk or 0)
    cached._prefetch_done = True  # type: ignore[attr-defined]
    play._prefetched_objects_cache = {"bets": cached}  # type: ignore[attr-defined]


def insert_play(play: Play, bets: list[Bet]) -> list[Bet]:
    """Store the new ``play`` and its new ``bets``, and its round first when that is new
    too (a chip that opens the round); the bets as stored (with their ids).

    On PostgreSQL one statement (data-modifying ``WITH`` queries: the play takes the
    round's new id, the bets the play's, from their ``RETURNING``), so a chip that opens
    a round writes round, play and bet in one statement instead of three; elsewhere
    ``save`` and ``bulk_create``."""
    connection = connections[play._state.db or "default"]
    round = play.round
    if connection.vendor != "postgresql" or not bets:
        if round._state.adding:
            round.save(using=connection.alias)
            play.round = round  # its new id
        play.save(using=connection.alias)
        return Bet.objects.using(connection.alias).bulk_create(bets) if bets else []
    quote = connection.ops.quote_name
    params: list[Any] = []
    if round._state.adding:  # the round's own statement, its id for the play
        opened = insert_statement([round], connection.alias)
        rounds = f"r AS ({opened.sql} RETURNING id), "
        params += opened.params
        round_id, source = "r.id", " FROM r"
    else:
        rounds, round_id, source = "", "%s", ""
        params.append(round.pk)
    fields = [
        field
        for field in Play._meta.concrete_fields
        if not field.primary_key and field.attname != "round_id"
    ]
    params += [field.get_db_prep_save(field.pre_save(play, True), connection) for field in fields]
    for bet in bets:
        params += [bet.kind, bet.stake, bet.payout, bet.commission]
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    sql = (
        f"WITH {rounds}p AS (INSERT INTO {quote(Play._meta.db_table)}"  # noqa: S608
        f" (round_id, {', '.join(quote(field.column or '') for field in fields)})"
        f" SELECT {round_id}, {', '.join(['%s'] * len(fields))}{source}"
        " RETURNING id, round_id),"
        f" b AS (INSERT INTO {quote(Bet._meta.db_table)} (play_id, kind, stake, payout, commission)"
        " SELECT p.id, v.kind, v.stake, v.payout, v.commission FROM p, (VALUES"
        f" {', '.join(['(%s, %s::bigint, %s::bigint, %s::bigint)'] * len(bets))})"
        " AS v (kind, stake, payout, commission) RETURNING play_id, id, kind)"
        " SELECT p.round_id, b.play_id, b.id, b.kind FROM b JOIN p ON p.id = b.play_id"
    )
    rows = fetch_rows(connection, sql, params)
    ids = {kind: bet_id for _round_id, _play_id, bet_id, kind in rows}
    round.pk, play.pk = rows[0][0], rows[0][1]
    for obj in [round, play, *bets]:
        obj._state.adding = False
        obj._state.db = connection.alias
    play.round = round  # its new id
    for bet in bets:
        bet.play = play
        bet.pk = ids[bet.kind]
    return bets


def _columns(model: type[Model]) -> list[str]:
    """The names of ``model``'s concrete columns, in field order."""
    return [field.column for field in model._meta.concrete_fields if field.column]


def _bets_sql(connection: BaseDatabaseWrapper, play: str) -> str:
    """A correlated subquery: the bets of the play row ``play`` (a table or its alias) as
    one JSON array of arrays, each a bet's concrete columns in order."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for column in _columns(Bet))
    array, aggregate = (
        ("json_build_array", "json_agg")
        if connection.vendor == "postgresql"
        else ("json_array", "json_group_array")
    )
    return (
        f"SELECT {aggregate}({array}({columns})) FROM {quote(Bet._meta.db_table)}"  # noqa: S608
        f" WHERE {quote('play_id')} = {play}.{quote('id')}"
    )


def _load_bets(db: str, play: Play, rows: Any) -> None:
    """Leave on ``play`` its bets from :func:`_bets_sql`'s JSON (text on SQLite)."""
    if isinstance(rows, str):
        rows = json.loads(rows)
    names = [field.attname for field in Bet._meta.concrete_fields]
    bets = [Bet.from_db(db, names, row) for row in rows or ()]
    for bet in bets:
        bet.play = play
    cache_bets(play, bets)


def with_bets(plays: QuerySet[Play]) -> list[Play]:
    """The plays of ``plays`` with their bets, in one query instead of
    ``prefetch_related("bets")``'s two: each play's row carries its bets as a JSON array
    (a correlated subquery on the bets' play index). A bet's columns are integers and
    text, which JSON carries as they are (``tests/baccarat/test_db_helpers.py`` compares
    every field with the bet read the usual way)."""
    connection = connections[plays.db]
    sql = _bets_sql(connection, connection.ops.quote_name(Play._meta.db_table))
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    loaded: list[Play] = list(plays.annotate(bet_rows=RawSQL(sql, ())))  # noqa: S611
    for play in loaded:
        _load_bets(plays.db, play, play.bet_rows)  # type: ignore[attr-defined]
    return loaded


class Columns:
    """A model's columns in a written-out ``SELECT``, under a table alias, and its
    instances made back from a row's values, converted as the ORM converts them (the
    backend's converters, then the field's: SQLite's dates, JSON read as text, ...)."""

    def __init__(self, model: type[Model], alias: str, names: Sequence[str] = ()) -> None:
        """``names``: only these fields (``pk`` for the primary key), in this order."""
        self.model = model
        self.alias = alias
        meta = model._meta
        self.fields: Sequence[Field[Any, Any]] = (
            [
                cast("Field[Any, Any]", meta.pk if name == "pk" else meta.get_field(name))
                for name in names
            ]
            if names
            else meta.concrete_fields
        )
        self.names = [field.attname for field in self.fields]
        self.columns = [field.column or "" for field in self.fields]
        self._converters: dict[str, list[tuple[int, Any, list[Any]]]] = {}

    def sql(self, connection: BaseDatabaseWrapper) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(column)}" for column in self.columns)

    def convert(self, connection: BaseDatabaseWrapper, values: Sequence[Any]) -> list[Any]:
        values = list(values)
        for index, col, converters in self.converters(connection):
            for convert in converters:
                values[index] = convert(values[index], col, connection)
        return values

    def load(self, connection: BaseDatabaseWrapper, values: Sequence[Any]) -> Any:
        return self.model.from_db(connection.alias, self.names, self.convert(connection, values))

    def converters(self, connection: BaseDatabaseWrapper) -> list[tuple[int, Any, list[Any]]]:
        """Per column that has any: its index, its expression and its converters."""
        if connection.vendor not in self._converters:
            found = []
            for index, field in enumerate(self.fields):
                col = field.get_col(self.alias)
                converters = connection.ops.get_db_converters(col) + col.get_db_converters(
                    connection
                )
                if converters:
                    found.append((index, col, converters))
            self._converters[connection.vendor] = found
        return self._converters[connection.vendor]


@cache
def _columns_of(model: type[Model]) -> Columns:
    return Columns(model, "t")


def row_where(
    model: type[M],
    column: str,
    value: Any,
    db: str = "default",
    *,
    lock: bool = False,
    no_key: bool = False,
) -> M | None:
    """The row of ``model`` whose unique ``column`` holds ``value``, or ``None``: what
    ``model.objects.filter(column=value).first()`` reads, without the ORM building the
    query (a third of the ORM's CPU for a table by its slug, which every table request
    reads).
    ``lock``: with the row's lock for the rest of the transaction (``select_for_update``;
    ``no_key``: ``select_for_update(no_key=True)``, which lets other transactions insert
    rows that refer to it)."""
    connection = connections[db]
    with connection.cursor() as cursor:
        cursor.execute(_row_where_sql(model, column, db, lock, no_key), [value])
        row = cursor.fetchone()
    return None if row is None else _columns_of(model).load(connection, row)


@cache
def _row_where_sql(model: type[Model], column: str, db: str, lock: bool, no_key: bool) -> str:
    connection = connections[db]
    quote = connection.ops.quote_name
    for_update = ""
    if lock and connection.features.has_select_for_update:
        no_key = no_key and connection.features.has_select_for_no_key_update
        for_update = " FOR NO KEY UPDATE" if no_key else " FOR UPDATE"
    # Nothing but the model's own table and column names, quoted, goes into the SQL.
    return (
        f"SELECT {_columns_of(model).sql(connection)} FROM {quote(model._meta.db_table)} t"  # noqa: S608
        f" WHERE t.{quote(column)} = %s{for_update}"
    )


_PLAY, _ROUND, _SHOE = Columns(Play, "p"), Columns(Round, "r"), Columns(Shoe, "s")


@cache
def _player_plays_sql(db: str, lock_shoe: bool) -> str:
    connection = connections[db]
    quote = connection.ops.quote_name
    lock = " FOR UPDATE" if lock_shoe and connection.features.has_select_for_update else ""
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    return (
        f"SELECT {_PLAY.sql(connection)}, {_ROUND.sql(connection)}, {_SHOE.sql(connection)},"  # noqa: S608
        f" ({_bets_sql(connection, 'p')})"
        f" FROM {quote(Play._meta.db_table)} p"
        f" JOIN {quote(Round._meta.db_table)} r ON r.id = p.round_id"
        f" LEFT JOIN (SELECT * FROM {quote(Shoe._meta.db_table)}"
        f" WHERE player_id = %s AND table_id = %s AND NOT is_finished{lock}) s ON TRUE"
        " WHERE p.player_id = %s AND p.table_id = %s AND r.state <> %s"
        " ORDER BY p.round_id DESC LIMIT %s"
    )


def player_plays(
    *, table: Table, player_id: int, count: int, db: str = "default", lock_shoe: bool = False
) -> list[Play]:
    """The player's ``count`` latest plays at a single-seat ``table`` (void rounds aside),
    newest first, each with its round and bets, and with ``open_shoe``: the player's open
    shoe there, if any (at most one joins: the constraint ``one_open_shoe_per_player``).
    ``lock_shoe``: with that shoe's row lock for the rest of the transaction (a DEAL deals
    from it), the shoe marked ``locked``.

    One query, written out: the ORM spent about 2 ms of CPU building and compiling it
    (the shoe's join a ``FilteredRelation``) on every chip and DEAL.
    ``tests/baccarat/test_db_helpers.py`` compares every field with the rows read the
    usual way, on SQLite and PostgreSQL."""
    connection = connections[db]
    rows = fetch_rows(
        connection,
        _player_plays_sql(db, lock_shoe),
        [player_id, table.pk, player_id, table.pk, Round.State.VOID.value, count],
    )
    play_end = len(_PLAY.fields)
    round_end = play_end + len(_ROUND.fields)
    shoe_end = round_end + len(_SHOE.fields)
    plays = []
    for row in rows:
        play = _PLAY.load(connection, row[:play_end])
        play.round = _ROUND.load(connection, row[play_end:round_end])
        if row[round_end] is not None:  # the shoe's id: a shoe joined
            play.open_shoe = _SHOE.load(connection, row[round_end:shoe_end])
            play.open_shoe.locked = lock_shoe
        _load_bets(db, play, row[shoe_end])
        plays.append(play)
    return plays


@cache
def _coups_columns(names: tuple[str, ...]) -> tuple[Columns, type[tuple[Any, ...]]]:
    return Columns(Round, "r", names), namedtuple("Row", names)


@cache
def _player_coups_sql(db: str, names: tuple[str, ...], last_shoe: bool) -> str:
    connection = connections[db]
    quote = connection.ops.quote_name
    rounds, plays = quote(Round._meta.db_table), quote(Play._meta.db_table)
    columns = _coups_columns(names)[0].sql(connection)
    # Each read's cost is the rows it shows, not the table's history, and its plan needs
    # no statistics: the player's plays at the table walked newest first along the index
    # play_player_table_round, each round by its key; the last shoe's rounds found by
    # their shoe (a scalar subquery, its shoe found that way once).
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    mine = (
        f"FROM {plays} p JOIN {rounds} r ON r.id = p.round_id"
        " WHERE p.player_id = %s AND p.table_id = %s AND r.state = %s"
    )
    if not last_shoe:
        return f"SELECT {columns} {mine} ORDER BY p.round_id DESC LIMIT %s"
    return (
        f"SELECT {columns} FROM {rounds} r"  # noqa: S608
        f" JOIN {plays} p ON p.round_id = r.id AND p.player_id = %s"
        " WHERE r.state = %s"
        f" AND r.shoe_id = (SELECT r.shoe_id {mine} ORDER BY p.round_id DESC LIMIT 1)"
        " ORDER BY r.id DESC LIMIT %s"
    )


def player_coups(
    *,
    table: Table,
    player_id: int,
    names: tuple[str, ...],
    count: int,
    last_shoe: bool,
    db: str = "default",
) -> list[Any]:
    """The player's latest settled rounds at ``table``, newest first, as named rows of the
    fields ``names`` (``values_list(*names, named=True)``); with ``last_shoe`` only those
    of the shoe their latest settled round came from.

    Written out: the ORM spent about 1 ms of CPU building it (a join and a subquery) on
    every DEAL and table page. ``tests/baccarat/test_db_helpers.py`` compares it with the
    ORM's rows on SQLite and PostgreSQL."""
    connection = connections[db]
    columns, row = _coups_columns(names)
    settled = Round.State.SETTLED.value
    mine: list[Any] = [player_id, table.pk, settled]
    params = [player_id, settled, *mine] if last_shoe else mine
    found = fetch_rows(connection, _player_coups_sql(db, names, last_shoe), [*params, count])
    return [row(*columns.convert(connection, values)) for values in found]


@cache
def _player_tables_sql(db: str) -> str:
    quote = connections[db].ops.quote_name
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    return (
        f"SELECT t.id, t.name, t.kind FROM {quote(Table._meta.db_table)} t"  # noqa: S608
        f" WHERE EXISTS (SELECT 1 FROM {quote(Play._meta.db_table)} p"
        " WHERE p.player_id = %s AND p.table_id = t.id)"
        " ORDER BY t.sort_order, t.name"
    )


def player_tables(*, player_id: int, db: str = "default") -> list[tuple[int, str, str]]:
    """(id, name, kind) of every table the player ever played at, in the tables' order:
    one probe of play_player_table_round per table (the play's own table, not its
    round's: through the round it read every play of the player). Written out: the ORM
    spent about 1 ms of CPU building the ``Exists`` on every protocol page."""
    return fetch_rows(connections[db], _player_tables_sql(db), [player_id])


# A full table's board -----------------------------------------------------------------
# What every browser at a full table reads on each live event, written out: the ORM spent
# some 3 ms of CPU building these three on every board refresh. ``tests/baccarat/
# test_db_helpers.py`` compares each with the ORM's read on SQLite and PostgreSQL.


@cache
def _seat_columns() -> tuple[Columns, Columns]:
    return Columns(Seat, "st"), Columns(get_user_model(), "u")


def table_seats(*, table_id: int, db: str = "default") -> list[Seat]:
    """The table's taken seats with their players (``select_related("player")``)."""
    connection = connections[db]
    seats, users = _seat_columns()
    quote = connection.ops.quote_name
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    sql = (
        f"SELECT {seats.sql(connection)}, {users.sql(connection)}"  # noqa: S608
        f" FROM {quote(Seat._meta.db_table)} st"
        f" JOIN {quote(get_user_model()._meta.db_table)} u ON u.id = st.player_id"
        " WHERE st.table_id = %s ORDER BY st.number"
    )
    found = []
    for row in fetch_rows(connection, sql, [table_id]):
        seat = seats.load(connection, row[: len(seats.fields)])
        seat.player = users.load(connection, row[len(seats.fields) :])
        found.append(seat)
    return found


def player_seat(
    *, table_id: int, player_id: int, db: str = "default", lock: bool = False
) -> Seat | None:
    """The player's seat at the table, if any, with ``seat.stack``: their stack there (0
    without an account), in one query. ``lock``: with the seat's row lock (not the
    account's) for the rest of the transaction."""
    connection = connections[db]
    seats, _users = _seat_columns()
    quote = connection.ops.quote_name
    for_update = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    sql = (
        f"SELECT {seats.sql(connection)}, (SELECT a.balance FROM"  # noqa: S608
        f" {quote(Account._meta.db_table)} a WHERE a.owner_id = st.player_id"
        " AND a.kind = %s AND a.table_id = st.table_id)"
        f" FROM {quote(Seat._meta.db_table)} st WHERE st.table_id = %s AND st.player_id = %s"
        f"{for_update}"
    )
    rows = fetch_rows(connection, sql, [Account.Kind.STACK.value, table_id, player_id])
    if not rows:
        return None
    seat: Seat = seats.load(connection, rows[0][:-1])
    seat.stack = rows[0][-1] or 0  # type: ignore[attr-defined]
    return seat


@cache
def _undecided_sql(db: str) -> str:
    connection = connections[db]
    quote = connection.ops.quote_name
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    return (
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN EXISTS (SELECT 1"  # noqa: S608
        f" FROM {quote(Play._meta.db_table)} p WHERE p.round_id = r.id"
        " AND p.player_id = st.player_id AND p.decision <> '') THEN 0 ELSE 1 END), 0)"
        f" FROM {quote(Seat._meta.db_table)} st JOIN {quote(Round._meta.db_table)} r"
        " ON r.id = %s WHERE st.table_id = r.table_id AND st.sat_at <= r.created_at"
    )


def round_deciders(*, round_id: int, db: str = "default") -> tuple[int, int]:
    """(seats that play the round, those of them that have not decided it): the seats
    of the round's table taken by the time it opened, and of them those without a Deal
    or Pass in it, in one query. What the ORM's ``aggregate`` with an ``Exists`` reads;
    written out, as it is asked after every decision at a full table."""
    playing, undecided = fetch_rows(connections[db], _undecided_sql(db), [round_id])[0]
    return int(playing), int(undecided)


# The shoe without its card order (the largest field, shown to nobody before its end).
_SHOE_SHOWN = Columns(
    Shoe, "s", [field.name for field in Shoe._meta.concrete_fields if field.name != "state"]
)


def newest_shared_rounds(
    *, table_id: int, states: Sequence[str], count: int, db: str = "default"
) -> list[Round]:
    """A full table's ``count`` newest rounds in ``states``, newest first, each with its
    shoe (its card order deferred), as ``select_related("shoe").defer("shoe__state")``."""
    connection = connections[db]
    quote = connection.ops.quote_name
    marks = ", ".join(["%s"] * len(states))
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    sql = (
        f"SELECT {_ROUND.sql(connection)}, {_SHOE_SHOWN.sql(connection)}"  # noqa: S608
        f" FROM {quote(Round._meta.db_table)} r"
        f" LEFT JOIN {quote(Shoe._meta.db_table)} s ON s.id = r.shoe_id"
        f" WHERE r.table_id = %s AND r.shared AND r.state IN ({marks})"
        " ORDER BY r.id DESC LIMIT %s"
    )
    rounds = []
    for row in fetch_rows(connection, sql, [table_id, *states, count]):
        round = _ROUND.load(connection, row[: len(_ROUND.fields)])
        shoe = row[len(_ROUND.fields) :]
        round.shoe = None if shoe[0] is None else _SHOE_SHOWN.load(connection, shoe)
        rounds.append(round)
    return rounds


def round_plays(
    *, round_ids: Sequence[int], player_id: int | None = None, db: str = "default"
) -> list[Play]:
    """The plays of these rounds (of one player only, with ``player_id``) with their bets
    (as :func:`with_bets`), in no order."""
    if not round_ids:
        return []
    connection = connections[db]
    quote = connection.ops.quote_name
    marks = ", ".join(["%s"] * len(round_ids))
    player = "" if player_id is None else " AND p.player_id = %s"
    # Nothing but the models' own table and column names, quoted, goes into the SQL.
    sql = (
        f"SELECT {_PLAY.sql(connection)}, ({_bets_sql(connection, 'p')})"  # noqa: S608
        f" FROM {quote(Play._meta.db_table)} p WHERE p.round_id IN ({marks}){player}"
    )
    params = [*round_ids] + ([] if player_id is None else [player_id])
    plays = []
    for row in fetch_rows(connection, sql, params):
        play = _PLAY.load(connection, row[: len(_PLAY.fields)])
        _load_bets(db, play, row[len(_PLAY.fields)])
        plays.append(play)
    return plays


_EVENT = Columns(TableEvent, "e")


@cache
def _events_after_sql(db: str) -> str:
    connection = connections[db]
    # Nothing but the model's own table and column names, quoted, goes into the SQL.
    return (
        f"SELECT {_EVENT.sql(connection)}"  # noqa: S608
        f" FROM {connection.ops.quote_name(TableEvent._meta.db_table)} e"
        " WHERE e.table_id = %s AND e.seq > %s ORDER BY e.seq LIMIT %s"
    )


def events_after(*, table_id: int, seq: int, limit: int, db: str = "default") -> list[TableEvent]:
    """A table's events after number ``seq``, in order, at most ``limit``: what
    ``TableEvent.objects.filter(table_id=..., seq__gt=seq).order_by("seq")[:limit]`` reads.
    Every open event stream reads them on every change at its table."""
    connection = connections[db]
    rows = fetch_rows(connection, _events_after_sql(db), [table_id, seq, limit])
    return [_EVENT.load(connection, row) for row in rows]


def open_shoe_of(plays: Sequence[Play]) -> Shoe | None:
    """The open shoe :func:`player_plays` joined to ``plays`` (the same on each), if
    any: where none joins, Django leaves the attribute unset."""
    return getattr(plays[0], "open_shoe", None) if plays else None
