from __future__ import annotations

from typing import Any

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


def table_change_record(
    *, table: Any, changed_by: Any, before: Any, after: Any, **kwargs: Any
) -> TableChange:
    """Write the audit log's row for a table the admin changed (``table_config_changed``)."""
    return TableChange.objects.create(
        table=table, changed_by=changed_by, before=before, after=after
    )


class StaffAction(models.Model):
    """What a member of staff did, when and why: chat moderation, voids, exports, player
    and round pages viewed, a player's rounds listed. Written by the support area as the
    action happens; superusers read it in the admin, nobody can change or delete it."""

    class Kind(models.TextChoices):
        REPORT_DISMISSED = "report_dismissed", _("Chat report dismissed")
        MESSAGE_REMOVED = "message_removed", _("Chat message removed")
        PLAYER_MUTED = "player_muted", _("Player muted in the chat")
        MUTE_LIFTED = "mute_lifted", _("Chat mute lifted")
        ROUND_VOIDED = "round_voided", _("Round voided")
        ROUNDS_EXPORTED = "rounds_exported", _("Rounds exported as CSV")
        PLAYER_VIEWED = "player_viewed", _("Player page viewed")
        ROUND_VIEWED = "round_viewed", _("Round page viewed")
        PROTOCOL_VIEWED = "protocol_viewed", _("Player's rounds listed")
        TICKET_ANSWERED = "ticket_answered", _("Request answered")
        TICKET_CLOSED = "ticket_closed", _("Request closed")

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


class Ticket(models.Model):
    """A player's request for help about one of their rounds, and support's answer.

    One request per player and round is open at a time (a database constraint settles
    a double submit); once it is closed the player may ask again.
    """

    class Subject(models.TextChoices):
        RESULT = "result", _("The result looks wrong")
        PAYOUT = "payout", _("A payout or my balance looks wrong")
        DISCONNECTED = "disconnected", _("I was disconnected")
        MALFUNCTION = "malfunction", _("Something did not work")
        OTHER = "other", _("Something else")

    class State(models.TextChoices):
        OPEN = "open", _("Waiting for support")
        ANSWERED = "answered", _("Answered")
        CLOSED = "closed", _("Closed")

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="tickets",
    )
    round = models.ForeignKey(
        "baccarat.Round", verbose_name=_("round"), on_delete=models.PROTECT, related_name="+"
    )
    subject = models.CharField(_("subject"), max_length=16, choices=Subject.choices)
    message = models.TextField(_("message"))
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.OPEN)
    answer = models.TextField(_("answer"), blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("answered by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # Set when support answers; cleared once the player was told (a notice, or the page).
    answer_unread = models.BooleanField(default=False)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("request for help")
        verbose_name_plural = _("requests for help")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "round"],
                condition=~models.Q(state="closed"),
                name="one_open_ticket_per_round",
            ),
            models.CheckConstraint(
                condition=models.Q(state="open") | ~models.Q(answer="") | models.Q(state="closed"),
                name="answered_ticket_has_answer",
            ),
        ]
        indexes = [
            models.Index(fields=["state", "created_at"], name="ticket_queue"),
            models.Index(fields=["player", "-created_at"], name="ticket_player_recent"),
            models.Index(
                fields=["player"], condition=models.Q(answer_unread=True), name="ticket_unread"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.player} on round {self.round_id}"

    @property
    def is_closed(self) -> bool:
        return self.state == self.State.CLOSED
