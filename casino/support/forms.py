from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from baccarat.models import Round, Table

STATUS_CHOICES = [
    ("", _("Any status")),
    *Round.Completion.choices,
    ("open", _("In play")),
    ("attention", _("Needs attention")),
]
MAX_REASON = 500


class RoundSearchForm(forms.Form):
    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    round_id = forms.IntegerField(
        label=_("Round id"),
        required=False,
        min_value=1,
        max_value=2**62,
        error_messages={"invalid": _("Enter a round number.")},
    )
    table = forms.ModelChoiceField(
        label=_("Table"),
        queryset=Table.objects.exclude(kind=Table.Kind.PRACTICE),
        required=False,
        empty_label=_("Any table"),
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    status = forms.ChoiceField(label=_("Status"), choices=STATUS_CHOICES, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The start date is after the end date."))
        return data


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=MAX_REASON,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown to the player in the protocol. Malfunction voids all pays and plays."),
    )

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Please give a reason."))
        return reason


MUTE_MINUTES = [
    (15, _("15 minutes")),
    (60, _("1 hour")),
    (24 * 60, _("24 hours")),
    (7 * 24 * 60, _("7 days")),
    (30 * 24 * 60, _("30 days")),
]


class ModerationForm(forms.Form):
    """What support does with a reported chat message."""

    action = forms.ChoiceField(
        label=_("Action"),
        choices=[
            ("dismiss", _("Dismiss the reports: the message stays")),
            ("remove", _("Remove the message")),
            ("mute", _("Remove the message and mute its writer")),
        ],
        widget=forms.RadioSelect,
    )
    everywhere = forms.TypedChoiceField(
        label=_("Mute where"),
        coerce=lambda value: value == "all",
        choices=[("table", _("At this table")), ("all", _("In every chat"))],
        initial="table",
        required=False,
        widget=forms.RadioSelect,
    )
    minutes = forms.TypedChoiceField(
        label=_("Mute for"), coerce=int, choices=MUTE_MINUTES, initial=60, required=False
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("A muted player sees this reason."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["reason"] = (data.get("reason") or "").strip()
        action = data.get("action")
        if action in ("remove", "mute") and not data["reason"]:
            self.add_error("reason", _("Please give a reason."))
        if action == "mute" and not data.get("minutes"):
            self.add_error("minutes", _("Choose how long the mute lasts."))
        data["everywhere"] = bool(data.get("everywhere"))
        return data
