"""Money in each language: grouped, two decimals, the sign where the language puts it;
whole cents in, text out, no float or decimal on the way."""

from __future__ import annotations

import pytest
from django.utils import translation

from wallet.formatting import format_money


@pytest.mark.parametrize(
    ("language", "cents", "sign", "text"),
    [
        ("en", 123456789, False, "€1,234,567.89"),
        ("de", 123456789, False, "1.234.567,89\u00a0€"),
        ("it", 100, False, "1,00\u00a0€"),
        ("nl", 5, False, "€\u00a00,05"),
        ("en", 0, True, "€0.00"),
        ("en", 1050, True, "+€10.50"),
        ("de", -99999, True, "−999,99\u00a0€"),
        ("de-at", 100000, False, "1.000,00\u00a0€"),
        ("fr", 100000, False, "€1,000.00"),  # a language the casino does not speak
        ("en", 10**12, False, "€10,000,000,000.00"),
    ],
)
def test_money_in_each_language(language: str, cents: int, sign: bool, text: str) -> None:
    with translation.override(language):
        assert format_money(cents, sign=sign) == text


def test_no_amount_is_blank() -> None:
    assert format_money(None) == ""
