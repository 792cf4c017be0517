"""Validation of a table's configuration, with messages that explain themselves."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from itertools import pairwise
from typing import Any

from django import forms
from django.conf import settings
from django.utils.formats import number_format, sanitize_separators
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
    if field.editable and field.name not in {"id", "created_at", "updated_at", "owner"}
]


LIMIT_FIELDS = [f"{edge}_{kind}" for kind, _label in BET_KINDS for edge in ("min", "max")]
MAX_CHIPS = 5  # the rack shows five chips (seeds 000/001: 1, 5, 25, 100, 500)


def _euros(cents: int) -> str:
    return number_format(Decimal(cents) / 100, decimal_pos=2)


class EuroField(forms.DecimalField):
    """An amount typed and shown in euros in the admin's language (``5,00``), stored in
    whole cents."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=14, decimal_places=2, localize=True, **kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return _euros(value)
        return value

    def clean(self, value: Any) -> int | None:  # type: ignore[override]
        euros = super().clean(value)
        return None if euros is None else int(euros * 100)


class ChipsField(forms.CharField):
    """The chip values as euro amounts separated by semicolons (``1; 5; 25; 100; 500``),
    stored as a list of cents."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return "; ".join(_euros(cents) for cents in value if isinstance(cents, int))
        return value

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value)
        parts = [part for part in re.split(r"[;\s]+", text) if part]
        if not parts:
            raise forms.ValidationError(_("Enter at least one chip value."), code="required")
        cents = []
        for part in parts:
            try:
                euros = Decimal(sanitize_separators(part))
            except (InvalidOperation, ValueError):
                raise forms.ValidationError(
                    _("“%(value)s” is not an amount in euros."), params={"value": part[:20]}
                ) from None
            if abs(euros) >= 10**12 or euros != euros.quantize(Decimal("0.01")):
                raise forms.ValidationError(
                    _("“%(value)s” is not an amount in euros."), params={"value": part[:20]}
                )
            cents.append(int(euros * 100))
        return cents


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
    min_player = EuroField(label=_("minimum on Player (€)"))
    max_player = EuroField(label=_("maximum on Player (€)"))
    min_banker = EuroField(label=_("minimum on Banker (€)"))
    max_banker = EuroField(label=_("maximum on Banker (€)"))
    min_tie = EuroField(label=_("minimum on Tie (€)"))
    max_tie = EuroField(label=_("maximum on Tie (€)"))
    min_pair = EuroField(label=_("minimum on a pair (€)"))
    max_pair = EuroField(label=_("maximum on a pair (€)"))
    chip_values = ChipsField(
        label=_("chips (€)"),
        help_text=_("Up to five values in euros, smallest first, separated by semicolons."),
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
        values: list[int] = self.cleaned_data["chip_values"]
        if len(values) > MAX_CHIPS:
            raise forms.ValidationError(_("A table has at most five chips."))
        if any(value <= 0 for value in values):
            raise forms.ValidationError(_("Every chip must be worth more than zero."))
        if any(b <= a for a, b in pairwise(values)):
            raise forms.ValidationError(
                _("Chip values must be in ascending order, without repeats.")
            )
        if any(value % values[0] for value in values):
            # A bet is a whole number of the smallest chip: a chip that is not one could
            # never be placed.
            raise forms.ValidationError(_("Every chip must be a multiple of the smallest."))
        if values[-1] > settings.CASINO_MAX_LIMIT:
            raise forms.ValidationError(
                _("No chip may be worth more than the casino's cap of %(cap)s.")
                % {"cap": format_money(settings.CASINO_MAX_LIMIT)}
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
        chips = data.get("chip_values")
        highest = max(
            (data[f] for f in LIMIT_FIELDS if f.startswith("max_") and data.get(f)), default=0
        )
        # Seed 000 itself racks a 500 € chip at a table whose bets go up to 300 €: a chip
        # above every maximum is allowed (the rack shows it unusable, the admin is told on
        # saving), but a rack of nothing but such chips is not.
        if chips and highest and chips[0] > highest:
            self.add_error(
                "chip_values",
                _("The smallest chip (%(chip)s) is worth more than any bet allows (%(max)s).")
                % {"chip": format_money(chips[0]), "max": format_money(highest)},
            )
        if data.get("decks") == 1 and data.get("reshuffle") == Table.Reshuffle.CUT_CARD:
            self.add_error("reshuffle", _("A single deck is reshuffled before every coup."))
        return data


def chips_above_every_maximum(table: Table) -> list[int]:
    """The table's chips worth more than any of its bets allows: racked, never placeable."""
    return [value for value, usable in table.chip_rack() if not usable]
