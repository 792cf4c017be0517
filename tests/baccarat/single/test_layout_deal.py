"""DEAL with the layout the page's script laid out in the browser: a round in one request.

The page sends ``layout`` and a ``stake_<spot>`` for each spot with chips; the server
checks them as it checks a chip (whole chips, the spots, the rules, the maximums, the
stack) and plays exactly them, or refuses in words and changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from baccarat.errors import RoundError
from baccarat.models import Bet, Play, Round, Table
from baccarat.play import betting
from tests.baccarat.conftest import practice_for
from wallet import services as wallet
from wallet.models import Transaction

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name: str, table: Table) -> str:
    return reverse(f"baccarat:{name}", args=[table.slug])


def _deal(client: Any, table: Table, stakes: dict[str, Any], **fields: Any) -> Any:
    data = {"layout": "on", **{f"stake_{kind}": v for kind, v in stakes.items()}, **fields}
    return client.post(_url("table_deal", table), data, **HTMX)


def _bets(round: Round) -> dict[str, int]:
    return {bet.kind: bet.stake for bet in Bet.objects.filter(play__round=round)}


def _money_state(player: Any, table: Table) -> tuple[int, int, int, int]:
    stack = wallet.stack_account(player=player, table=table).balance
    return stack, Round.objects.count(), Bet.objects.count(), Transaction.objects.count()


def test_a_layout_is_played_as_sent_in_one_request(
    client_alice: Any, seated: Any, table: Table, stack_of: Any
) -> None:
    answer = _deal(client_alice, table, {"player": 500, "tie": 100})
    assert answer.status_code == 200
    assert b'class="board dealing' in answer.content and b"form-errors" not in answer.content
    round = Round.objects.get()
    assert round.state == Round.State.SETTLED
    assert _bets(round) == {"player": 500, "tie": 100}
    play = Play.objects.get(round=round)
    assert stack_of(seated, table) == 100_00 - 600 + play.payout_total
    # The answer's board shows the layout again (seed 002) and which round it follows.
    assert b'data-stake="500"' in answer.content
    assert f'name="after" value="{round.pk}"'.encode() in answer.content


def test_a_layout_replaces_the_repeated_bets_and_the_servers_own(
    client_alice: Any, table: Table
) -> None:
    _deal(client_alice, table, {"banker": 500})
    first = Round.objects.get()
    # The board shows banker 500 again; the page laid out player 300 instead.
    _deal(client_alice, table, {"player": 300}, after=first.pk)
    second = Round.objects.exclude(pk=first.pk).get()
    assert _bets(second) == {"player": 300}
    # A chip posted without the script opened a round; the layout sent with DEAL wins.
    client_alice.post(_url("table_bet", table), {"kind": "tie", "amount": 100}, **HTMX)
    third = Round.objects.get(state=Round.State.BETTING)
    _deal(client_alice, table, {"banker": 200}, round=third.pk)
    third.refresh_from_db()
    assert third.state == Round.State.SETTLED and _bets(third) == {"banker": 200}


def test_the_same_deal_sent_twice_deals_one_round(client_alice: Any, table: Table) -> None:
    _deal(client_alice, table, {"banker": 500})
    first = Round.objects.get()
    for _ in range(2):
        answer = _deal(client_alice, table, {"player": 500}, after=first.pk)
        assert answer.status_code == 200 and b"form-errors" not in answer.content
    assert Round.objects.count() == 2
    assert Transaction.objects.filter(kind="settle").count() == 2


def test_without_the_layout_flag_the_stakes_are_not_read(client_alice: Any, table: Table) -> None:
    """The page without its script sends no layout: DEAL plays what the server holds."""
    client_alice.post(_url("table_bet", table), {"kind": "tie", "amount": 100}, **HTMX)
    client_alice.post(_url("table_deal", table), {"stake_player": 900}, **HTMX)
    assert _bets(Round.objects.get()) == {"tie": 100}


@pytest.mark.parametrize(
    ("stakes", "message"),
    [
        ({}, "Place a bet first."),
        ({"player": 150}, "Stakes must be whole chips."),
        ({"player": "ten"}, "Stakes must be whole chips."),
        ({"player": -500}, "Stakes must be positive."),
        ({"player": 10**20}, "This bet is above the table maximum."),
        ({"player": 600_00}, "This bet is above the table maximum."),
        ({"player": 100, "banker": 100}, "You cannot bet on player and banker in the same round."),
        ({"player": 200_00}, "Your stack at the table is too small"),
        ({"tie": 60_00, "player": 50_00}, "Your stack at the table is too small"),
    ],
)
def test_a_refused_layout_changes_nothing(
    client_alice: Any, seated: Any, table: Table, stakes: dict[str, Any], message: str
) -> None:
    before = _money_state(seated, table)
    answer = _deal(client_alice, table, stakes)
    assert answer.status_code == 200
    assert b"form-errors" in answer.content and message.encode() in answer.content
    assert _money_state(seated, table) == before


def test_a_pair_at_a_table_without_pairs_is_refused(
    client_alice: Any, seated: Any, table: Table
) -> None:
    table.pairs_enabled = False
    table.save()
    before = _money_state(seated, table)
    answer = _deal(client_alice, table, {"player_pair": 100})
    assert b"There is no such betting spot at this table." in answer.content
    assert _money_state(seated, table) == before


def test_a_refusal_is_in_the_players_language(client: Any, seated: Any, table: Table) -> None:
    seated.language = "de"
    seated.save()
    client.force_login(seated)
    with translation.override("de"):
        expected = str(RoundError("stack_short").message)
    answer = _deal(client, table, {"player": 200_00})
    assert expected.encode() in answer.content
    assert not Round.objects.exists()


def test_a_layout_for_another_players_round_is_refused(
    client: Any, seated: Any, bob: Any, table: Table
) -> None:
    wallet.wallet_rebuy(player=bob, table=table, amount=50_00, reference="bob")
    bobs = betting.round_open(table=table, player=bob)
    betting.bet_place(round=bobs, player=bob, kind="tie", amount=100)
    client.force_login(seated)
    answer = _deal(client, table, {"player": 500}, round=bobs.pk)
    assert b"This round does not exist at this table." in answer.content
    bobs.refresh_from_db()
    assert bobs.state == Round.State.BETTING and _bets(bobs) == {"tie": 100}
    assert not Play.objects.filter(player=seated).exists()


def test_a_layout_at_a_closed_table_is_refused(
    client_alice: Any, seated: Any, table: Table
) -> None:
    table.is_active = False
    table.save()
    before = _money_state(seated, table)
    answer = _deal(client_alice, table, {"player": 500})
    assert answer.status_code == 404  # a closed table is no table to play at
    assert _money_state(seated, table) == before


def test_the_page_gives_its_script_what_it_checks_a_chip_against(
    client_alice: Any, table: Table
) -> None:
    page = client_alice.get(_url("table", table)).content
    assert b"data-local-layout" in page
    assert b'id="money-format"' in page and b'id="layout-refusals"' in page
    assert b'data-code="stack_short"' in page and b'href="#buy-in"' in page
    assert f'data-max="{table.max_player}"'.encode() in page
    assert b'data-step="20"' in page  # Banker, with the 5% commission
    assert b'data-stack="10000"' in page and b"data-exclusive" in page
    refusals = re.search(rb'<template id="layout-refusals">(.*?)</template>', page, re.S)
    assert refusals and b'href="#buy-in"' in refusals.group(1)  # a short stack: rebuy


def test_a_practice_tables_refusals_offer_no_rebuy(client: Any, seated: Any) -> None:
    """Practice chips are issued once: a short stack there has no rebuy to offer."""
    session = practice_for(seated)
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[session.table.slug])).content
    refusals = re.search(rb'<template id="layout-refusals">(.*?)</template>', page, re.S)
    assert refusals and b'data-code="stack_short"' in refusals.group(1)
    assert b"#buy-in" not in refusals.group(1)


def test_exit_asks_about_the_chips_the_page_has_laid_out(
    client_alice: Any, seated: Any, table: Table, stack_of: Any
) -> None:
    """The page's script sends the chips it laid out with EXIT: with some, EXIT asks first
    (naming them); with none, the player leaves, even beside the last round's bets shown
    again (nothing is staked before DEAL)."""
    exit = _url("table_exit", table)
    asked = client_alice.post(exit, {"layout_stake": 700}, **HTMX)
    assert b"exit-confirm" in asked.content and b"\xe2\x82\xac7.00" in asked.content
    assert stack_of(seated, table) == 100_00
    _deal(client_alice, table, {"tie": 100})  # the board now shows tie 1.00 again
    left = client_alice.post(exit, {"layout_stake": 0}, **HTMX)
    assert left.status_code == 200 and b"exit-confirm" not in left.content
    assert stack_of(seated, table) == 0
