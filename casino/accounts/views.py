from __future__ import annotations

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.accounts.forms import LanguageForm, PreferencesForm, SignupForm, SoundForm
from casino.accounts.models import User
from wallet.services import wallet_open_for_new_player


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.language = form.cleaned_data["language"]
        user.save()
        wallet_open_for_new_player(player=user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        translation.activate(user.language)
        messages.success(request, _("Welcome! Your play-money wallet is ready."))
        response = redirect("lobby")
        _set_language_cookie(response, user.language)
        return response
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language)
        messages.success(request, _("Your preferences have been saved."))
        response = redirect("accounts:preferences")
        _set_language_cookie(response, user.language)
        return response
    return render(request, "accounts/preferences.html", {"form": form})


@login_required
@require_POST
def sound(request: HttpRequest) -> HttpResponse:
    """The table's sound button: turn the sound on or off, kept in the player's preferences
    (every tab and every later visit hear it so). htmx gets the button as stored; a form
    sent without JavaScript goes back to its page."""
    form = SoundForm(request.POST)
    if form.is_valid():
        player = cast(User, request.user)  # signed in: @login_required
        player.sound_enabled = form.cleaned_data["sound"] == "on"
        player.save(update_fields=["sound_enabled"])
    next_url = _safe_next(request, form.cleaned_data.get("next", ""))
    if request.htmx:  # type: ignore[attr-defined]
        return render(
            request,
            "accounts/sound_button.html",
            {"sound_next": next_url},
            status=200 if form.is_valid() else 400,
        )
    if not form.is_valid():
        messages.error(request, _("The sound could not be changed. Please try again."))
    return HttpResponseRedirect(next_url)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Switch the language and go back to the page the player was on."""
    form = LanguageForm(request.POST)
    next_url = _safe_next(request, request.POST.get("next", ""))
    if not form.is_valid():
        messages.error(request, _("This language is not available."))
        return HttpResponseRedirect(next_url)
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        request.user.language = language
        request.user.save(update_fields=["language"])
    response = HttpResponseRedirect(next_url)
    _set_language_cookie(response, language)
    return response


def _safe_next(request: HttpRequest, candidate: str) -> str:
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return "/"


def _set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=True,
    )
