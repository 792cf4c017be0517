from __future__ import annotations

from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from baccarat.full.seats import player_stand_up_everywhere
from casino.accounts.forms import (
    BreakForm,
    LanguageForm,
    PlayLimitsForm,
    PreferencesForm,
    RealityCheckPreferenceForm,
    SignupForm,
    SoundForm,
)
from casino.accounts.models import User
from wallet import protection
from wallet.models import PlayBreak, PlayLimit
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


# Responsible play -------------------------------------------------------------------

LIMIT_UNITS = {"loss_day": 100, "loss_week": 100, "time_day": 1, "time_week": 1}


def _responsible_page(request: HttpRequest, **forms: Any) -> HttpResponse:
    player = cast(User, request.user)
    states = {state.kind: state for state in protection.limits_status(player=player)}
    initial = {kind: state.amount // LIMIT_UNITS[kind] for kind, state in states.items()}
    context = {
        "reality_form": forms.get("reality_form") or RealityCheckPreferenceForm(instance=player),
        "limits_form": forms.get("limits_form") or PlayLimitsForm(initial=initial),
        "break_form": forms.get("break_form") or BreakForm(kind=PlayBreak.Kind.BREAK),
        "exclusion_form": forms.get("exclusion_form") or BreakForm(kind=PlayBreak.Kind.EXCLUSION),
        "limits": [states.get(kind) for kind in LIMIT_UNITS],
        "has_limits": bool(states),
        "limit_kinds": PlayLimit.Kind,
        "active_break": protection.active_break(player=player),
    }
    return render(request, "accounts/responsible_play.html", context)


@login_required
@require_GET
def responsible_play(request: HttpRequest) -> HttpResponse:
    """What each protection does, the player's own, and the forms to change them."""
    return _responsible_page(request)


@login_required
@require_POST
def responsible_reality(request: HttpRequest) -> HttpResponse:
    form = RealityCheckPreferenceForm(request.POST, instance=cast(User, request.user))
    if not form.is_valid():
        return _responsible_page(request, reality_form=form)
    form.save()
    messages.success(request, _("Your reality check is saved."))
    return redirect("accounts:responsible_play")


@login_required
@require_POST
def responsible_limits(request: HttpRequest) -> HttpResponse:
    """Each limit changed: a lower one at once, a higher one or none after 24 hours."""
    player = cast(User, request.user)
    form = PlayLimitsForm(request.POST)
    if not form.is_valid():
        return _responsible_page(request, limits_form=form)
    states = {state.kind: state for state in protection.limits_status(player=player)}
    later = False
    for kind in LIMIT_UNITS:
        wanted = form.cleaned_data[kind]
        current = states.get(kind)
        if (current.amount if current else None) == wanted:
            continue
        protection.play_limit_set(player=player, kind=kind, amount=wanted)
        later = later or (current is not None and (wanted is None or wanted > current.amount))
    messages.success(
        request,
        _("Your limits are saved. A higher limit, or none, applies in 24 hours.")
        if later
        else _("Your limits are saved and apply now."),
    )
    return redirect("accounts:responsible_play")


@login_required
@require_POST
def responsible_break(request: HttpRequest, kind: str) -> HttpResponse:
    """A break or a self-exclusion, from now on: seated at a full table, the player is
    stood up (their stack cashed out) as soon as no stake of theirs is being dealt."""
    if kind not in PlayBreak.Kind.values:
        raise Http404
    player = cast(User, request.user)
    form = BreakForm(request.POST, kind=kind)
    if not form.is_valid():
        name = "break_form" if kind == PlayBreak.Kind.BREAK else "exclusion_form"
        return _responsible_page(request, **{name: form})
    taken = protection.play_break_take(player=player, kind=kind, length=form.duration)
    player_stand_up_everywhere(player)
    messages.success(
        request,
        _("Your break from play has begun. It ends on %(until)s.")
        % {"until": date_format(timezone.localtime(taken.ends_at), "DATETIME_FORMAT")},
    )
    return redirect("accounts:responsible_play")
