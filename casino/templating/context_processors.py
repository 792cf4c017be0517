from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from wallet.protection import is_blocked


def preferences(request: HttpRequest) -> dict[str, Any]:
    """Expose the player's display preferences to every template."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {
            "pref_reduced_motion": user.reduced_motion,
            "pref_sound": user.sound_enabled,
            "pref_show_clock": user.show_clock,
            # On a break from play: every page says so, from the sign-in on.
            "play_break_until": user.play_blocked_until if is_blocked(user) else None,
        }
    return {
        "pref_reduced_motion": False,
        "pref_sound": False,
        "pref_show_clock": False,
        "play_break_until": None,
    }
