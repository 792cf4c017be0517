"""What a full table's requests cost, and the savings that must not change what they do:
events written at the end of their change, the seat's "seen" written at most every few
seconds, the stakes escrowed at DEAL not posted again at the lock, the croupier ticked by
the first player who sits down."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from baccarat.events import event_write, table_change
from baccarat.full import croupier, seats
from baccarat.models import Round, Seat, Table, TableEvent
from tests.baccarat.conftest import make_player, ready, sit
from wallet import services as wallet
from wallet.models import Transaction

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_changes_events_are_written_together_at_its_end(salon: Table) -> None:
    start = Table.objects.get(pk=salon.pk).event_seq
    with table_change(salon.pk) as table:
        event_write(table, "chat", text="one")
        event_write(table, "chat", text="two")
        assert not TableEvent.objects.filter(table=salon).exists()  # not yet
    rows = list(TableEvent.objects.filter(table=salon).order_by("seq"))
    assert [(e.seq, e.data["text"]) for e in rows] == [(start + 1, "one"), (start + 2, "two")]
    assert rows[0].created_at == rows[1].created_at
    assert Table.objects.get(pk=salon.pk).event_seq == start + 2


def test_a_change_that_fails_writes_no_event(salon: Table) -> None:
    with pytest.raises(ZeroDivisionError), table_change(salon.pk) as table:
        event_write(table, "chat", text="lost")
        1 / 0  # noqa: B018
    assert not TableEvent.objects.filter(table=salon).exists()
    assert Table.objects.get(pk=salon.pk).event_seq == 0


def test_the_croupiers_step_writes_every_event_of_the_deal_at_once(salon: Table) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    for player in (anna, ben):
        croupier.full_bet(table=salon, player=player, kind="banker", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    after = TableEvent.objects.filter(table=salon).order_by("-seq").first().seq
    croupier.full_decide(table=salon, player=ben, deal=True)
    decided = list(TableEvent.objects.filter(table=salon, seq__gt=after).order_by("seq"))
    assert [event.kind for event in decided] == ["decision"]  # the last Deal deals nothing
    croupier.table_tick(table_id=salon.pk)
    dealt = list(TableEvent.objects.filter(table=salon, seq__gt=decided[0].seq).order_by("seq"))
    kinds = [event.kind for event in dealt]
    assert kinds[0] == "betting_closed" and kinds[-2:] == ["result", "payouts"]
    assert len({event.created_at for event in dealt}) == 1
    assert Round.objects.get(pk=round.pk).state == Round.State.SETTLED


def test_the_lock_reads_the_stakes_escrowed_at_deal_instead_of_posting_them_again(
    salon: Table,
) -> None:
    players = [sit(salon, name, n) for n, name in enumerate(["anna", "ben", "cleo"], start=1)]
    round = ready(salon)
    for player in players:
        croupier.full_bet(table=salon, player=player, kind="player", amount=1500, take_back=False)
        croupier.full_decide(table=salon, player=player, deal=True)
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    stakes = Transaction.objects.filter(round=round, kind=Transaction.Kind.STAKE)
    assert stakes.count() == 3  # one each, at DEAL; none at the lock
    settled = Round.objects.get(pk=round.pk)
    assert settled.state == Round.State.SETTLED
    for play in settled.plays.all():
        assert play.balance_before == 100_00 and play.stake_total == 1500


def test_a_board_writes_the_seat_seen_at_most_every_few_seconds(salon: Table, client: Any) -> None:
    anna = sit(salon, "anna", 1)
    client.force_login(anna)
    page = reverse("baccarat:table", args=[salon.slug])
    long_ago = timezone.now() - timedelta(seconds=seats.SEEN_EVERY_SECONDS + 1)
    Seat.objects.filter(player=anna).update(last_seen=long_ago)
    client.get(page, **HTMX)
    seen = Seat.objects.get(player=anna).last_seen
    assert seen > long_ago
    client.get(page, **HTMX)  # a moment later: nothing written
    assert Seat.objects.get(player=anna).last_seen == seen


def test_only_the_first_player_to_sit_ticks_the_croupier(
    salon: Table, client: Any, monkeypatch: Any
) -> None:
    ticks: list[int] = []
    real = croupier.table_tick
    monkeypatch.setattr(croupier, "table_tick", lambda **kw: ticks.append(1) or real(**kw))
    for number, name in enumerate(["anna", "ben"], start=1):
        client.force_login(make_player(name))
        sit_url = reverse("baccarat:table_sit", args=[salon.slug])
        client.post(sit_url, {"seat": number, "amount": 100, "token": name}, **HTMX)
    assert Seat.objects.filter(table=salon).count() == 2
    assert len(ticks) == 1
    assert TableEvent.objects.filter(table=salon, kind="shoe_new").count() == 1


# Request budgets at a full table of eight, steady state, counted with the transaction
# statements (outside a test transaction), session and user included. Measured
# A request reads its session from Redis in production; where sessions live in the
# database (the embedded default) it reads one more.
SESSION_READ = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
# A posting to the ledger is one statement after its locking read on PostgreSQL, three
# elsewhere (``wallet.services._write``).
LEDGER_EXTRA = 0 if connection.vendor == "postgresql" else 2
# The lock's writes (positions taken, shoe, round) and the settle's (round, plays, bets)
# with the ledger's locking read are one statement each on PostgreSQL
# (``baccarat.db.write_together``), five more elsewhere.
APART = 0 if connection.vendor == "postgresql" else 5
# A change's events and the table's new event number: one statement on PostgreSQL, two
# elsewhere. A new play with its bets likewise (``baccarat.db.insert_play``).
EVENTS_APART = PLAY_APART = 0 if connection.vendor == "postgresql" else 1
# The croupier's step locks every seat before the table, one statement on PostgreSQL;
# SQLite has no row locks (a write transaction holds the whole database).
SEATS_LOCK = 1 if connection.vendor == "postgresql" else 0
# On PostgreSQL: a chip 10 (in its transaction: the seat locked with the stack, the open
# round and the player's play with its bets, written-out reads; the bets; the event,
# whose statement takes the table's lock for it and the commit alone; the answer, the
# player's own part of the board, is drawn from them as the chip left them), a Deal 12
# (the seat, those two reads, the ledger's two, the play with its decision, the event,
# the commit, then one count of who has still to decide), the last Deal as many (it
# leaves the deal to the croupier's step). The croupier's step that deals 23 (every
# seat locked, then the table; the lock reads the stakes escrowed at each DEAL back in
# one query and locks and settles the round and plays it read under those locks, not
# read again; the settlement of all eight is one ledger write, their plays and bets
# written with the round), in the worker, where no player waits for it.
FULL_BET_BUDGET = 10 + EVENTS_APART + SESSION_READ
FULL_DEAL_BUDGET = 12 + LEDGER_EXTRA + EVENTS_APART + SESSION_READ  # the stake's posting
DEALING_STEP_BUDGET = 22 + SEATS_LOCK + LEDGER_EXTRA + APART + EVENTS_APART  # the settlement
# Deal with the layout the page laid out (its chips, one request), the round's first
# change: as many as a Deal, the new play inserted with its bets and decision in one
# statement where a Deal updates the decision of a play stored before.
# The chips the page sent on a pause cost as many as one chip, and one more as the round's
# first change (its play).
FULL_LAYOUT_DEAL_BUDGET = FULL_DEAL_BUDGET + PLAY_APART


@pytest.mark.django_db(transaction=True)
def test_full_table_requests_stay_within_their_budgets(salon: Table, monkeypatch: Any) -> None:
    from django.test import Client

    # A seat's "seen" write is throttled to one per five seconds (its own test above): on
    # a slow machine the four rounds below take longer than that, and a request that
    # happens to carry it counts one more. Steady state is measured without it.
    monkeypatch.setattr(seats, "SEEN_EVERY_SECONDS", 3600)

    players = [sit(salon, f"p{n}", n) for n in range(1, 9)]
    for player in players:  # opened by a player's first rounds here: not counted
        wallet.escrow_account(player=player, table=salon)
        wallet.house_account(player=player, table=salon)
    clients = []
    for player in players:
        client = Client()
        client.force_login(player)
        clients.append(client)
    base = reverse("baccarat:table", args=[salon.slug])
    counts: dict[str, list[int]] = {
        "bet": [],
        "deal": [],
        "last deal": [],
        "dealing": [],
        "deal with the layout": [],
        "layout": [],
    }

    def post(name: str, client: Any, action: str, data: dict[str, Any]) -> None:
        with CaptureQueriesContext(connection) as queries:
            assert client.post(base + action, data, **HTMX).status_code == 200
        counts[name].append(len(queries))

    ready(salon)
    layout = {"layout": "on", "stake_banker": 1000}
    for number in range(6):
        round = croupier.open_round(salon)
        assert round is not None
        if number % 2:  # as the page plays: its chips with Deal (one sent on a pause)
            with CaptureQueriesContext(connection) as queries:
                assert clients[0].post(base + "layout/", layout, **HTMX).status_code == 204
            counts["layout"].append(len(queries))
            for client in clients:
                post("deal with the layout", client, "deal/", layout)
        else:  # as without the script: a chip at a time
            for client in clients:
                client.post(base + "bet/", {"kind": "banker", "amount": 500}, **HTMX)
                post("bet", client, "bet/", {"kind": "banker", "amount": 500})
            for client in clients[:-1]:
                post("deal", client, "deal/", {})
            post("last deal", clients[-1], "deal/", {})
        assert Round.objects.get(pk=round.pk).state == Round.State.BETTING
        with CaptureQueriesContext(connection) as queries:
            croupier.table_tick(table_id=salon.pk)  # the worker's task, sent for now
        counts["dealing"].append(len(queries))
        assert Round.objects.get(pk=round.pk).state == Round.State.SETTLED
        # The next round opens once the pause between two cycles has passed.
        croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
    # Constant in the length of the shoe: the panel drawn anew for each coup reads the
    # coups with their cards in one query.
    assert len(set(counts["dealing"])) == 1, counts["dealing"]
    most = {name: max(values) for name, values in counts.items()}
    assert most["bet"] <= FULL_BET_BUDGET, most
    assert most["deal"] <= FULL_DEAL_BUDGET, most
    assert most["last deal"] <= FULL_DEAL_BUDGET, most  # as light as any other Deal
    assert most["dealing"] <= DEALING_STEP_BUDGET, most
    assert most["layout"] <= FULL_BET_BUDGET + 1, most  # + the play: the round's first change
    assert most["deal with the layout"] <= FULL_LAYOUT_DEAL_BUDGET, most


# A board refresh (what every browser at the table fetches on each live event): the
# session's user, the table, the seats, the two newest rounds with their shoe, their
# plays with their bets, the viewer's balances. The open shoe is the newest round's; it
# is looked up only while a new shoe waits for its cut. The notices are asked for only
# after a void (``?notices=1``).
BOARD_BUDGET = 6 + SESSION_READ


@pytest.mark.django_db(transaction=True)
def test_a_board_refresh_stays_within_its_budget(salon: Table, monkeypatch: Any) -> None:
    from django.test import Client

    monkeypatch.setattr(seats, "SEEN_EVERY_SECONDS", 3600)
    players = [sit(salon, name, number) for number, name in enumerate(["ann", "bo", "cy"], 1)]
    ready(salon)
    for player in players[:2]:
        croupier.full_bet(table=salon, player=player, kind="banker", amount=500, take_back=False)
        croupier.full_decide(table=salon, player=player, deal=True)
    croupier.full_decide(table=salon, player=players[2], deal=False)
    croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
    croupier.full_bet(table=salon, player=players[0], kind="player", amount=500, take_back=False)
    client = Client()
    client.force_login(players[2])
    board = reverse("baccarat:table", args=[salon.slug])
    client.get(board, **HTMX)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(board, **HTMX)
    assert response.status_code == 200 and b'class="seat' in response.content
    assert len(queries) <= BOARD_BUDGET, [q["sql"][:80] for q in queries.captured_queries]
    assert not [q for q in queries.captured_queries if 'FROM "baccarat_shoe"' in q["sql"]]


@pytest.mark.django_db(transaction=True)
def test_the_board_brings_the_notices_when_the_page_asks_after_a_void(
    salon: Table, client: Any
) -> None:
    """After a ``round_void`` event the page asks its board for the player's notices: the
    void's notice shows there, once. Other refreshes do not ask and leave it waiting."""
    from baccarat.play import rounds

    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    rounds.round_void(round_id=round.pk, reason="Shuffler jam", by="support")
    client.force_login(anna)
    board = reverse("baccarat:table", args=[salon.slug])
    assert f"#{round.pk}" not in client.get(board, **HTMX).content.decode()
    told = client.get(board, {"notices": "1"}, **HTMX).content.decode()
    assert f"Your round #{round.pk} at Salon was voided" in told
    assert f"#{round.pk}" not in client.get(board, {"notices": "1"}, **HTMX).content.decode()
