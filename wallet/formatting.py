"""Money formatted by the active locale: 1.234,50 € in German, €1,234.50 in English."""

from __future__ import annotations

from django.utils import translation

# Where the currency sign goes, per language: (prefix, suffix).
_PATTERNS = {
    "de": ("", "\u00a0€"),
    "it": ("", "\u00a0€"),
    "nl": ("€\u00a0", ""),
    "en": ("€", ""),
}
_SEPARATORS = {"de": (",", "."), "it": (",", "."), "nl": (",", "."), "en": (".", ",")}


def money_format() -> dict[str, str]:
    """How the active language writes money: the currency sign before and after, the
    decimal and thousands separators (given to the table's script, which writes a layout's
    stakes the way :func:`format_money` does)."""
    language = (translation.get_language() or "en").split("-")[0]
    prefix, suffix = _PATTERNS.get(language, _PATTERNS["en"])
    decimal_sep, thousand_sep = _SEPARATORS.get(language, _SEPARATORS["en"])
    return {"prefix": prefix, "suffix": suffix, "decimal": decimal_sep, "group": thousand_sep}


def format_money(cents: int | None, *, sign: bool = False) -> str:
    """``cents`` as money in the active language, with two decimals and thousands
    grouped ("1.234,50 €"); ``sign``: a plus before a gain. Integer arithmetic only."""
    if cents is None:
        return ""
    cents = int(cents)
    parts = money_format()
    prefix, suffix = parts["prefix"], parts["suffix"]
    decimal_sep, thousand_sep = parts["decimal"], parts["group"]
    units, hundredths = divmod(abs(cents), 100)
    grouped = f"{units:,}".replace(",", thousand_sep)
    minus = "−" if cents < 0 else ("+" if sign and cents > 0 else "")
    return f"{minus}{prefix}{grouped}{decimal_sep}{hundredths:02d}{suffix}"
