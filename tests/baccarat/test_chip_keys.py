"""A chip, Clear or Same bet sent to the server carries the press's idempotency key (the
page's form draws one, its script makes one per press): a repeat with it (a client's
retry, a double submit) changes nothing, whatever its other fields say, and is answered
with the table as it is. At single-seat tables (chips posted without the script) and at
full tables; raced on PostgreSQL in tests/baccarat/full/test_croupier_concurrency.py."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.full import croupier
from baccarat.models import Play, Round, Table, TableEvent
from baccarat.play import betting
from tests.baccarat.conftest import ready, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name: str, table: Table) -> str:
    return reverse(f"baccarat:{name}", args=[table.slug])


def _stakes(player: Any) -> dict[str, int]:
    play = Play.objects.filter(player=player, round__state=Round.State.BETTING).first()
    return betting.stakes_of(play) if play else {}


def test_a_repeated_chip_changes_nothing_whatever_its_fields(
    client_alice: Any, seated: Any, table: Table
) -> None:
    bet = _url("table_bet", table)
    first = client_alice.post(bet, {"kind": "banker", "amount": 100, "token": "chip1"})
    assert first.status_code == 302
    assert _stakes(seated) == {"banker": 100}
    for fields in (
        {"kind": "banker", "amount": 100},  # the same request again
        {"kind": "player", "amount": 500},  # the same key, other fields
        {"remove": "banker"},
    ):
        again = client_alice.post(bet, {**fields, "token": "chip1"}, **HTMX)
        assert again.status_code == 200 and b"form-errors" not in again.content
        assert _stakes(seated) == {"banker": 100}
    client_alice.post(bet, {"kind": "banker", "amount": 100, "token": "chip2"})
    assert _stakes(seated) == {"banker": 200}  # a new press is a new chip
    client_alice.post(_url("table_clear", table), {"token": "clear1"})
    assert _stakes(seated) == {}
    client_alice.post(bet, {"kind": "banker", "amount": 100, "token": "chip2"})  # late
    client_alice.post(_url("table_clear", table), {"token": "clear1"})
    assert _stakes(seated) == {}
    client_alice.post(bet, {"kind": "tie", "amount": 100})  # no key: as before
    client_alice.post(bet, {"kind": "tie", "amount": 100})
    assert _stakes(seated) == {"tie": 200}
    assert Play.objects.get().chip_keys == "chip1 chip2 clear1"


def test_a_chip_repeated_after_its_round_was_dealt_opens_nothing(
    client_alice: Any, seated: Any, table: Table
) -> None:
    bet = _url("table_bet", table)
    client_alice.post(bet, {"kind": "banker", "amount": 100, "token": "chip1"})
    round = Round.objects.get()
    client_alice.post(_url("table_deal", table), {"round": round.pk, "token": "deal1"})
    assert Round.objects.get().state == Round.State.SETTLED
    again = client_alice.post(bet, {"kind": "banker", "amount": 100, "token": "chip1"}, **HTMX)
    assert again.status_code == 200 and b"form-errors" not in again.content
    assert Round.objects.count() == 1  # no new round with a chip on it


def test_only_the_latest_keys_are_kept(client_alice: Any, seated: Any, table: Table) -> None:
    bet = _url("table_bet", table)
    for press in range(betting.CHIP_KEYS_KEPT + 2):
        client_alice.post(bet, {"kind": "banker", "amount": 100, "token": f"k{press}"})
    keys = Play.objects.get().chip_keys.split()
    assert len(keys) == betting.CHIP_KEYS_KEPT and keys[-1] == f"k{betting.CHIP_KEYS_KEPT + 1}"


def test_the_pages_forms_carry_a_key_fresh_with_every_page(
    client_alice: Any, seated: Any, table: Table
) -> None:
    keys = []
    for _ in range(2):
        page = client_alice.get(_url("table", table)).content.decode()
        bet_form = re.search(r'<form id="bet-form".*?</form>', page, re.S)
        assert bet_form is not None and "data-press-key" in bet_form.group(0)
        found = re.search(r'name="token" value="([0-9a-f]{16})"', bet_form.group(0))
        assert found is not None
        keys.append(found.group(1))
        for name in ("table_clear", "table_rebet"):
            form = re.search(rf'<form[^>]*action="{_url(name, table)}"[^>]*>.*?</form>', page, re.S)
            assert form is not None and 'name="token"' in form.group(0)
    assert keys[0] != keys[1]


def test_a_full_tables_repeated_chip_changes_and_tells_nothing(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    chip = {"table": salon, "player": anna, "kind": "banker", "amount": 500, "take_back": False}
    croupier.full_bet(**chip, token="c1")
    events = TableEvent.objects.filter(table=salon, kind="bets").count()
    croupier.full_bet(**chip, token="c1")
    croupier.full_bet(**{**chip, "kind": "player", "amount": 1000}, token="c1")
    croupier.full_clear(table=salon, player=anna, token="c1")
    assert _stakes(anna) == {"banker": 500}
    assert TableEvent.objects.filter(table=salon, kind="bets").count() == events
    croupier.full_clear(table=salon, player=anna, token="c2")
    croupier.full_clear(table=salon, player=anna, token="c2")
    croupier.full_bet(**chip, token="c1")  # late, after the Clear
    assert _stakes(anna) == {}


def test_a_full_tables_chip_repeated_after_its_round_was_dealt_lands_nowhere(
    salon: Table,
) -> None:
    anna = sit(salon, "anna", 1)
    first = ready(salon)
    chip = {"table": salon, "player": anna, "kind": "banker", "amount": 500, "take_back": False}
    croupier.full_bet(**chip, token="c1")
    croupier.full_decide(table=salon, player=anna, deal=True, token="d1")
    croupier.table_tick(table_id=salon.pk)  # the croupier deals and settles
    assert Round.objects.get(pk=first.pk).state == Round.State.SETTLED
    croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
    second = Round.objects.get(table=salon, state=Round.State.BETTING)
    events = TableEvent.objects.filter(table=salon, kind="bets").count()
    croupier.full_bet(**chip, token="c1")  # the client's retry, after the deal
    assert _stakes(anna) == {}
    assert TableEvent.objects.filter(table=salon, kind="bets").count() == events
    croupier.full_bet(**chip, token="c2")  # a new press of the new round
    assert _stakes(anna) == {"banker": 500}
    assert Play.objects.get(player=anna, round=second).chip_keys == "c2"


def test_a_full_tables_chip_posts_with_their_keys(client: Any, salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    client.force_login(anna)
    page = client.get(_url("table", salon)).content.decode()
    assert re.search(r'data-press-key>.{0,200}name="token" value="[0-9a-f]{16}"', page, re.S)
    bet = _url("table_bet", salon)
    for _ in range(3):
        answer = client.post(bet, {"kind": "banker", "amount": 500, "token": "p1"}, **HTMX)
        assert answer.status_code == 200
    assert _stakes(anna) == {"banker": 500}
    client.post(_url("table_rebet", salon), {"token": "p2"}, **HTMX)  # no last round: refused
    assert _stakes(anna) == {"banker": 500}
