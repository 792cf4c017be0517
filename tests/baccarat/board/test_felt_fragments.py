"""The felt's small fragments: a stake's chip stack and a card's face, as the boards draw
them."""

from __future__ import annotations

import re
from types import SimpleNamespace

from django.template import engines

from baccarat.board.selectors import _card

RACK = [100, 500, 2500, 10000, 50000]


def draw(source: str, **context) -> str:
    return engines["jinja2"].env.from_string(source).render(**context)


def test_a_stake_is_drawn_as_the_chips_that_make_it_largest_at_the_bottom():
    html = draw(
        '{% from "baccarat/chips.html" import chip_stack %}{{ chip_stack(3700, rack) }}',
        rack=RACK,
    )
    assert re.findall(r"sc-(\d)", html) == ["3", "2", "2", "1", "1"]
    assert 'aria-hidden="true"' in html


def card_face(code: str) -> str:
    return draw(
        '{% from "baccarat/card.html" import card_front %}{{ card_front(c) }}',
        c=_card(code, 0),
    )


def test_a_ten_has_its_ten_pips_the_lower_ones_upside_down():
    html = card_face("TD")
    assert html.count('class="pip ') == 10
    assert html.count(" flip") == 5
    assert html.count('class="visually-hidden"') == 1


def test_a_court_card_shows_its_face_not_pips():
    html = card_face("KH")
    assert "court court-KH" in html and 'class="pip ' not in html


def test_every_court_face_is_in_the_static_files():
    from django.contrib.staticfiles import finders

    for rank in "JQK":
        for suit in "SHDC":
            assert finders.find(f"img/cards/{rank}{suit}.svg"), rank + suit


def test_a_seats_empty_boxes_are_hidden_from_screen_readers():
    seat = SimpleNamespace(
        number=3,
        free=False,
        player="marco",
        is_me=False,
        stakes=[("B", 2500)],
        decision="",
        in_round=True,
        net=None,
        offered_cut=False,
        holds_shoe=False,
    )
    table = SimpleNamespace(pairs_enabled=False, chip_values=RACK)
    state = SimpleNamespace(seats=[seat], me=None, betting=True, round=True)
    html = draw('{% include "baccarat/seats.html" %}', table=table, state=state, _=str)
    boxes = re.findall(r'<span class="seat-bet seat-bet-(\w+)[^"]*"([^>]*)>', html)
    assert [(letter, "aria-hidden" in rest) for letter, rest in boxes] == [
        ("P", True),
        ("B", False),
        ("T", True),
    ]
    assert "sc-3" in html and "25" in html
