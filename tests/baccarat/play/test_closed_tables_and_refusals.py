"""Back-office defects that trapped money or left players without a word: a closed table
gives every chip back, two exits at once cash out once with the right message, and a
refused rebuy says why and comes back usable."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from baccarat import recovery
from baccarat.admin import table_close_release
from baccarat.full import croupier, seats
from baccarat.integrity.audit import audit_violations
from baccarat.models import Bet, Round, Seat, Table
from baccarat.play import betting, practice, rounds
from tests.baccarat.conftest import make_player
from wallet import services as wallet
from wallet.models import Transaction
from wallet.selectors import wallet_balance

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def close(table: Table) -> None:
    """What the admin's save does when a table admin unticks "is active"."""
    table.is_active = False
    table.save(update_fields=["is_active"])
    table_close_release(table)


def test_closing_a_table_brings_every_stack_back(table: Table, alice: Any, bob: Any) -> None:
    start = {p.pk: wallet_balance(player=p) for p in (alice, bob)}
    for player in (alice, bob):
        wallet.wallet_rebuy(player=player, table=table, amount=40_00, reference=f"r{player.pk}")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="banker", amount=500)  # on the layout

    close(table)

    for player in (alice, bob):
        assert wallet_balance(player=player) == start[player.pk]
        assert wallet.stack_account(player=player, table=table).balance == 0
    assert not Bet.objects.filter(play__round=round).exists()
    assert audit_violations() == []


def test_a_round_in_play_finishes_first_then_its_chips_come_back(table: Table, alice: Any) -> None:
    start = wallet_balance(player=alice)
    wallet.wallet_rebuy(player=alice, table=table, amount=40_00, reference="r")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=1000)
    rounds.round_lock(round_id=round.pk)  # the server stopped before dealing

    close(table)
    assert wallet.stack_account(player=alice, table=table).balance == 30_00  # still held

    recovery.recover_rounds(grace_seconds=0)  # finishes the round, then releases
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert wallet.stack_account(player=alice, table=table).balance == 0
    assert wallet_balance(player=alice) == start + round.plays.get().net
    assert audit_violations() == []


def test_the_cashier_says_a_closed_tables_chips_are_coming_back(
    client: Any, table: Table, alice: Any
) -> None:
    wallet.wallet_rebuy(player=alice, table=table, amount=40_00, reference="r")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=1000)
    rounds.round_lock(round_id=round.pk)
    close(table)
    client.force_login(alice)
    page = client.get(reverse("wallet:cashier")).content.decode()
    assert "This table is closed" in page


def test_closing_a_full_table_stands_everyone_up_between_rounds(alice: Any, bob: Any) -> None:
    salon = Table.objects.create(
        name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )  # fmt: skip
    start = {p.pk: wallet_balance(player=p) for p in (alice, bob)}
    for number, player in enumerate((alice, bob), start=1):
        seats.seat_take(
            table=salon, player=player, number=number, buy_in=50_00, reference=f"s{number}"
        )

    close(salon)

    assert not Seat.objects.filter(table=salon).exists()
    for player in (alice, bob):
        assert wallet_balance(player=player) == start[player.pk]
    assert croupier.open_round(salon) is None
    assert audit_violations() == []


@pytest.mark.django_db(transaction=True)
def test_two_exits_at_once_cash_out_once_and_both_hear_they_left(
    table: Table, alice: Any, racers: Any
) -> None:
    from django.test import Client

    start = wallet_balance(player=alice)
    wallet.wallet_rebuy(player=alice, table=table, amount=40_00, reference="r")
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(alice)
    url = reverse("baccarat:table_exit", args=[table.slug])

    responses = racers.run([lambda c=c: c.post(url, {"confirm": "yes"}) for c in clients])

    assert all(r.status_code == 302 for r in responses), responses
    assert wallet_balance(player=alice) == start
    assert Transaction.objects.filter(player=alice, kind=Transaction.Kind.CASH_OUT).count() == 1
    texts = [" ".join(str(m) for m in c.get(reverse("lobby")).context["messages"]) for c in clients]
    assert all("You left Golden" in text for text in texts), texts
    assert not any("different amount" in text for text in texts)


@pytest.mark.parametrize("token", [None, "", "../../etc", "x" * 41])
def test_a_rebuy_with_a_broken_token_says_so_and_comes_back_usable(
    client: Any, table: Table, alice: Any, token: str | None
) -> None:
    client.force_login(alice)
    before = wallet_balance(player=alice)
    data = {"amount": "20"} | ({} if token is None else {"token": token})
    response = client.post(reverse("baccarat:table_rebuy", args=[table.slug]), data, **HTMX)
    html = response.content.decode()
    assert "This form had expired. Please press the button again." in html
    fresh = re.search(r'name="token" value="([0-9a-f]{16})"', html)
    assert fresh is not None and fresh.group(1) != token
    assert wallet_balance(player=alice) == before
    # Pressed again with the fresh form, it works.
    client.post(
        reverse("baccarat:table_rebuy", args=[table.slug]),
        {"amount": "20", "token": fresh.group(1)},
        **HTMX,
    )
    assert wallet_balance(player=alice) == before - 20_00


def test_a_rebuy_at_a_practice_table_is_refused_in_words(client: Any, alice: Any) -> None:
    session = practice.practice_start(
        player=alice, decks=8, starting_chips=1000_00, hands=10, tie_pays=8,
        pairs_enabled=False, commission="five_percent",
    )  # fmt: skip
    client.force_login(alice)
    before = wallet_balance(player=alice)
    response = client.post(
        reverse("baccarat:table_rebuy", args=[session.table.slug]),
        {"amount": "20", "token": "abcdef0123456789"},
        **HTMX,
    )
    html = response.content.decode()
    assert 'role="alert"' in html
    assert "practice" in html.lower()
    assert wallet_balance(player=alice) == before


def test_another_player_cannot_close_anything(client: Any, table: Table) -> None:
    mallory = make_player("mallory")
    client.force_login(mallory)
    url = reverse("admin:baccarat_table_change", args=[table.pk])
    response = client.post(url, {"is_active": ""})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    table.refresh_from_db()
    assert table.is_active
