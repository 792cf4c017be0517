"""Cashier forms. Players type whole euros ("25"); the ledger counts cents (2500)."""

from __future__ import annotations

import re
import uuid
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from wallet.cashier import global_cap

CENTS_PER_UNIT = 100
PRESET_UNITS = (100, 500, 1000)
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_MAX_CHARS = 32


class UnitsField(forms.Field):
    """A whole, positive number of units; ``cleaned_data`` holds cents."""

    default_error_messages = {
        "invalid": _("Enter a whole number of euros, like 25."),
        "min_value": _("Enter an amount greater than zero."),
        "max_value": _("Enter at most %(max)s euros."),
    }

    def __init__(self, *, max_units: int, **kwargs: Any) -> None:
        self.max_units = max_units
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={
                    "inputmode": "numeric",
                    "autocomplete": "off",
                    "size": 8,
                    "maxlength": _MAX_CHARS,
                }
            ),
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        text = "" if value in self.empty_values else str(value).strip()
        if not text:
            return None
        if len(text) > _MAX_CHARS:
            raise ValidationError(
                self.error_messages["max_value"], code="max_value", params={"max": self.max_units}
            )
        if not _WHOLE_NUMBER.fullmatch(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        units = int(text)
        if units <= 0:
            raise ValidationError(self.error_messages["min_value"], code="min_value")
        if units > self.max_units:
            raise ValidationError(
                self.error_messages["max_value"], code="max_value", params={"max": self.max_units}
            )
        return units * CENTS_PER_UNIT


class ReferenceField(forms.UUIDField):
    """The idempotency key the page renders once per form: a replay posts it again."""

    widget = forms.HiddenInput


class DepositForm(forms.Form):
    reference = ReferenceField()
    preset = forms.TypedChoiceField(
        choices=[(str(units), str(units)) for units in PRESET_UNITS],
        coerce=int,
        required=False,
        widget=forms.HiddenInput,
    )
    amount = UnitsField(
        label=_("Other amount (€)"),
        max_units=0,  # set per instance: the cap is a setting
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"reference": uuid.uuid4()})
        super().__init__(*args, **kwargs)
        self.fields["amount"].max_units = global_cap() // CENTS_PER_UNIT  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        preset = cleaned.get("preset")
        if preset:
            cleaned["cents"] = int(preset) * CENTS_PER_UNIT
        elif cleaned.get("amount"):
            cleaned["cents"] = cleaned["amount"]
        elif "amount" not in self.errors:
            self.add_error("amount", _("Choose an amount or enter one."))
        return cleaned

    @property
    def reference_key(self) -> str:
        return f"cashier-deposit:{self.cleaned_data['reference']}"


class DepositLimitForm(forms.Form):
    amount = UnitsField(label=_("Deposit limit per 24 hours (€)"), max_units=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_limit_%s")  # both cashier forms have an "amount"
        super().__init__(*args, **kwargs)
        self.fields["amount"].max_units = global_cap() // CENTS_PER_UNIT  # type: ignore[attr-defined]
