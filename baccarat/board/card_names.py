"""Cards as words of the player's language, for screen readers and plain text."""

from __future__ import annotations

from functools import cache

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _


def _ranks() -> dict[str, str]:
    return {
        "A": pgettext("card rank", "Ace"),
        "2": pgettext("card rank", "Two"),
        "3": pgettext("card rank", "Three"),
        "4": pgettext("card rank", "Four"),
        "5": pgettext("card rank", "Five"),
        "6": pgettext("card rank", "Six"),
        "7": pgettext("card rank", "Seven"),
        "8": pgettext("card rank", "Eight"),
        "9": pgettext("card rank", "Nine"),
        "T": pgettext("card rank", "Ten"),
        "J": pgettext("card rank", "Jack"),
        "Q": pgettext("card rank", "Queen"),
        "K": pgettext("card rank", "King"),
    }


def _suits() -> dict[str, str]:
    return {
        "S": pgettext("card suit", "spades"),
        "H": pgettext("card suit", "hearts"),
        "D": pgettext("card suit", "diamonds"),
        "C": pgettext("card suit", "clubs"),
    }


@cache
def _names(language: str | None) -> dict[str, str]:
    """Every card's name in ``language`` (the active one when built), built once: a
    statistics panel names hundreds of cards per render."""
    ranks, suits = _ranks(), _suits()
    return {
        rank + suit: _("%(rank)s of %(suit)s") % {"rank": rank_name, "suit": suit_name}
        for rank, rank_name in ranks.items()
        for suit, suit_name in suits.items()
    }


def card_name(code: str) -> str:
    """``"TH"`` as "Ten of hearts" (German "Herz-Zehn", Italian "Dieci di cuori", Dutch
    "hartentien")."""
    code = code.strip().upper()
    return card_names().get(code, code)


def cards_named(codes: str, names: dict[str, str] | None = None) -> str:
    """A hand's codes (``"TH 9S"``) as words, comma separated. ``names``: the cards'
    names from :func:`card_names` (looked up once for many hands)."""
    names = names or card_names()
    return ", ".join(names.get(code.upper(), code) for code in codes.split())


def card_names() -> dict[str, str]:
    """Every card's name in the active language, by code."""
    return _names(get_language())
