"""Crash tests only: kill this process at a named point of the round lifecycle."""

from __future__ import annotations

import os
import signal

from django.conf import settings


def fault_point(name: str) -> None:
    """SIGKILL the current process when fault injection is allowed and ``name`` is chosen."""
    if settings.CASINO_ALLOW_FAULT_INJECTION and os.environ.get("CASINO_FAULT_POINT") == name:
        os.kill(os.getpid(), signal.SIGKILL)
