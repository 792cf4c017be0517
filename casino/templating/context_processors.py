from __future__ import annotations

from typing import Any

from django.http import HttpRequest


def preferences(request: HttpRequest) -> dict[str, Any]:
    """Expose the player's display preferences to every template."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {
            "pref_reduced_motion": user.reduced_motion,
            "pref_sound": user.sound_enabled,
            "pref_show_clock": user.show_clock,
        }
    return {"pref_reduced_motion": False, "pref_sound": False, "pref_show_clock": False}
