"""Query budgets of a single-player round and the table page (SQLite and PostgreSQL).

Counted inside the test's transaction, so every step's own ``atomic`` shows up as a
SAVEPOINT/RELEASE pair: in production the same steps issue two statements fewer each.
Opening a player's escrow and house accounts at a table (their first rounds) is not counted.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from baccarat.models import Play, Round, Table
from baccarat.play import betting, rounds
from wallet import services as wallet

HTMX = {"HTTP_HX_REQUEST": "true"}

# A posting to the ledger writes its transaction, entries and balances in one statement
# on PostgreSQL, three elsewhere (``wallet.services._write``); a round posts twice.
LEDGER_EXTRA = 0 if connection.vendor == "postgresql" else 2
# Each step's writes and the ledger's locking read go to the database together on
# PostgreSQL (``baccarat.db.write_together``: one statement), one after the other
# elsewhere: the lock's positions taken, shoe, next shoe (a one-deck table) and round
# with the read, four more; the settle's round, bets, plays and revealed shoe with the
# read, four more; at a single seat the lock also writes the play's stack before.
APART = 0 if connection.vendor == "postgresql" else 4
SEAT_APART = 0 if connection.vendor == "postgresql" else 1
# The lock: the round and its staked plays read under the round's lock, the shoe locked,
# the stakes escrowed (the ledger's read with the writes, then its write).
LOCK_BUDGET = 10 + LEDGER_EXTRA + APART
# The settle takes the round's row with the conditional update that settles it.
DEAL_AND_SETTLE_BUDGET = 8 + LEDGER_EXTRA + APART
ROUND_PLAY_BUDGET = 14 + 2 * LEDGER_EXTRA + 2 * APART  # lock 10 + settle 4 (one deck too)
# A request reads its session from Redis in production; where sessions live in the
# database (the embedded default) it reads one more.
SESSION_READ = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
# The page: the session's user, the table, the notices, the player's last two plays with
# their bets and the player's open shoe (one read), the balances, the shoe's coups for
# the statistics.
TABLE_PAGE_BUDGET = 6 + SESSION_READ
# The requests as the page sends them, counted with their transaction statements (the
# test runs outside a transaction): the session's user and the table, then the seat lock
# (the player's row, with the stack and wallet balances) and the layout (plays with their
# bets and the open shoe, its row locked by a DEAL). A bet writes the round, the play and
# the bet when the layout opens one (one commit). DEAL locks and commits: its writes
# (positions taken, shoe, next shoe, round, the play's stack before) with the ledger's
# locking read, then the stake's posting; then it settles and commits: the round, bets,
# plays and revealed shoe with the ledger's locking read, then the settlement's posting;
# then renders the board (the shoe's coups for the statistics; the balances are the ones
# read under its locks, the lock left the next shoe on the round). Measured steady state
# on PostgreSQL: bet 7 (a chip that opens the round: its round, play and bet are one
# statement there, ``baccarat.db.insert_play``, three elsewhere; 7 on a round already
# open too), deal 13 at a one-deck table and at a cut-card one.
PLAY_INSERT_EXTRA = 0 if connection.vendor == "postgresql" else 2
BET_VIEW_BUDGET = 7 + PLAY_INSERT_EXTRA + SESSION_READ
DEAL_VIEW_BUDGET = 13 + 2 * LEDGER_EXTRA + 2 * APART + SEAT_APART + SESSION_READ


def _shoe_reads(queries: Any) -> list[str]:
    """The statements that read shoes apart (not joined to the plays, as the layout's do)."""
    return [
        q["sql"]
        for q in queries.captured_queries
        if 'FROM "baccarat_shoe"' in q["sql"] and '"baccarat_play"' not in q["sql"]
    ]


def _betting_round(player: Any, table: Table, kind: str = "banker") -> Round:
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind=kind, amount=500)
    return round


@pytest.fixture(params=["single_deck", "cut_card"])
def warm_table(request: Any, alice: Any, table: Table, cut_table: Table) -> Table:
    """A table where alice has a stack and one round was already played."""
    chosen = table if request.param == "single_deck" else cut_table
    wallet.wallet_rebuy(player=alice, table=chosen, amount=100_00, reference="budget-rebuy")
    rounds.round_play(round_id=_betting_round(alice, chosen, "player").pk)
    wallet.house_account(player=alice, table=chosen)  # a tie pushed the warm-up bet: none yet
    return chosen


def test_lock(alice: Any, warm_table: Table, django_assert_max_num_queries: Any) -> None:
    round = _betting_round(alice, warm_table)
    with django_assert_max_num_queries(LOCK_BUDGET):
        rounds.round_lock(round_id=round.pk)
    round.refresh_from_db()
    assert round.state == Round.State.LOCKED


def test_deal_and_settle(alice: Any, warm_table: Table, django_assert_max_num_queries: Any) -> None:
    round = _betting_round(alice, warm_table)
    rounds.round_lock(round_id=round.pk)
    with django_assert_max_num_queries(DEAL_AND_SETTLE_BUDGET):
        rounds.round_deal(round_id=round.pk)
        rounds.round_settle(round_id=round.pk)
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED and round.dealt_at is not None


def test_round_play(alice: Any, warm_table: Table, django_assert_max_num_queries: Any) -> None:
    round = _betting_round(alice, warm_table)
    with django_assert_max_num_queries(ROUND_PLAY_BUDGET):
        rounds.round_play(round_id=round.pk)
    play = Play.objects.get(round=round)
    assert play.balance_before is not None and play.balance_after is not None


def test_table_page(
    client: Any, alice: Any, warm_table: Table, django_assert_max_num_queries: Any
) -> None:
    _betting_round(alice, warm_table)
    client.force_login(alice)
    url = reverse("baccarat:table", args=[warm_table.slug])
    with django_assert_max_num_queries(TABLE_PAGE_BUDGET):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(TABLE_PAGE_BUDGET):
        assert client.get(url, **HTMX).status_code == 200


def test_balance_before_is_the_stack_before_the_stake(alice: Any, table: Table) -> None:
    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="r")
    round = _betting_round(alice, table)
    rounds.round_play(round_id=round.pk)
    play = Play.objects.get(round=round)
    assert play.balance_before == 100_00
    assert play.balance_after == 100_00 - 500 + play.payout_total


def test_balance_before_on_a_replayed_stake(alice: Any, table: Table) -> None:
    """A stake already in the ledger (replayed by the lock) still gives the right figure."""
    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="r")
    round = _betting_round(alice, table)
    wallet.wallet_stake(
        player=alice, table=table, round=round, amount=500, reference=f"stake:{round.pk}:{alice.pk}"
    )
    wallet.wallet_rebuy(player=alice, table=table, amount=10_00, reference="r2")
    rounds.round_lock(round_id=round.pk)
    assert Play.objects.get(round=round).balance_before == 100_00


def test_deal_page_shows_what_a_reload_shows(client: Any, alice: Any, table: Table) -> None:
    """The board rendered from the settled plays equals the one read from the database."""
    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="r")
    _betting_round(alice, table)
    client.force_login(alice)
    dealt = client.post(reverse("baccarat:table_deal", args=[table.slug]), {}, **HTMX)
    reloaded = client.get(reverse("baccarat:table", args=[table.slug]), **HTMX)
    assert b"result-banner" in dealt.content
    banner = dealt.content.split(b"result-banner", 1)[1][:400]
    assert banner == reloaded.content.split(b"result-banner", 1)[1][:400]


@pytest.mark.django_db(transaction=True)
def test_bet_and_deal_requests(
    client: Any, alice: Any, warm_table: Table, django_assert_max_num_queries: Any
) -> None:
    """The bet and DEAL requests, steady state (the layout repeats the last bet)."""
    client.force_login(alice)
    bet = reverse("baccarat:table_bet", args=[warm_table.slug])
    deal = reverse("baccarat:table_deal", args=[warm_table.slug])
    client.post(bet, {"kind": "banker", "amount": 500}, **HTMX)
    client.post(deal, {"round": "", "after": ""}, **HTMX)
    for _ in range(2):
        with django_assert_max_num_queries(BET_VIEW_BUDGET):
            assert client.post(bet, {"kind": "banker", "amount": 500}, **HTMX).status_code == 200
        with django_assert_max_num_queries(DEAL_VIEW_BUDGET):
            assert client.post(deal, {"round": "", "after": ""}, **HTMX).status_code == 200
    assert Round.objects.filter(table=warm_table, state=Round.State.SETTLED).count() == 4


def test_the_page_shows_the_open_shoe_without_asking_for_it(
    client: Any, alice: Any, cut_table: Table
) -> None:
    """At a cut-card table the latest round's shoe, read with the round, is the open one;
    after a change of decks it is not, and the page shows the shoe that replaced it."""
    from django.test.utils import CaptureQueriesContext

    from baccarat.models import Shoe

    wallet.wallet_rebuy(player=alice, table=cut_table, amount=100_00, reference="shoe-page")
    rounds.round_play(round_id=_betting_round(alice, cut_table, "player").pk)
    client.force_login(alice)
    url = reverse("baccarat:table", args=[cut_table.slug])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url)
    assert not _shoe_reads(queries)
    shoe = Shoe.objects.get(table=cut_table, player=alice, is_finished=False)
    assert shoe.commitment[:12].encode() in page.content
    cut_table.decks = 6
    cut_table.save()
    page = client.get(url)
    new = Shoe.objects.get(table=cut_table, player=alice, is_finished=False)
    assert new.pk != shoe.pk and new.state["decks"] == 6
    assert new.commitment[:12].encode() in page.content
    assert shoe.commitment[:12].encode() not in page.content


def test_a_chip_at_a_one_deck_table_shows_the_next_shoe_read_with_the_layout(
    client: Any, alice: Any, table: Table
) -> None:
    """At a table that reshuffles every coup the last round's shoe has ended; the chip's
    answer shows the one the next round is dealt from, read with the plays."""
    from django.test.utils import CaptureQueriesContext

    from baccarat.models import Shoe

    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="shoe-chip")
    played = _betting_round(alice, table, "player")
    rounds.round_play(round_id=played.pk)
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            reverse("baccarat:table_bet", args=[table.slug]),
            {"kind": "banker", "amount": 500},
            **HTMX,
        )
    assert answer.status_code == 200
    assert not _shoe_reads(queries)
    ended = Shoe.objects.get(pk=Round.objects.get(pk=played.pk).shoe_id)
    following = Shoe.objects.get(table=table, player=alice, is_finished=False)
    assert ended.is_finished and following.pk != ended.pk
    assert following.commitment[:12].encode() in answer.content
    assert ended.commitment[:12].encode() not in answer.content


@pytest.mark.django_db(transaction=True)
def test_the_ledger_accounts_are_locked_last_in_each_step_of_a_deal(
    client: Any, alice: Any, warm_table: Table
) -> None:
    """A DEAL that holds the ledger's row locks (the player's stack, escrow and house)
    makes anything else that moves those accounts wait: a rebuy, a cash-out from another
    tab, the recovery sweep. The lock and the settle each post to the ledger last: from
    the ledger's locking read to the commit, nothing
    but the ledger's own statements (its transaction, entries and balances) and, at the
    lock, the play's stack before the stake when the posting read another. On PostgreSQL
    the locking read is the last part of the step's one statement of writes
    (``baccarat.db.write_together`` runs it after them)."""
    import re

    from django.test.utils import CaptureQueriesContext

    client.force_login(alice)
    client.post(
        reverse("baccarat:table_bet", args=[warm_table.slug]),
        {"kind": "banker", "amount": 500},
        **HTMX,
    )
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            reverse("baccarat:table_deal", args=[warm_table.slug]),
            {"round": "", "after": ""},
            **HTMX,
        )
    assert answer.status_code == 200 and b"result-banner" in answer.content
    lock_read = 'SELECT id, kind, owner_id, table_id, balance FROM "wallet_account"'
    ledger_lock = re.compile(rf"^({re.escape(lock_read)}|WITH .* r AS \({re.escape(lock_read)})")
    ledger_write = re.compile(
        r'^(INSERT INTO "wallet_(transaction|entry)"|UPDATE "wallet_account"'
        r'|WITH txn AS \(INSERT INTO "wallet_transaction"'
        r'|UPDATE "baccarat_play" SET "balance_before" = )'
    )
    postings = 0
    held = False
    for sql in (query["sql"] for query in queries.captured_queries):
        if ledger_lock.match(sql):
            held, postings = True, postings + 1
        elif sql == "COMMIT":
            held = False
        elif held:
            assert ledger_write.match(sql), f"under the ledger's lock: {sql[:80]}"
    assert postings == 2  # the stake at the lock, the settlement
    assert Round.objects.filter(table=warm_table, state=Round.State.SETTLED).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_deals_answer_shows_the_stack_the_ledger_holds(
    client: Any, alice: Any, table: Table
) -> None:
    """The DEAL's answer shows the balances read under its locks, not read again: after
    wins, losses and pushes alike the stack it shows is the ledger's."""
    import re

    from django.utils import translation

    from wallet.formatting import format_money
    from wallet.models import Account

    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="shown")
    client.force_login(alice)
    bet = reverse("baccarat:table_bet", args=[table.slug])
    deal = reverse("baccarat:table_deal", args=[table.slug])
    shown = re.compile(r'id="stack" class="swap">.*?<span class="outcome">([^<]*)</span>', re.S)
    outcomes = set()
    for n in range(12):
        client.post(bet, {"kind": "player" if n % 2 else "tie", "amount": 100}, **HTMX)
        answer = client.post(deal, {"round": "", "after": ""}, **HTMX)
        match = shown.search(answer.content.decode())
        assert match is not None
        stack = Account.objects.get(owner=alice, table=table, kind="stack").balance
        with translation.override("en"):
            assert match.group(1) == format_money(stack)
        outcomes.add(Round.objects.filter(table=table).latest("pk").outcome)
    assert len(outcomes) >= 2


@pytest.mark.django_db(transaction=True)
def test_deal_with_the_layout_request(
    client: Any, alice: Any, warm_table: Table, django_assert_max_num_queries: Any
) -> None:
    """A round as the page with its script plays it: DEAL with the layout, one request.
    The DEAL's statements and the round, play and bets it opens (one statement on
    PostgreSQL, ``baccarat.db.insert_play``): 14 there."""
    client.force_login(alice)
    deal = reverse("baccarat:table_deal", args=[warm_table.slug])
    last = Round.objects.filter(table=warm_table).latest("pk").pk
    for kind in ("banker", "player", "banker"):
        with django_assert_max_num_queries(DEAL_VIEW_BUDGET + 1 + PLAY_INSERT_EXTRA):
            answer = client.post(
                deal, {"after": last, "layout": "on", f"stake_{kind}": 500}, **HTMX
            )
        assert b"board dealing" in answer.content
        last = Round.objects.filter(table=warm_table).latest("pk").pk
    assert Round.objects.filter(table=warm_table, state=Round.State.SETTLED).count() == 4
