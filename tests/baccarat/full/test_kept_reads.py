"""A full table's seats, rounds and plays are read once per web process and event number:
every browser at the table fetches its board for the same events, and what those rows
show changes only with an event. What each viewer sees of their own (their seat, stack,
play) stays theirs, and a change is on the next board."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from baccarat.full import croupier
from baccarat.full.state import full_table_state, kept_reads, shared_reads
from baccarat.models import Table
from tests.baccarat.conftest import make_player, ready, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SHARED = ("baccarat_seat", "baccarat_round", "baccarat_play")


def shared_statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements that read the seats, the rounds or the plays (not the viewer's own
    stack or seat, which are read by other statements)."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith("SELECT")
        and any(f'FROM "{name}"' in q["sql"] for name in SHARED)
    ]


def test_the_boards_at_one_event_number_read_the_tables_rows_once(salon: Table) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1500, take_back=False)
    url = reverse("baccarat:table", args=[salon.slug])
    boards = {}
    reads = {}
    for player in (anna, ben, make_player("cleo")):  # cleo watches
        client = Client()
        client.force_login(player)
        with CaptureQueriesContext(connection) as queries:
            boards[player.username] = client.get(url, **HTMX).content.decode()
        reads[player.username] = shared_statements(queries)
    assert len(reads["anna"]) == 3  # the seats, the rounds, their plays
    assert reads["ben"] == [] and reads["cleo"] == []
    # Each sees the same table, and their own part of it.
    for html in boards.values():
        assert 'data-seat="1"' in html and "anna" in html and "ben" in html
    assert 'data-my-seat="1"' in boards["anna"] and 'data-my-seat="2"' in boards["ben"]
    assert "data-my-seat" not in boards["cleo"] and "sit-here" in boards["cleo"]
    assert 'id="total-stake">15.00' in boards["anna"].replace("\u20ac", "").replace(" ", "")


def test_a_change_is_on_the_next_board(salon: Table) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    url = reverse("baccarat:table", args=[salon.slug])
    client = Client()
    client.force_login(anna)
    before = client.get(url, **HTMX).content.decode()
    assert "decided-deal" not in before
    croupier.full_decide(table=salon, player=ben, deal=True, stakes={"player": 2500})
    with CaptureQueriesContext(connection) as queries:
        after = client.get(url, **HTMX).content.decode()
    assert len(shared_statements(queries)) == 3  # a new event number: read again
    assert 'decided-deal" data-seat="2"' in after and "25.00" in after


def test_the_rows_of_an_open_transaction_are_not_kept(salon: Table) -> None:
    """A read inside a transaction may show changes that are never committed: it is not
    given to the other requests of the process."""
    anna = sit(salon, "anna", 1)
    ready(salon)
    table = Table.objects.get(pk=salon.pk)
    with transaction.atomic():
        croupier.full_bet(table=table, player=anna, kind="banker", amount=500, take_back=False)
        inside = Table.objects.get(pk=salon.pk)
        assert full_table_state(table=inside, viewer=anna).stakes == {"banker": 500}
    assert kept_reads.get(("default", inside.pk, inside.event_seq)) is None
    shared_reads(inside)  # committed now (in a test: the test's own transaction)
    assert kept_reads.get(("default", inside.pk, inside.event_seq)) is not None


def test_each_board_has_instances_of_its_own(salon: Table, client: Any) -> None:
    sit(salon, "anna", 1)
    ready(salon)
    table = Table.objects.get(pk=salon.pk)
    first, second = shared_reads(table), shared_reads(table)
    assert kept_reads.get(("default", table.pk, table.event_seq)) is not None
    for one, other in zip(first, second, strict=True):
        assert [row.pk for row in one] == [row.pk for row in other]
        assert all(a is not b for a, b in zip(one, other, strict=True))


def test_the_boards_of_one_event_wait_for_the_rows_one_of_them_reads() -> None:
    """Eight browsers ask for their boards at once: while one request reads the rows, the
    others for the same event number wait for them instead of reading them too."""
    reads = []
    started, release = threading.Event(), threading.Event()
    rows = ((("seat",),), (), ())

    def read() -> Any:
        reads.append(1)
        started.set()
        release.wait(2)
        return rows, True

    key = ("default", 1, 7)
    got = []
    first = threading.Thread(target=lambda: got.append(kept_reads.get_or_read(key, read)))
    first.start()
    started.wait(2)
    others = [
        threading.Thread(target=lambda: got.append(kept_reads.get_or_read(key, read)))
        for _ in range(3)
    ]
    for thread in others:
        thread.start()
    time.sleep(0.2)  # the others have asked by now, while the first still reads
    release.set()
    for thread in [first, *others]:
        thread.join(3)
    assert len(reads) == 1 and got == [rows] * 4
    # Rows that may not be kept (read in an open transaction) are not given to others.
    kept_reads.clear()
    assert kept_reads.get_or_read(key, lambda: (rows, False)) == rows
    assert kept_reads.get(key) is None
