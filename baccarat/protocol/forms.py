"""The protocol's filter: table, dates, outcome, how the round ended."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from baccarat.models import Round
from baccarat.protocol.selectors import protocol_tables


class DateRangeForm(forms.Form):
    """Dates from and to (each optional), the start not after the end: the protocol's
    filter and the statistics page's."""

    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The start date is after the end date."))
        return cleaned


class ProtocolFilterForm(DateRangeForm):
    field_order = ["table", "date_from", "date_to"]

    table = forms.TypedChoiceField(
        label=_("Table"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=(),
        error_messages={"invalid_choice": _("You have played no rounds at that table.")},
    )
    outcome = forms.ChoiceField(
        label=_("Outcome"),
        required=False,
        choices=[("", _("Any")), *Round.Outcome.choices, (Round.State.VOID, _("Void"))],
    )

    def __init__(self, *args: Any, player: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The tables the player played at (another table's id is not a valid choice).
        self.fields["table"].choices = [  # type: ignore[attr-defined]
            ("", _("All tables")),
            *protocol_tables(player),
        ]
