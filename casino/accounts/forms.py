from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from casino.accounts.models import User

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
