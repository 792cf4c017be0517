"""Sitting down at a full table when the seat asked for was taken a moment before: the
player gets the next free seat (seeds 000/001) and is told which, and why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from baccarat.full import seats
from baccarat.models import Seat, Table
from tests.baccarat.conftest import make_player, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RACE = "Seat 3 was taken a moment before you; you sit at seat 4."


def test_a_seat_taken_first_gives_the_next_free_one_and_says_which_was_asked(
    salon: Table,
) -> None:
    anna, ben = make_player("anna"), make_player("ben")
    first = seats.seat_take(table=salon, player=anna, number=3, buy_in=100_00, reference="a")
    second = seats.seat_take(table=salon, player=ben, number=3, buy_in=100_00, reference="b")
    assert (first.number, first.moved_from) == (3, None)
    assert (second.number, second.moved_from) == (4, 3)
    # Sitting again keeps the seat: nobody took anything from the player.
    again = seats.seat_take(table=salon, player=ben, number=3, buy_in=0, reference="b2")
    assert again.number == 4 and getattr(again, "moved_from", None) is None


def test_a_seat_taken_on_the_last_seat_goes_round_the_table(salon: Table) -> None:
    for number in (1, 8):
        sit(salon, f"p{number}", number)
    late = make_player("late")
    seat = seats.seat_take(table=salon, player=late, number=8, buy_in=100_00, reference="x")
    assert (seat.number, seat.moved_from) == (2, 8)


def sit_post(client: Any, table: Table, seat: int, token: str, **headers: Any) -> Any:
    url = reverse("baccarat:table_sit", args=[table.slug])
    return client.post(url, {"seat": seat, "amount": 100, "token": token}, **headers)


def test_two_players_race_for_one_seat_and_the_loser_is_told_where_they_sit(
    salon: Table, client: Any
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    # Both pages offered seat 3; alice's request is served first.
    client.force_login(alice)
    won = sit_post(client, salon, 3, "alice1", **HTMX).content.decode()
    assert "a moment before you" not in won
    client.force_login(bob)
    answer = sit_post(client, salon, 3, "bob1", **HTMX)
    html = answer.content.decode()
    assert Seat.objects.get(player=bob).number == 4
    assert Seat.objects.get(player=alice).number == 3
    # Told in bob's own part of the board, beside his status.
    notice = f'<p class="message" role="status">{RACE}</p>'
    assert html.count(notice) == 1
    assert html.index('class="status-bar"') < html.index(notice) < html.index('class="felt"')
    assert 'data-my-seat="4"' in html


def test_without_the_script_the_race_is_told_on_the_page_the_redirect_leads_to(
    salon: Table, client: Any
) -> None:
    sit(salon, "alice", 3)
    bob = make_player("bob")
    client.force_login(bob)
    answer = sit_post(client, salon, 3, "bob1")
    assert answer.status_code == 302
    assert [str(m) for m in get_messages(answer.wsgi_request)] == [RACE]


def test_the_seat_asked_for_says_nothing_more(salon: Table, client: Any) -> None:
    client.force_login(make_player("alice"))
    html = sit_post(client, salon, 5, "a1", **HTMX).content.decode()
    assert 'data-my-seat="5"' in html and "a moment before you" not in html
