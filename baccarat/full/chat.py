"""The chat of a full table (seeds 000/001): seated players write, everyone at the
table reads; players report messages; support removes them or mutes their writer.

A message is written with its event in the same transaction (under the table's row
lock), so it travels over the table's live events like everything else. Limits: 200
characters, ``CASINO_CHAT_RATE`` messages per ``CASINO_CHAT_RATE_SECONDS`` per player,
kept ``CASINO_CHAT_RETENTION_DAYS`` days.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from baccarat.events import event_write, table_change
from baccarat.models import ChatMessage, ChatMute, ChatReport, Seat, Table

if TYPE_CHECKING:
    from casino.accounts.models import User


class ChatRefused(Exception):
    """A message the chat does not take; ``message`` is translated and safe to show."""

    def __init__(self, message: object) -> None:
        self.message = message
        super().__init__(str(message))


def active_mute(
    *, player: User, table: Table | None, now: datetime | None = None
) -> ChatMute | None:
    """The mute that keeps ``player`` from writing at ``table`` now (the longest), if any."""
    now = now or timezone.now()
    where = Q(table__isnull=True)
    if table is not None:
        where |= Q(table=table)
    return ChatMute.objects.filter(where, player=player, until__gt=now).order_by("-until").first()


def chat_post(*, table: Table, player: User, text: str) -> ChatMessage:
    """Write ``text`` to the table's chat as ``player`` (seated, not muted, within the rate)."""
    text = " ".join(text.split())
    if not text:
        raise ChatRefused(_("Write a message first."))
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ChatRefused(_("A message has at most 200 characters."))
    with table_change(table.pk) as table:
        seat = Seat.objects.filter(table=table, player=player).first()
        if seat is None:
            raise ChatRefused(_("Take a seat to write in the chat; spectators read it."))
        mute = active_mute(player=player, table=table)
        if mute is not None:
            raise ChatRefused(muted_text(mute))
        window = timezone.now() - timedelta(seconds=settings.CASINO_CHAT_RATE_SECONDS)
        recent = ChatMessage.objects.filter(player=player, created_at__gte=window).count()
        if recent >= settings.CASINO_CHAT_RATE:
            raise ChatRefused(
                _("You are writing too fast. Please wait a few seconds before the next message.")
            )
        message = ChatMessage.objects.create(
            table=table, player=player, seat=seat.number, text=text
        )
        event_write(
            table,
            "chat",
            message=message.pk,
            seat=seat.number,
            player=player.username,
            text=text,
        )
    return message


def muted_text(mute: ChatMute) -> str:
    until = date_format(timezone.localtime(mute.until), "DATETIME_FORMAT")
    if mute.table_id is None:
        text = _("You may not write in any chat until %(until)s. Reason: %(reason)s")
    else:
        text = _("You may not write in this table's chat until %(until)s. Reason: %(reason)s")
    return text % {"until": until, "reason": mute.reason}


def chat_report(
    *, message_id: int, table: Table, reporter: User, reason: str = ""
) -> ChatReport | None:
    """Report a message of ``table`` (once per reporter; not one's own); ``None`` if this
    reporter reported it already. Raises ``ChatMessage.DoesNotExist`` otherwise."""
    message = ChatMessage.objects.get(pk=message_id, table=table, removed_at=None)
    if message.player_id == reporter.pk:
        raise ChatMessage.DoesNotExist
    try:
        with transaction.atomic():
            return ChatReport.objects.create(message=message, reporter=reporter, reason=reason)
    except IntegrityError:
        return None


def message_remove(*, message: ChatMessage) -> None:
    """Take a message out of the chat (support): it disappears from every browser."""
    with table_change(message.table_id) as table:
        updated = ChatMessage.objects.filter(pk=message.pk, removed_at=None).update(
            removed_at=timezone.now()
        )
        if updated:
            # The writer's page looks at its chat again: a mute may come with the removal.
            event_write(table, "chat_removed", message=message.pk, player=message.player.username)


def player_mute(
    *, player: User, table: Table | None, until: datetime, reason: str, by: User
) -> ChatMute:
    """Mute ``player`` at ``table`` (or everywhere) until ``until``, with the reason shown."""
    return ChatMute.objects.create(
        player=player, table=table, until=until, reason=reason, muted_by=by
    )


def mute_end(*, mute: ChatMute, player: User, now: datetime) -> None:
    """End ``mute`` of ``player`` now (support lifts it early). At each full table where
    they sit and the mute held, their page looks at its chat again: they may write."""
    mute.until = now
    mute.save(update_fields=["until"])
    seats = Seat.objects.filter(player=player)
    if mute.table_id is not None:
        seats = seats.filter(table=mute.table_id)
    for table_id in seats.values_list("table_id", flat=True):
        with table_change(table_id) as table:
            event_write(table, "chat_unmuted", player=player.username)


@dataclass
class ChatView:
    messages: list[ChatMessage]
    can_write: bool
    mute: ChatMute | None

    @property
    def mute_text(self) -> str:
        return muted_text(self.mute) if self.mute is not None else ""


def chat_view(*, table: Table, viewer: User, seated: bool, last: int = 50) -> ChatView:
    """The last messages of the table's chat, oldest first, for the chat window."""
    recent = (
        ChatMessage.objects.filter(table=table, removed_at=None)
        .select_related("player")
        .order_by("-created_at", "-pk")[:last]
    )
    messages = list(recent)
    messages.reverse()
    mute = active_mute(player=viewer, table=table) if seated else None
    return ChatView(messages=messages, can_write=seated and mute is None, mute=mute)


def chat_purge(*, now: datetime | None = None) -> int:
    """Delete messages older than ``CASINO_CHAT_RETENTION_DAYS`` (their reports go too;
    staff records keep the text of what they acted on)."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.CASINO_CHAT_RETENTION_DAYS)
    deleted, _by_model = ChatMessage.objects.filter(created_at__lt=cutoff).delete()
    return deleted
