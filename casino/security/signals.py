"""Log every refused login; count it against the IP's limit; stamp each new session and
start its reality check's clock."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver

from casino.security.middleware import session_stamp
from casino.security.ratelimits import login_failure_count
from wallet.protection import reality_check_answer

logger = logging.getLogger("casino.security")


@receiver(user_login_failed)
def log_login_failed(
    sender: object, credentials: dict[str, Any], request: Any = None, **kwargs: Any
) -> None:
    logger.warning("login failed for %r", credentials.get("username", ""))
    if request is not None:
        login_failure_count(request)


@receiver(user_logged_in)
def stamp_session(sender: object, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        session_stamp(request)


@receiver(user_logged_in)
def start_the_reality_checks_clock(sender: object, request: Any, user: Any, **kwargs: Any) -> None:
    """A sign-in starts the reality check's interval (wallet/protection.py), so that no
    page reads the player's stakes for it until an interval has passed."""
    reality_check_answer(player=user)
