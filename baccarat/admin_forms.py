"""Validation of a table's configuration, with messages that explain themselves."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from baccarat.models import Table
from wallet.formatting import format_money

BET_KINDS = [
    ("player", _("Player")),
    ("banker", _("Banker")),
    ("tie", _("Tie")),
    ("pair", _("Pairs")),
]


AUDITED_FIELDS = [
    field.name
    for field in Table._meta.concrete_fields
    if field.name not in {"id", "created_at", "updated_at", "owner", "event_seq"}
]


def table_config(table: Table) -> dict[str, Any]:
    """The audited configuration of a table, JSON-safe."""
    return {name: getattr(table, name) for name in AUDITED_FIELDS}


class TableConfigForm(forms.ModelForm[Table]):
    decks = forms.TypedChoiceField(
        label=_("decks"), coerce=int, choices=[(1, "1"), (6, "6"), (8, "8")]
    )
    seats = forms.TypedChoiceField(label=_("seats"), coerce=int, choices=[(1, "1"), (8, "8")])
    tie_pays = forms.TypedChoiceField(
        label=_("tie pays (to 1)"), coerce=int, choices=[(8, "8:1"), (9, "9:1")]
    )

    class Meta:
        model = Table
        fields = AUDITED_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "kind" in self.fields:
            self.fields["kind"].choices = [
                choice for choice in Table.Kind.choices if choice[0] != Table.Kind.PRACTICE
            ]

    def clean_penetration_percent(self) -> int:
        value: int = self.cleaned_data["penetration_percent"]
        if not 50 <= value <= 95:
            raise forms.ValidationError(_("The cut card must be placed between 50% and 95%."))
        return value

    def clean_betting_seconds(self) -> int:
        value: int = self.cleaned_data["betting_seconds"]
        if not 5 <= value <= 60:
            raise forms.ValidationError(_("Betting time must be between 5 and 60 seconds."))
        return value

    def clean_chip_values(self) -> list[int]:
        values = self.cleaned_data["chip_values"]
        if not isinstance(values, list) or not values:
            raise forms.ValidationError(
                _("Enter the chip values as a list of cents, e.g. [100, 500].")
            )
        if any(type(v) is not int or v <= 0 for v in values):
            raise forms.ValidationError(
                _("Every chip value must be a positive whole number of cents.")
            )
        if any(b <= a for a, b in pairwise(values)):
            raise forms.ValidationError(
                _("Chip values must be in ascending order, without repeats.")
            )
        return values

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        cap = settings.CASINO_MAX_LIMIT
        for kind, label in BET_KINDS:
            low, high = data.get(f"min_{kind}"), data.get(f"max_{kind}")
            if low is None or high is None:
                continue
            if low <= 0:
                self.add_error(f"min_{kind}", _("The minimum must be above zero."))
            elif low > high:
                self.add_error(
                    f"max_{kind}",
                    _("%(bet)s: the maximum (%(high)s) is below the minimum (%(low)s).")
                    % {"bet": label, "high": format_money(high), "low": format_money(low)},
                )
            if high > cap:
                self.add_error(
                    f"max_{kind}",
                    _("%(bet)s: the maximum is above the casino's cap of %(cap)s.")
                    % {"bet": label, "cap": format_money(cap)},
                )
        kind, seats = data.get("kind"), data.get("seats")
        if kind == Table.Kind.FULL and seats != 8:
            self.add_error("seats", _("A full table has 8 seats."))
        if kind in (Table.Kind.SINGLE, Table.Kind.PRACTICE) and seats != 1:
            self.add_error("seats", _("A single-player table has 1 seat."))
        if data.get("decks") == 1 and data.get("reshuffle") == Table.Reshuffle.CUT_CARD:
            self.add_error("reshuffle", _("A single deck is reshuffled before every coup."))
        return data
