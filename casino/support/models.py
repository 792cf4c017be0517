from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TableChange(models.Model):
    """Audit log of table configuration: who changed what, when, from what to what.

    Written by the admin on every save; the admin shows it read-only, and no view
    of the application can edit or delete it.
    """

    table = models.ForeignKey(
        "baccarat.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="changes"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True, db_index=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"))

    class Meta:
        verbose_name = _("table change")
        verbose_name_plural = _("table changes")
        ordering = ["-changed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} @ {self.changed_at:%Y-%m-%d %H:%M}"

    def changed_fields(self) -> list[tuple[str, object, object]]:
        before = self.before or {}
        return [
            (name, before.get(name), value)
            for name, value in self.after.items()
            if before.get(name) != value
        ]


class StaffAction(models.Model):
    """What a member of staff did, when and why: chat moderation, voids, exports, player
    pages viewed. Written by the support area as the action happens; superusers read it
    in the admin, nobody can change or delete it."""

    class Kind(models.TextChoices):
        REPORT_DISMISSED = "report_dismissed", _("Chat report dismissed")
        MESSAGE_REMOVED = "message_removed", _("Chat message removed")
        PLAYER_MUTED = "player_muted", _("Player muted in the chat")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("action"), max_length=24, choices=Kind.choices)
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.TextField(_("reason"), blank=True)
    # What the action was about, as it was then (a message may be deleted later).
    details = models.JSONField(_("details"), default=dict)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("staff action")
        verbose_name_plural = _("staff actions")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.actor} @ {self.created_at:%Y-%m-%d %H:%M}"
