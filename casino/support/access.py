"""Who may see what. Every refusal is logged for security review."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from casino.accounts.roles import is_support

logger = logging.getLogger("casino.security")


def log_denial(request: HttpRequest, reason: str) -> None:
    user = request.user if request.user.is_authenticated else "anonymous"
    logger.warning("access denied: %s %s for %s (%s)", request.method, request.path, user, reason)


def support_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Support staff and superusers only: anonymous users go to login, players get 403."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            log_denial(request, "not signed in")
            return redirect_to_login(request.get_full_path())
        if not is_support(request.user):
            log_denial(request, "not support staff")
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
