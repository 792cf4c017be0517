"""Money formatted by the active locale: 1.234,50 € in German, €1,234.50 in English."""

from __future__ import annotations

from decimal import Decimal

from django.utils import translation
from django.utils.numberformat import format as number_format

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
