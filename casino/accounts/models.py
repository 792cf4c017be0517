from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _


class AccountManager(UserManager["User"]):
    """Django's user manager as it is (``User.objects.get(pk=...)`` through the ORM); the
    name stays because migration 0004 names it."""


class User(AbstractUser):
    """A player or staff member, with display preferences."""

    objects = AccountManager()  # type: ignore[misc]

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

    # Responsible play (wallet/protection.py), kept on the player's row so that every
    # request, which reads it anyway, knows at once whether the player may bet.
    reality_check_minutes = models.PositiveSmallIntegerField(
        _("reality check"),
        choices=[
            (15, _("every 15 minutes")),
            (30, _("every 30 minutes")),
            (60, _("every 60 minutes")),
            (0, _("off")),
        ],
        default=60,
        help_text=_("A reminder of the time you have played and your result since you came."),
    )
    reality_checked_at = models.DateTimeField(null=True, blank=True, editable=False)
    play_blocked_until = models.DateTimeField(null=True, blank=True, editable=False)
    has_play_limits = models.BooleanField(default=False, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        indexes = [
            # Names are compared without case (sign-up's "already taken", support's search
            # by player): without it each such lookup reads every account.
            models.Index(Upper("username"), name="user_username_upper"),
        ]

    def __str__(self) -> str:
        return self.username
