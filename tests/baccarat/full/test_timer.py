"""The betting timer as the board draws it: the seconds the server's deadline leaves,
rounded up as the page counts them down, never the table's whole betting time."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.full.state import full_table_state
from baccarat.models import Round, Table
from tests.baccarat.conftest import make_player, ready, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def deadline_in(round: Round, seconds: float) -> None:
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))


@pytest.mark.parametrize(("left", "shown"), [(9.9, 10), (0.3, 1), (-2, 0)])
def test_the_seconds_left_are_rounded_up_and_never_below_nought(
    salon: Table, left: float, shown: int
) -> None:
    anna = sit(salon, "anna", 1)
    deadline_in(ready(salon), left)
    assert full_table_state(table=salon, viewer=anna).seconds_left == shown


def test_a_board_drawn_during_betting_shows_the_seconds_left(salon: Table, client: Any) -> None:
    assert salon.betting_seconds == 15
    anna = sit(salon, "anna", 1)
    deadline_in(ready(salon), 6.9)
    for viewer in (anna, make_player("cleo")):  # seated, and a spectator
        client.force_login(viewer)
        html = client.get(reverse("baccarat:table", args=[salon.slug]), **HTMX).content.decode()
        timer = re.search(r'<div class="betting-timer".*?</div>', html, re.S)
        assert timer is not None
        assert '<strong class="timer-seconds">7</strong>' in timer.group(0)
        assert 'data-seconds="15"' in timer.group(0)  # the whole time, for the bar
