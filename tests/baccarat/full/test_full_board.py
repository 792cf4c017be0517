"""What the full table's page draws a new round from without fetching its board: the
``round_open`` event carries the round's deadline and betting time, the page carries the
timer's words, and a seated player's board carries their spots for the next round (empty,
in a template) whenever they cannot bet on the board as it stands."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.full import croupier
from baccarat.models import Round, Table, TableEvent
from tests.baccarat.conftest import make_player, ready, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TEMPLATE = re.compile(r'<template id="next-spots">(.*?)</template>', re.S)


def board(client: Any, table: Table, player: Any) -> str:
    client.force_login(player)
    return client.get(reverse("baccarat:table", args=[table.slug]), **HTMX).content.decode()


def test_a_rounds_opening_event_carries_its_deadline_and_betting_time(salon: Table) -> None:
    sit(salon, "anna", 1)
    round = ready(salon)
    event = TableEvent.objects.get(table=salon, kind="round_open")
    assert event.data == {
        "round": round.pk,
        "deadline": round.deadline.isoformat(),
        "seconds": salon.betting_seconds,
    }


def test_a_seated_player_between_rounds_has_empty_spots_waiting(salon: Table, client: Any) -> None:
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    # Decided: no spots to click, but the next round's, empty, in their template.
    decided = board(client, salon, anna)
    assert 'id="bet-form"' in TEMPLATE.search(decided).group(1)
    assert 'id="bet-form"' not in TEMPLATE.sub("", decided)
    waiting = TEMPLATE.search(decided).group(1)
    assert set(re.findall(r'data-stake="(\d+)"', waiting)) == {"0"}
    assert 'data-kind="banker"' in waiting and "hx-post" in waiting
    croupier.table_tick(table_id=salon.pk)  # dealt
    assert Round.objects.get(pk=round.pk).state == Round.State.SETTLED
    between = board(client, salon, anna)
    assert 'data-phase=""' in between and TEMPLATE.search(between)
    # Once a round opens, the spots are on the board and no template waits.
    croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
    betting = board(client, salon, anna)
    assert 'data-phase="betting"' in betting
    assert 'id="bet-form"' in betting and not TEMPLATE.search(betting)


def test_a_spectator_has_no_spots_waiting(salon: Table, client: Any) -> None:
    sit(salon, "anna", 1)
    ready(salon)
    watched = board(client, salon, make_player("cleo"))
    assert not TEMPLATE.search(watched) and 'id="bet-form"' not in watched


def test_the_page_carries_the_timers_words_in_the_players_language(
    salon: Table, client: Any
) -> None:
    anna = sit(salon, "anna", 1)
    anna.language = "de"
    anna.save(update_fields=["language"])
    client.force_login(anna)
    page = client.get(reverse("baccarat:table", args=[salon.slug])).content.decode()
    found = re.search(r'<script id="full-table-words" type="application/json">(.*?)</script>', page)
    words = json.loads(found.group(1))
    assert words["place_bets"] == "Machen Sie Ihre Einsätze"
    assert words["time_left"] and words["seconds_unit"] and words["deciding"]


# The answer to a seated player's own chip or decision: their part of the board alone.


def post(client: Any, table: Table, action: str, data: dict[str, Any], **headers: Any) -> Any:
    return client.post(reverse("baccarat:table", args=[table.slug]) + action, data, **headers)


def test_a_chip_is_answered_with_the_players_own_part_of_the_board(
    salon: Table, client: Any
) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    croupier.full_bet(table=salon, player=ben, kind="tie", amount=500, take_back=False)
    client.force_login(anna)
    answer = post(client, salon, "bet/", {"kind": "banker", "amount": 1500}, **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert (answer["HX-Retarget"], answer["HX-Reswap"]) == ("#board-mine", "outerHTML")
    assert html.startswith('<div id="board-mine"') or '\n<div id="board-mine"' in html
    assert 'id="total-stake">€15.00<' in html and 'id="stack">€100.00<' in html
    assert '<div id="my-spots" class="my-spots" hx-swap-oob="true">' in html
    assert re.search(r'data-kind="banker"[^>]*data-stake="1500"', html)
    assert 'id="table-controls"' in html and "hx-swap-oob" in html
    # Not the table: the seats (ben's tie), the hands and the timer come as events.
    assert 'class="seats"' not in html and "hands" not in html and "betting-timer" not in html


def test_a_refused_chip_is_told_in_the_players_part_and_changes_nothing(
    salon: Table, client: Any
) -> None:
    anna = sit(salon, "anna", 1)
    anna.language = "de"
    anna.save(update_fields=["language"])
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    client.force_login(anna)
    before = list(round.plays.get(player=anna).bets.values_list("kind", "stake"))
    seq = Table.objects.get(pk=salon.pk).event_seq
    answer = post(client, salon, "bet/", {"kind": "banker", "amount": 10**9}, **HTMX)
    html = answer.content.decode()
    assert answer["HX-Retarget"] == "#board-mine"
    refusal = re.search(r'<div class="form-errors" role="alert"><p>(.*?)</p>', html)
    assert refusal and refusal.group(1) == "Wählen Sie einen der Chips."  # in her language
    assert re.search(r'data-kind="banker"[^>]*data-stake="500"', html)
    assert list(round.plays.get(player=anna).bets.values_list("kind", "stake")) == before
    assert Table.objects.get(pk=salon.pk).event_seq == seq  # no event: nothing happened


def test_a_decision_is_answered_with_the_choice_and_the_next_rounds_spots(
    salon: Table, client: Any
) -> None:
    anna, _ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    client.force_login(anna)
    answer = post(client, salon, "deal/", {}, **HTMX)
    html = answer.content.decode()
    assert answer["HX-Retarget"] == "#board-mine"
    assert 'data-my-decision="deal"' in html and 'id="my-decision"' in html
    # The stake left the stack (drawn from the Deal itself, as a board would read it).
    assert 'id="stack">€95.00<' in html and 'id="available">€95.00<' in html
    status = re.compile(r'<div class="status-bar".*?</div>', re.S)
    assert status.search(html).group(0) == status.search(board(client, salon, anna)).group(0)
    spots = re.search(r'<div id="my-spots".*?</div>\s*</form>\s*</template></div>', html, re.S)
    assert spots and '<template id="next-spots">' in spots.group(0)
    assert set(re.findall(r'data-stake="(\d+)"', spots.group(0))) == {"0"}
    assert re.search(r'id="btn-deal"[^>]*disabled', html)


def test_a_spectators_chip_gets_the_whole_board_and_without_the_script_a_redirect(
    salon: Table, client: Any
) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    client.force_login(make_player("cleo"))
    answer = post(client, salon, "bet/", {"kind": "banker", "amount": 500}, **HTMX)
    html = answer.content.decode()
    assert "HX-Retarget" not in answer and 'id="board"' in html
    assert 'class="form-errors" role="alert"' in html
    client.force_login(anna)
    plain = post(client, salon, "bet/", {"kind": "banker", "amount": 500})
    assert plain.status_code == 302
    assert plain["Location"] == reverse("baccarat:table", args=[salon.slug])


def test_the_answer_to_sitting_down_says_the_event_its_board_shows(
    salon: Table, client: Any
) -> None:
    """The first player to sit starts the table (a new shoe, the cut offered) in the same
    request: the board of the answer shows all of it, and says so (``data-seq``), so that
    the page does not take it for a board from before the events it has had."""
    client.force_login(make_player("anna"))
    url = reverse("baccarat:table_sit", args=[salon.slug])
    answer = client.post(url, {"seat": 1, "amount": 100, "token": "anna"}, **HTMX)
    salon.refresh_from_db()
    kinds = list(TableEvent.objects.filter(table=salon).order_by("seq").values_list("kind"))
    assert [kind for (kind,) in kinds] == ["sit", "shoe_new", "cut_offer"]
    assert re.search(r'<div id="board"[^>]* data-seq="3"', answer.content.decode())
    assert salon.event_seq == 3
