"""Seeds 000/001: who cuts a new shoe is the bank for the hand after the cut; the board
shows that seat holding the shoe, on the seat and in the croupier's line, for that hand."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.full import croupier, seats
from baccarat.models import Round, Shoe, Table
from tests.baccarat.conftest import make_player, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
HOLDER = "ben holds the shoe for this hand (seat 2)."


def board(client: Any, table: Table, viewer: Any) -> str:
    client.force_login(viewer)
    return client.get(reverse("baccarat:table", args=[table.slug]), **HTMX).content.decode()


def holder_seats(html: str) -> list[str]:
    """The seats drawn with the shoe marker."""
    return re.findall(
        r'<li class="seat[^"]*" data-seat="(\d)">(?:(?!</li>).)*seat-shoe', html, re.S
    )


def test_the_player_who_cut_holds_the_shoe_for_the_next_hand(salon: Table, client: Any) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    cleo = make_player("cleo")
    croupier.table_tick(table_id=salon.pk)  # the cut offered to seat 1
    assert holder_seats(board(client, salon, anna)) == []
    croupier.cut_decide(table=salon, player=anna, accept=False)
    croupier.cut_decide(table=salon, player=ben, accept=True, position=200)
    for viewer in (anna, ben, cleo):  # the seated players and a spectator
        html = board(client, salon, viewer)
        assert holder_seats(html) == ["2"]
        assert f'<span class="shoe-holder" data-seat="2">{HOLDER}</span>' in html
        assert "data-hand-over" not in html
    # The hand: betting, then dealt (shown as dealt until the next round opens).
    croupier.table_tick(
        table_id=salon.pk, now=timezone.now() + timedelta(seconds=salon.cycle_seconds + 1)
    )
    round = croupier.open_round(salon)
    assert round is not None and holder_seats(board(client, salon, cleo)) == ["2"]
    croupier.full_bet(table=salon, player=ben, kind="banker", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=ben, deal=True)
    croupier.full_decide(table=salon, player=anna, deal=False)
    croupier.table_tick(table_id=salon.pk)
    assert Round.objects.get(pk=round.pk).state == Round.State.SETTLED
    dealt = board(client, salon, cleo)
    assert holder_seats(dealt) == ["2"] and "data-hand-over" in dealt
    # The next hand: the shoe is the croupier's again.
    croupier.table_tick(
        table_id=salon.pk, now=timezone.now() + timedelta(seconds=salon.cycle_seconds + 1)
    )
    assert croupier.open_round(salon).pk != round.pk
    after = board(client, salon, cleo)
    assert holder_seats(after) == [] and "shoe-holder" not in after


def test_a_shoe_the_croupier_cut_has_no_holder(salon: Table, client: Any) -> None:
    anna = sit(salon, "anna", 1)
    croupier.table_tick(table_id=salon.pk)
    croupier.cut_decide(table=salon, player=anna, accept=False)  # the croupier cuts
    assert Shoe.objects.get(table=salon, is_finished=False).cut_by is None
    html = board(client, salon, anna)
    assert holder_seats(html) == [] and "shoe-holder" not in html


def test_the_holder_who_left_holds_nothing(salon: Table, client: Any) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    croupier.table_tick(table_id=salon.pk)
    croupier.cut_decide(table=salon, player=anna, accept=True, position=200)
    seats.seat_leave(table=salon, player=anna)
    html = board(client, salon, ben)
    assert holder_seats(html) == [] and "shoe-holder" not in html
