"""Log every refused login and every denied access, for support and security."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver

logger = logging.getLogger("casino.security")


@receiver(user_login_failed)
def log_login_failed(sender: object, credentials: dict[str, Any], **kwargs: Any) -> None:
    logger.warning("login failed for %r", credentials.get("username", ""))
