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
