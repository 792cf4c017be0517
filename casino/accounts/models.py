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
    sound_enabled = models.BooleanField(_("sound"), default=True)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def __str__(self) -> str:
        return self.username
