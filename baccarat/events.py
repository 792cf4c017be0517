"""A full table's events: rows written with the change they describe.

Each event gets the table's next sequence number under the table's row lock, in the
transaction of the change: it exists exactly when the change does, and the numbers have
no gaps, so a browser that comes back with the last number it saw misses nothing. Once
the transaction commits, web processes are told that there is more (Redis pub/sub when
``REDIS_URL`` is set; otherwise each web process polls the tables it serves, see
:mod:`baccarat.full.live`).

The locks of a full table, always in this order: seats, then the table. A player's own
change (a chip, Deal, Pass, standing up) locks their seat first; one that may touch any
player's part or the round's state (the croupier's step, a void) locks every seat, in
seat order, before the table (:func:`table_change`). So the croupier waits for the
presses under way, none of them waits for it, and no two changes wait for each other.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from baccarat import db
from baccarat.models import Seat, Table, TableEvent

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "casino:table-events:"


def locked_table(table_id: int) -> Table:
    """The table row, locked for the rest of the transaction: every change at a full
    table takes it, so its changes (and its event numbers) come one after another. The
    lock is the one an update of the row takes (``FOR NO KEY UPDATE``): a player's press
    meanwhile still stores its play, which refers to the table, and waits only where it
    takes the table's lock itself, for its event."""
    table = db.row_where(Table, "id", table_id, lock=True, no_key=True)
    if table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return table


def locked_seats(table_id: int, player_id: int | None = None) -> None:
    """Lock the table's seats in seat order (``player_id``: that player's seat alone) for
    the rest of the transaction, before the table's row (see the module's text)."""
    if not transaction.get_connection().features.has_select_for_update:
        return  # SQLite: a write transaction holds the whole database
    seats = Seat.objects.filter(table_id=table_id)
    if player_id is not None:
        seats = seats.filter(player_id=player_id)
    list(seats.select_for_update().order_by("number").values_list("pk", flat=True))


@contextmanager
def table_change(
    table_id: int, *, every_seat: bool = False, player_id: int | None = None
) -> Iterator[Table]:
    """One change at a full table: a transaction, the table's row lock, and its events
    written together at the end, right before the commit.

    ``every_seat``: for a change that may touch any player's seat or part, or the state
    of the round (the croupier's step, a void): every seat is locked first, so the change
    waits for the presses under way (:func:`locked_seats`). ``player_id``: the change
    touches that player's seat and part alone (standing up): their seat is locked first.

    Events written inside (:func:`event_write`) wait in the table's outbox and go in one
    insert, with the table's new number (one statement on PostgreSQL), when the block ends
    without an error; with an error nothing is written, as
    with the rest of the change. Their ``created_at`` is then the moment of the commit
    (within a statement), not of the step that raised them: what a browser's delay is
    measured from.
    """
    with transaction.atomic():
        if every_seat or player_id is not None:
            locked_seats(table_id, None if every_seat else player_id)
        table = locked_table(table_id)
        table.outbox = []  # type: ignore[attr-defined]
        yield table
        pending, table.outbox = table.outbox, None  # type: ignore[attr-defined]
        if pending:
            _insert(table, pending)


def event_write(table: Table, kind: str, **data: Any) -> None:
    """Write one event for ``table`` in the caller's transaction (the statement that
    numbers it takes the table's row lock, if the change has not taken it yet)."""
    events_write(table, [(kind, data)])


def events_write(table: Table, events: list[tuple[str, dict[str, Any]]]) -> None:
    """Write several events in order, with consecutive numbers: at the end of the
    :func:`table_change` they belong to, else at once in one insert."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("events are written in the transaction of their change")
    outbox = getattr(table, "outbox", None)
    if outbox is not None:
        outbox.extend(events)
    else:
        _insert(table, events)


def _insert(table: Table, events: list[tuple[str, dict[str, Any]]]) -> None:
    # The table's number and its events: one statement on PostgreSQL, which takes the
    # table's row lock when the change has not taken it before (a player's own change),
    # held until the commit.
    seq = db.insert_events(
        table_id=table.pk, events=events, created_at=timezone.now(), db=table._state.db or "default"
    )
    table.event_seq = seq
    transaction.on_commit(lambda: announce(table.pk, seq))


def announce(table_id: int, seq: int) -> None:
    """Tell every web process that ``table_id`` has events up to ``seq`` (after commit).

    After a failure, this process announces nothing for ``REDIS_RETRY_SECONDS``: a Redis
    that hangs would hold every change's request for the client's timeout, and meanwhile
    the web processes poll the rows (:mod:`baccarat.full.live`)."""
    url = getattr(settings, "REDIS_URL", "")
    if not url or time.monotonic() < _silent_until[url]:
        return  # the embedded default, or Redis failed lately: web processes poll
    try:
        client = _redis(url)
        client.publish(f"{CHANNEL_PREFIX}{table_id}", str(seq))
    except Exception:  # the rows are the truth: a lost nudge only delays, never loses
        _silent_until[url] = time.monotonic() + settings.REDIS_RETRY_SECONDS
        logger.warning("could not announce events of table %s", table_id, exc_info=True)


_clients: dict[str, Any] = {}
_silent_until: defaultdict[str, float] = defaultdict(float)


def _redis(url: str) -> Any:
    client = _clients.get(url)
    if client is None:
        import redis

        # Connect and read timeouts (settings.REDIS_TIMEOUTS): a Redis that accepts and
        # never answers fails the publish instead of holding the request.
        client = _clients[url] = redis.Redis.from_url(url, **settings.REDIS_TIMEOUTS)
    return client


def events_after(table_id: int, seq: int, *, limit: int = 500) -> list[TableEvent]:
    """The table's events after number ``seq``, in order."""
    return db.events_after(table_id=table_id, seq=seq, limit=limit)
