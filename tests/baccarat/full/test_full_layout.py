"""Chips laid out on the full table's page (static/js/table.js): the layout goes to the
server once the player's chips pause (``layout/``) and with Deal, so a player's round is
one request or two instead of one per chip. Each layout is checked as a chip is; a
refused one changes nothing and writes no event; a taken one is every seat's to see."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat import engine
from baccarat.errors import RoundError
from baccarat.full import croupier
from baccarat.models import Play, Round, Table, TableEvent
from tests.baccarat.conftest import make_player, ready, sit
from wallet.models import Transaction

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REFUSALS = (RoundError, engine.EngineError)


def post(client: Any, table: Table, action: str, data: dict[str, Any], **headers: Any) -> Any:
    return client.post(reverse("baccarat:table", args=[table.slug]) + action, data, **headers)


def layout(**stakes: int) -> dict[str, Any]:
    return {"layout": "on", **{f"stake_{kind}": stake for kind, stake in stakes.items()}}


def stakes_of(round: Round, player: Any) -> dict[str, int]:
    play = Play.objects.filter(round=round, player=player).first()
    return {} if play is None else dict(play.bets.values_list("kind", "stake"))


def events_after(table: Table, seq: int) -> list[TableEvent]:
    return list(TableEvent.objects.filter(table=table, seq__gt=seq).order_by("seq"))


def seq_of(table: Table) -> int:
    return Table.objects.get(pk=table.pk).event_seq


def test_a_layout_replaces_the_bets_and_every_seat_is_told(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="tie", amount=500, take_back=False)
    seq = seq_of(salon)
    croupier.full_layout(table=salon, player=anna, stakes={"banker": 1500, "tie": 1000}, token="a1")
    assert stakes_of(round, anna) == {"banker": 1500, "tie": 1000}
    [event] = events_after(salon, seq)
    assert (event.kind, event.data["seat"], event.data["stakes"]) == (
        "bets",
        1,
        {"banker": 1500, "tie": 1000},
    )
    # Its repeat (a client's retry) changes and tells nothing, whatever it says now.
    croupier.full_layout(table=salon, player=anna, stakes={"player": 500}, token="a1")
    assert stakes_of(round, anna) == {"banker": 1500, "tie": 1000}
    assert seq_of(salon) == seq + 1
    # An empty layout takes the bets back; no money moved at any point.
    croupier.full_layout(table=salon, player=anna, stakes={}, token="a2")
    assert stakes_of(round, anna) == {}
    assert not Transaction.objects.filter(round=round).exists()


@pytest.mark.parametrize(
    ("stakes", "code"),
    [
        ({"banker": 30500}, "above_max"),  # the salon's maximum is 300.00
        ({"banker": 550}, "not_a_chip"),  # the smallest chip is 1.00
        ({"banker": -500}, "not_a_chip"),
        ({"banker": 10**12}, "above_max"),
        ({"player": 500, "banker": 500}, "combination_not_allowed"),
        ({"banker": 20000, "tie": 20000}, "stack_short"),  # 100.00 brought to the table
        ({"player_pair": 500}, "unknown_bet_kind"),  # no pair bets here
    ],
)
def test_a_refused_layout_changes_nothing(salon: Table, stakes: dict[str, int], code: str) -> None:
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="tie", amount=500, take_back=False)
    seq = seq_of(salon)
    with pytest.raises(REFUSALS) as refused:
        croupier.full_layout(table=salon, player=anna, stakes=stakes, token="x")
    assert getattr(refused.value, "code", None) == code
    assert stakes_of(round, anna) == {"tie": 500}
    assert seq_of(salon) == seq


def test_a_layout_after_betting_closed_or_without_a_seat_is_refused(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    cleo = make_player("cleo")
    round = ready(salon)
    with pytest.raises(RoundError) as unseated:
        croupier.full_layout(table=salon, player=cleo, stakes={"banker": 500})
    assert unseated.value.code == "not_seated"
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(RoundError) as closed:
        croupier.full_layout(table=salon, player=anna, stakes={"banker": 500})
    assert closed.value.code == "betting_not_open"
    assert stakes_of(round, anna) == {} and stakes_of(round, cleo) == {}


def test_deal_with_the_layout_plays_it_in_one_request(salon: Table) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    croupier.full_layout(table=salon, player=anna, stakes={"banker": 500}, token="early")
    seq = seq_of(salon)
    decided = croupier.full_decide(
        table=salon, player=anna, deal=True, token="d1", stakes={"banker": 2000, "tie": 500}
    )
    assert stakes_of(round, anna) == {"banker": 2000, "tie": 500}
    assert decided.mine is not None and decided.mine.stack == 100_00 - 2500
    stake = Transaction.objects.get(round=round, kind=Transaction.Kind.STAKE)
    assert stake.reference == f"stake:{round.pk}:{anna.pk}"
    told = [(event.kind, event.data) for event in events_after(salon, seq)]
    # One event for every page: the decision, with the stakes it plays.
    assert told == [
        (
            "decision",
            {
                "round": round.pk,
                "seat": 1,
                "decision": "deal",
                "stakes": {"banker": 2000, "tie": 500},
            },
        )
    ]
    # The same layout as the server holds already: the decision alone.
    croupier.full_layout(table=salon, player=ben, stakes={"player": 500}, token="b1")
    seq = seq_of(salon)
    croupier.full_decide(table=salon, player=ben, deal=True, token="d2", stakes={"player": 500})
    [decision] = events_after(salon, seq)
    assert decision.kind == "decision" and "stakes" not in decision.data


def test_deal_with_a_layout_below_the_minimum_raises_it_and_tells_it(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    decided = croupier.full_decide(
        table=salon, player=anna, deal=True, token="d1", stakes={"banker": 100}
    )
    assert decided.raised == ["banker"]
    assert stakes_of(round, anna) == {"banker": 500}  # the salon's minimum
    decision = events_after(salon, 0)[-1]
    assert decision.kind == "decision" and decision.data["stakes"] == {"banker": 500}


@pytest.mark.parametrize(
    "stakes",
    [{"banker": 30500}, {"player": 500, "banker": 500}, {"banker": 20000, "tie": 20000}, {}],
)
def test_deal_with_a_refused_layout_decides_and_moves_nothing(
    salon: Table, stakes: dict[str, int]
) -> None:
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_layout(table=salon, player=anna, stakes={"tie": 500}, token="t")
    seq = seq_of(salon)
    with pytest.raises(REFUSALS):
        croupier.full_decide(table=salon, player=anna, deal=True, token="d1", stakes=stakes)
    play = Play.objects.get(round=round, player=anna)
    assert play.decision == "" and stakes_of(round, anna) == {"tie": 500}
    assert not Transaction.objects.filter(round=round).exists()
    assert seq_of(salon) == seq


def test_the_layout_view_answers_nothing_when_taken_and_why_when_refused(
    salon: Table, client: Any
) -> None:
    anna = sit(salon, "anna", 1)
    anna.language = "de"
    anna.save(update_fields=["language"])
    round = ready(salon)
    client.force_login(anna)
    taken = post(client, salon, "layout/", {**layout(banker=1500), "token": "k1"}, **HTMX)
    assert taken.status_code == 204 and taken.content == b""
    assert stakes_of(round, anna) == {"banker": 1500}
    seq = seq_of(salon)
    refused = post(client, salon, "layout/", {**layout(banker=30500), "token": "k2"}, **HTMX)
    html = refused.content.decode()
    assert refused.status_code == 200 and refused["HX-Retarget"] == "#board-mine"
    message = re.search(r'<div class="form-errors" role="alert"><p>(.*?)</p>', html)
    assert message and message.group(1) == "Dieser Einsatz liegt über dem Tischmaximum."
    assert re.search(r'data-kind="banker"[^>]*data-stake="1500"', html)  # the server's
    for bad in ({"stake_banker": "ten"}, {"stake_banker": "-5"}, {"stake_tie": "1e3"}):
        answer = post(client, salon, "layout/", {"layout": "on", **bad}, **HTMX)
        assert answer.status_code == 200 and 'class="form-errors"' in answer.content.decode()
    answer = post(client, salon, "layout/", {"stake_banker": "500"}, **HTMX)  # no layout
    assert 'class="form-errors"' in answer.content.decode()
    assert stakes_of(round, anna) == {"banker": 1500} and seq_of(salon) == seq
    # An empty layout is the player's Clear.
    cleared = post(client, salon, "layout/", {**layout(), "token": "k3"}, **HTMX)
    assert cleared.status_code == 204 and stakes_of(round, anna) == {}


def test_the_deal_view_plays_the_layout_sent_with_it(salon: Table, client: Any) -> None:
    anna, _ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    client.force_login(anna)
    answer = post(client, salon, "deal/", {**layout(player=1000), "token": "d1"}, **HTMX)
    html = answer.content.decode()
    assert 'data-my-decision="deal"' in html and 'id="stack">€90.00<' in html
    assert stakes_of(round, anna) == {"player": 1000}
    # Pass takes the bets back, whatever layout came with it.
    client.force_login(_ben)
    post(client, salon, "pass/", {**layout(banker=500), "token": "p1"}, **HTMX)
    assert stakes_of(round, _ben) == {}


def test_the_layout_is_only_a_full_tables(client: Any, salon: Table) -> None:
    single = Table.objects.create(name="Golden", slug="golden", kind=Table.Kind.SINGLE)
    client.force_login(make_player("anna"))
    assert post(client, single, "layout/", layout(banker=500), **HTMX).status_code == 404
    assert client.get(reverse("baccarat:table_layout", args=[salon.slug])).status_code == 405


def test_the_page_carries_what_its_script_checks_a_chip_against(salon: Table, client: Any) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    client.force_login(anna)
    page = client.get(reverse("baccarat:table", args=[salon.slug])).content.decode()
    assert "data-local-layout" in page
    assert f'data-layout-url="{reverse("baccarat:table_layout", args=[salon.slug])}"' in page
    assert 'data-stack="10000"' in page
    assert re.search(r'data-kind="banker"[^>]*data-max="30000"[^>]*data-step="20"', page)
    refusals = re.search(r'<template id="layout-refusals">(.*?)</template>', page, re.S)
    assert refusals and 'data-code="above_max"' in refusals.group(1)
    assert "#buy-in" not in refusals.group(1)  # a full table has no rebuy panel
