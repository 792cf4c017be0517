from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player or staff member, with display preferences."""

    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Pages are shown in this language whenever you are signed in."),
    )
    reduced_motion = models.BooleanField(
        _("reduced motion"),
        default=False,
        help_text=_("Cards appear at once, without animation."),
    )
    sound_enabled = models.BooleanField(
        _("sound"),
        default=False,
        help_text=_(
            "Chips, cards, wins and the betting timer make a sound. Off until you turn it on."
        ),
    )
    show_clock = models.BooleanField(
        _("time display"),
        default=True,
        help_text=_("The table shows how long you have been playing and the local time."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def __str__(self) -> str:
        return self.username
