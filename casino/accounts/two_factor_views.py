"""Staff's second factor: the login that asks for it, enrolment, and the code after login."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django_otp import login as otp_login

from casino.accounts import devices, two_factor
from casino.accounts.forms import SecondFactorForm
from casino.accounts.views import _safe_next

logger = logging.getLogger("casino.security")


class LoginView(auth_views.LoginView):
    """Django's login; staff then give their second factor before going on. The browser
    is remembered as one the player signed in from (the failed-logins limit of its
    address then lets them through)."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        devices.device_remember(response, username=form.get_user().get_username())
        return response

    def get_success_url(self) -> str:
        url = super().get_success_url()
        user = self.request.user
        if two_factor.second_factor_enforced(user) and not two_factor.is_verified(user):
            return two_factor.second_factor_url(user, url)
        return url


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def two_factor_setup(request: HttpRequest) -> HttpResponse:
    """Enrol an authenticator app: QR code and secret, confirmed by its first code; then
    the recovery codes, shown once."""
    user = request.user
    _staff_only(request)
    form = SecondFactorForm(request.POST or None, initial={"next": request.GET.get("next", "")})
    if two_factor.has_authenticator(user):
        return HttpResponseRedirect(_next_step(request, form))
    device = two_factor.totp_device_pending(user=user)
    if request.method == "POST" and form.is_valid():
        check, codes = two_factor.totp_confirm(
            user=user, device=device, code=form.cleaned_data["code"]
        )
        if check.device is not None:
            otp_login(request, check.device)
            logger.info("second factor enrolled for %s", user)
            shown = {"codes": codes, "next": _next(request, form)}
            return render(request, "accounts/two_factor_codes.html", shown)
        form.add_error("code", check.error)
    context = {
        "form": form,
        "qr_code": two_factor.totp_qr_svg(device, title=_("QR code for your authenticator app")),
        "secret": two_factor.totp_secret(device),
    }
    return render(request, "accounts/two_factor_setup.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def two_factor_verify(request: HttpRequest) -> HttpResponse:
    """The code after the password: from the authenticator app, or a recovery code."""
    user = request.user
    _staff_only(request)
    form = SecondFactorForm(
        request.POST or None, initial={"next": request.GET.get("next", "")}, recovery=True
    )
    if two_factor.is_verified(user) or not two_factor.has_authenticator(user):
        return HttpResponseRedirect(_next_step(request, form))
    if request.method == "POST" and form.is_valid():
        check = two_factor.second_factor_check(user=user, code=form.cleaned_data["code"])
        if check.device is not None:
            otp_login(request, check.device)
            if check.device.persistent_id.startswith("otp_static."):
                left = two_factor.recovery_codes_left(user)
                messages.warning(
                    request,
                    ngettext(
                        "You used a recovery code; %(count)s is left. Please ask an "
                        "administrator for new ones when you run low.",
                        "You used a recovery code; %(count)s are left. Please ask an "
                        "administrator for new ones when you run low.",
                        left,
                    )
                    % {"count": left},
                )
            return HttpResponseRedirect(_next(request, form))
        logger.warning("second factor refused for %s", user)
        form.add_error("code", check.error)
    return render(request, "accounts/two_factor_verify.html", {"form": form})


def _staff_only(request: HttpRequest) -> None:
    """Players never give a second factor: these pages are not theirs."""
    if not two_factor.needs_second_factor(request.user):
        raise PermissionDenied


def _next(request: HttpRequest, form: SecondFactorForm) -> str:
    candidate = ""
    if form.is_bound and form.is_valid():
        candidate = form.cleaned_data["next"]
    candidate = candidate or request.GET.get("next", "")
    return _safe_next(request, candidate or resolve_url(settings.LOGIN_REDIRECT_URL))


def _next_step(request: HttpRequest, form: SecondFactorForm) -> str:
    """For a session that has nothing to do on this page: on to where it was going, or
    to the step of the second factor it still lacks."""
    next_url = _next(request, form)
    if two_factor.is_verified(request.user):
        return next_url
    return two_factor.second_factor_url(request.user, next_url)
