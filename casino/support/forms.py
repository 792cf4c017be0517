from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from baccarat.models import Round, Table
from casino.support.models import Ticket
from casino.support.tickets import MAX_ANSWER, MAX_MESSAGE

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
    """Why a round is voided: a cause from the list and what happened, in words the
    player reads in the protocol. ``confirm`` is set by the confirmation screen, which
    shows exactly what the void will move before anything moves."""

    cause = forms.ChoiceField(
        label=_("Cause"),
        # Staff's causes; the server's own (a round it could not complete) is not one.
        choices=[
            (value, label)
            for value, label in Round.VoidCause.choices
            if value != Round.VoidCause.NOT_COMPLETED
        ],
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label=_("What happened"),
        max_length=MAX_REASON,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown to the player in the protocol."),
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, round: Round, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round = round
        if round.state == Round.State.SETTLED:
            # Seed 002: malfunctions void all pays and plays; nothing else undoes a
            # settled round.
            cause = self.fields["cause"]
            cause.choices = [  # type: ignore[attr-defined]
                (Round.VoidCause.MALFUNCTION, Round.VoidCause.MALFUNCTION.label)
            ]
            cause.initial = Round.VoidCause.MALFUNCTION
            cause.error_messages["invalid_choice"] = _(
                "A settled round can be voided only for a malfunction: a malfunction voids "
                "all pays and plays."
            )
            cause.help_text = _(
                "This round is settled: voiding it refunds every stake and takes every payout back."
            )

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Please say what happened."))
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


class MuteLiftForm(forms.Form):
    """Why a mute ends before its time (kept with the staff action)."""

    reason = forms.CharField(  # stripped: blanks alone are no reason
        label=_("Why lift it"),
        max_length=200,
        error_messages={"required": _("Please give a reason.")},
    )


class TicketForm(forms.Form):
    """A player's request for help about one of their rounds."""

    subject = forms.ChoiceField(label=_("What is it about?"), choices=Ticket.Subject.choices)
    message = forms.CharField(
        label=_("Your message"),
        min_length=10,
        max_length=MAX_MESSAGE,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("Please describe what happened, in at least 10 characters."),
        error_messages={
            "min_length": _("Please describe what happened in at least 10 characters."),
            "max_length": _("Please keep your message to %(limit_value)d characters."),
        },
    )

    def clean_message(self) -> str:
        message: str = self.cleaned_data["message"].strip()
        if len(message) < 10:
            raise forms.ValidationError(
                _("Please describe what happened in at least 10 characters.")
            )
        return message


class TicketAnswerForm(forms.Form):
    """Support's answer to a request, which the player reads."""

    answer = forms.CharField(
        label=_("Answer"),
        max_length=MAX_ANSWER,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("The player reads this answer and gets a notice."),
    )
    close = forms.BooleanField(label=_("Close the request with this answer"), required=False)

    def clean_answer(self) -> str:
        answer: str = self.cleaned_data["answer"].strip()
        if not answer:
            raise forms.ValidationError(_("Please write an answer."))
        return answer


class TicketCloseForm(forms.Form):
    """Closing a request; the note stays with staff."""

    note = forms.CharField(
        label=_("Note for staff"),
        max_length=MAX_REASON,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean_note(self) -> str:
        return str(self.cleaned_data["note"]).strip()


class TicketQueueForm(forms.Form):
    show = forms.ChoiceField(
        label=_("Show"),
        choices=[("", _("Waiting and answered")), ("closed", _("Closed"))],
        required=False,
    )
