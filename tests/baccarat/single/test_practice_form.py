"""The practice form's starting chips read as numbers of the active language."""

from __future__ import annotations

import pytest
from django.utils import translation

from baccarat.forms import PracticeForm


@pytest.mark.parametrize(
    ("language", "thousand"),
    [("en", "1,000"), ("de", "1.000"), ("it", "1.000"), ("nl", "1.000")],
)
def test_starting_chips_are_grouped_by_the_active_language(language: str, thousand: str) -> None:
    with translation.override(language):
        html = str(PracticeForm()["starting_chips"])
    assert f">{thousand}</option>" in html


def test_the_language_is_the_one_active_when_the_form_is_made() -> None:
    with translation.override("de"):
        PracticeForm()
    with translation.override("en"):
        labels = dict(PracticeForm().fields["starting_chips"].choices)  # type: ignore[attr-defined]
    assert labels[5000] == "5,000"


def test_starting_chips_still_take_the_plain_number() -> None:
    with translation.override("de"):
        form = PracticeForm(
            {
                "decks": 8,
                "starting_chips": "2000",
                "hands": 10,
                "tie_pays": 8,
                "commission": "five_percent",
            }
        )
        assert form.is_valid(), form.errors
    assert form.cleaned_data["starting_chips"] == 2000_00
