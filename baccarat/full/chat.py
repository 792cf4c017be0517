"""The chat of a full table (seeds 000/001): seated players write, everyone at the
table reads; players report messages; support removes them or mutes their writer.

A message is written with its event in the same transaction (under the table's row
lock), so it travels over the table's live events like everything else. Limits: 200
characters, ``CASINO_CHAT_RATE`` messages per ``CASINO_CHAT_RATE_SECONDS`` per player,
kept ``CASINO_CHAT_RETENTION_DAYS`` days. A message has to show something: text of only
invisible characters is refused, and bidirectional controls never reach the database, so
no message can turn the text after it around. Its text lives in the message and in its
``chat`` event; a removal takes it out of both, and the purge deletes both (and tells
whoever kept a copy, :data:`chat_expired`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.dispatch import Signal
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from baccarat.events import event_write, table_change
from baccarat.models import ChatMessage, ChatMute, ChatReport, Seat, Table, TableEvent
from wallet import protection

if TYPE_CHECKING:
    from casino.accounts.models import User

# Sent by :func:`chat_purge` with ``cutoff``: text written before it must go wherever a
# room above the game kept a copy (support's records of what it acted on).
chat_expired = Signal()

# Embeddings, overrides, isolates and the directional marks: one of them left open turns
# the text after it around ("exe.txt" shows as "txt.exe"), so none is stored.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f"
    + "".join(chr(code) for code in range(0x202A, 0x202F))
    + "".join(chr(code) for code in range(0x2066, 0x206A))
)
# Letters and symbols that draw nothing: the Hangul fillers, Khmer's inherent vowels and
# the blank braille pattern.
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u17b4\u17b5\u2800")
# The event that carries a message's text, and how long after the message it is written
# at most (the event's time is its commit's): where a removal looks for it.
CHAT_EVENT = "chat"
CHAT_EVENT_DELAY = timedelta(minutes=5)


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


def chat_text_clean(text: str) -> str:
    """``text`` as the chat stores it: without bidirectional controls and other control
    characters, each run of white space one space, trimmed."""
    kept = "".join(
        char
        for char in text
        if char not in BIDI_CONTROLS and (char.isspace() or unicodedata.category(char) != "Cc")
    )
    return " ".join(kept.split())


def text_is_visible(text: str) -> bool:
    """True when ``text`` draws something: a letter, digit, punctuation mark or symbol,
    not only spaces, zero-width and format characters or combining marks."""
    return any(
        unicodedata.category(char)[0] in "LNPS" and char not in BLANK_CHARACTERS for char in text
    )


def chat_post(*, table: Table, player: User, text: str) -> ChatMessage:
    """Write ``text`` to the table's chat as ``player`` (seated, not muted, within the rate)."""
    text = chat_text_clean(text)
    if not text:
        raise ChatRefused(_("Write a message first."))
    if not text_is_visible(text):
        raise ChatRefused(
            _("This message would show nothing. Please write letters, numbers or signs.")
        )
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ChatRefused(_("A message has at most 200 characters."))
    if protection.is_blocked(player):
        raise ChatRefused(protection.blocked_message(player))
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
            CHAT_EVENT,
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
    """Take a message out of the chat (support): it disappears from every browser, and
    its text from its ``chat`` event, so no replay of the table's events brings it back."""
    with table_change(message.table_id) as table:
        updated = ChatMessage.objects.filter(pk=message.pk, removed_at=None).update(
            removed_at=timezone.now()
        )
        if updated:
            _event_text_remove(table=table, message=message)
            # The writer's page looks at its chat again: a mute may come with the removal.
            event_write(table, "chat_removed", message=message.pk, player=message.player.username)


def _event_text_remove(*, table: Table, message: ChatMessage) -> None:
    events = TableEvent.objects.filter(
        table=table,
        kind=CHAT_EVENT,
        created_at__gte=message.created_at - CHAT_EVENT_DELAY,
        data__message=message.pk,
    )
    for event in events:
        event.data = {key: value for key, value in event.data.items() if key != "text"}
        event.data["removed"] = True
        event.save(update_fields=["data"])


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


PURGE_BATCH = 5000  # rows per delete: each a short transaction beside the tables' play


def chat_purge(*, now: datetime | None = None) -> int:
    """Delete messages older than ``CASINO_CHAT_RETENTION_DAYS`` with their reports and
    ``chat`` events, and every table event older than ``CASINO_TABLE_EVENT_RETENTION_DAYS``;
    then :data:`chat_expired` lets whoever kept a copy of older text drop it. Returns the
    number of messages deleted."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.CASINO_CHAT_RETENTION_DAYS)
    deleted, _by_model = ChatMessage.objects.filter(created_at__lt=cutoff).delete()
    _delete_in_batches(TableEvent.objects.filter(kind=CHAT_EVENT, created_at__lt=cutoff))
    events_cutoff = now - timedelta(days=settings.CASINO_TABLE_EVENT_RETENTION_DAYS)
    _delete_in_batches(TableEvent.objects.filter(created_at__lt=events_cutoff))
    chat_expired.send(sender=ChatMessage, cutoff=cutoff)
    return deleted


def _delete_in_batches(rows: QuerySet[TableEvent]) -> None:
    while True:
        batch = list(rows.order_by("pk").values_list("pk", flat=True)[:PURGE_BATCH])
        if not batch:
            return
        TableEvent.objects.filter(pk__in=batch).delete()
