"""Cards as words of the player's language, for screen readers and plain text."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext


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


def card_name(code: str) -> str:
    """``"TH"`` as "Ten of hearts" (German "Zehn Herz", Italian "Dieci di cuori")."""
    code = code.strip().upper()
    if len(code) != 2:
        return code
    rank, suit = _ranks().get(code[0]), _suits().get(code[1])
    if rank is None or suit is None:
        return code
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit}


def cards_named(codes: str) -> str:
    """A hand's codes (``"TH 9S"``) as words, comma separated."""
    return ", ".join(card_name(code) for code in codes.split())
