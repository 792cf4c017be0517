from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from casino.accounts.models import User
from wallet.forms import UnitsField
from wallet.models import PlayBreak

LANGUAGE_CHOICES = [(code, name) for code, name in settings.LANGUAGES]


class SignupForm(UserCreationForm[User]):
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES)
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional; only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "language")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].error_messages["unique"] = _("This name is already taken.")

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This name is already taken."), code="unique")
        return username


class PreferencesForm(forms.ModelForm[User]):
    language = forms.ChoiceField(label=_("Language"), choices=LANGUAGE_CHOICES)

    class Meta:
        model = User
        fields = ("language", "reduced_motion", "sound_enabled", "show_clock")


class SoundForm(forms.Form):
    """The table's sound button: the sound to have ("on" or "off"), and the page to go back
    to when the form is sent without JavaScript."""

    sound = forms.ChoiceField(choices=[("on", "on"), ("off", "off")])
    next = forms.CharField(required=False, max_length=2000)


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        choices=LANGUAGE_CHOICES,
        error_messages={"invalid_choice": _("This language is not available.")},
    )
    next = forms.CharField(required=False, max_length=2000)


class SecondFactorForm(forms.Form):
    """A code from the authenticator app, or (where ``recovery`` allows it) a recovery code."""

    code = forms.CharField(
        label=_("Code"),
        max_length=32,
        error_messages={"required": _("Please enter the code.")},
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autofocus": True}),
    )
    next = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)

    def __init__(self, *args: Any, recovery: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        code = self.fields["code"]
        if recovery:
            code.label = _("Code or recovery code")
            code.help_text = _(
                "The six digits your authenticator app shows, or one of your recovery codes."
            )
        else:
            code.help_text = _("The six digits your authenticator app shows now.")
            code.widget.attrs["inputmode"] = "numeric"


# Responsible play (wallet/protection.py) ----------------------------------------------


class RealityCheckPreferenceForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("reality_check_minutes",)


class PlayLimitsForm(forms.Form):
    """The player's own limits; an empty field is no limit."""

    loss_day = UnitsField(label=_("Loss limit per day (€)"), max_units=1_000_000, required=False)
    loss_week = UnitsField(label=_("Loss limit per week (€)"), max_units=1_000_000, required=False)
    time_day = forms.IntegerField(
        label=_("Play time per day (minutes)"), min_value=1, max_value=24 * 60, required=False
    )
    time_week = forms.IntegerField(
        label=_("Play time per week (minutes)"), min_value=1, max_value=7 * 24 * 60, required=False
    )


class BreakForm(forms.Form):
    """A break (``kind`` break: days) or a self-exclusion (``kind`` exclusion)."""

    LENGTHS = {
        PlayBreak.Kind.BREAK: [
            ("1", _("24 hours")),
            ("7", _("7 days")),
            ("30", _("30 days")),
        ],
        PlayBreak.Kind.EXCLUSION: [
            ("183", _("6 months")),
            ("365", _("1 year")),
            ("1826", _("5 years")),
        ],
    }

    length = forms.ChoiceField(label=_("How long"))
    confirm = forms.BooleanField(
        label=_(
            "I understand: until it ends I cannot bet, deposit, buy chips or chat, "
            "and nobody can end it early, not even support."
        ),
        error_messages={"required": _("Please confirm that you understand.")},
    )

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", kind)
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields["length"].choices = self.LENGTHS[kind]  # type: ignore[attr-defined]

    @property
    def duration(self) -> timedelta:
        return timedelta(days=int(self.cleaned_data["length"]))
