"""Money formatted by the active locale: 1.234,50 € in German, €1,234.50 in English."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils import translation
from django.utils.numberformat import format as number_format

from baccarat import card_names

register = template.Library()

# Where the currency sign goes, per language: (prefix, suffix).
_PATTERNS = {
    "de": ("", "\u00a0€"),
    "it": ("", "\u00a0€"),
    "nl": ("€\u00a0", ""),
    "en": ("€", ""),
}
_SEPARATORS = {"de": (",", "."), "it": (",", "."), "nl": (",", "."), "en": (".", ",")}


def format_money(cents: int | None, *, sign: bool = False) -> str:
    if cents is None:
        return ""
    language = (translation.get_language() or "en").split("-")[0]
    prefix, suffix = _PATTERNS.get(language, _PATTERNS["en"])
    decimal_sep, thousand_sep = _SEPARATORS.get(language, _SEPARATORS["en"])
    value = Decimal(abs(int(cents))) / 100
    number = number_format(
        value,
        decimal_sep,
        decimal_pos=2,
        grouping=3,
        thousand_sep=thousand_sep,
        force_grouping=True,
        use_l10n=False,
    )
    minus = "−" if cents < 0 else ("+" if sign and cents > 0 else "")
    return f"{minus}{prefix}{number}{suffix}"


@register.filter
def money(cents: int | None) -> str:
    return format_money(cents)


@register.filter
def signed_money(cents: int | None) -> str:
    return format_money(cents, sign=True)


@register.filter
def units(cents: int | None) -> str:
    """A chip value in whole units (500 cents → 5)."""
    if cents is None:
        return ""
    return str(int(cents) // 100) if int(cents) % 100 == 0 else format_money(cents)


@register.filter
def card_name(code: str | None) -> str:
    """A card code as words of the active language: ``"TH"`` → "Ten of hearts"."""
    return card_names.card_name(code or "")


@register.filter
def cards_named(codes: str | None) -> str:
    """A hand's card codes as words, comma separated."""
    return card_names.cards_named(codes or "")
