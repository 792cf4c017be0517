"""Chat moderation by support: the queue of reported messages and what staff do with a
report (dismiss it, remove the message, mute its writer at the table or everywhere).

Each decision is one transaction under the message's row lock: two members of staff who
press at once get one action and one "already handled"; every action leaves a
:class:`~casino.support.models.StaffAction` (who, what, when, why, and the message as it
was). The record keeps the message's text only as long as the chat keeps messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Min, QuerySet
from django.utils import timezone

from baccarat.full import chat
from baccarat.models import ChatMessage, ChatMute, ChatReport
from casino.accounts.models import User
from casino.support.models import StaffAction

CONTEXT = 5  # messages shown before and after the reported one


class AlreadyHandled(Exception):
    """Another member of staff handled this message's reports a moment ago."""


def report_queue() -> QuerySet[ChatMessage]:
    """Messages with open reports, the longest-waiting first."""
    return (
        ChatMessage.objects.filter(reports__state=ChatReport.State.OPEN)
        .annotate(
            open_reports=Count("reports"),
            first_reported=Min("reports__created_at"),
            last_reported=Max("reports__created_at"),
        )
        .select_related("player", "table")
        .order_by("first_reported", "pk")
    )


@dataclass
class ReportCase:
    message: ChatMessage
    before: list[ChatMessage]
    after: list[ChatMessage]
    reports: list[ChatReport]
    mutes: list[ChatMute]  # the writer's mutes, newest first
    actions: list[StaffAction]  # what staff did about this message


def report_case(*, message_id: int) -> ReportCase:
    """A reported message with the messages around it, its reports and its writer's mutes."""
    message = ChatMessage.objects.select_related("player", "table").get(pk=message_id)
    around = ChatMessage.objects.filter(table=message.table_id).select_related("player")
    before = list(
        around.filter(created_at__lte=message.created_at)
        .exclude(pk=message.pk)
        .order_by("-created_at", "-pk")[:CONTEXT]
    )
    before.reverse()
    after = list(
        around.filter(created_at__gte=message.created_at)
        .exclude(pk=message.pk)
        .order_by("created_at", "pk")[:CONTEXT]
    )
    return ReportCase(
        message=message,
        before=before,
        after=after,
        reports=list(message.reports.select_related("reporter").order_by("created_at")),
        mutes=list(
            ChatMute.objects.filter(player=message.player_id)
            .select_related("table", "muted_by")
            .order_by("-created_at")[:10]
        ),
        actions=list(
            StaffAction.objects.filter(details__message=message.pk)
            .select_related("actor")
            .order_by("-created_at")
        ),
    )


def _details(message: ChatMessage, **more: Any) -> dict[str, Any]:
    return {
        "message": message.pk,
        "table": message.table_id,
        "text": message.text,
        "written": message.created_at.isoformat(),
        **more,
    }


def report_decide(
    *,
    message_id: int,
    action: str,
    by: User,
    reason: str,
    everywhere: bool = False,
    minutes: int = 0,
) -> StaffAction:
    """Handle every open report of a message: ``dismiss``, ``remove`` (the message
    disappears from every browser) or ``mute`` (remove it and mute the writer for
    ``minutes``, at its table or ``everywhere``). Raises :class:`AlreadyHandled` when no
    report is open any more."""
    now = timezone.now()
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().get(pk=message_id)
        reports = ChatReport.objects.filter(message=message, state=ChatReport.State.OPEN)
        if not reports.exists():
            raise AlreadyHandled
        if action == "dismiss":
            reports.update(state=ChatReport.State.DISMISSED, handled_at=now)
            return StaffAction.objects.create(
                actor=by,
                kind=StaffAction.Kind.REPORT_DISMISSED,
                subject=message.player,
                reason=reason,
                details=_details(message),
            )
        reports.update(state=ChatReport.State.ACTED, handled_at=now)
        chat.message_remove(message=message)
        if action == "remove":
            return StaffAction.objects.create(
                actor=by,
                kind=StaffAction.Kind.MESSAGE_REMOVED,
                subject=message.player,
                reason=reason,
                details=_details(message),
            )
        until = now + timedelta(minutes=minutes)
        mute = chat.player_mute(
            player=message.player,
            table=None if everywhere else message.table,
            until=until,
            reason=reason,
            by=by,
        )
        return StaffAction.objects.create(
            actor=by,
            kind=StaffAction.Kind.PLAYER_MUTED,
            subject=message.player,
            reason=reason,
            details=_details(
                message,
                mute=mute.pk,
                everywhere=everywhere,
                until=until.isoformat(),
                minutes=minutes,
            ),
        )


def mute_lift(*, message_id: int, mute_id: int, by: User, reason: str) -> StaffAction:
    """End a mute of the writer of ``message_id`` now: they may write again at once.
    Raises :class:`ChatMute.DoesNotExist` for a mute that is not that writer's, and
    :class:`AlreadyHandled` for one that has ended already (lifted or run out)."""
    with transaction.atomic():
        message = ChatMessage.objects.select_related("player").get(pk=message_id)
        mute = ChatMute.objects.select_for_update().get(pk=mute_id, player=message.player_id)
        now = timezone.now()  # read under the lock: a lift that waited sees the first one's
        if mute.until <= now:
            raise AlreadyHandled
        until = mute.until
        chat.mute_end(mute=mute, player=message.player, now=now)
        return StaffAction.objects.create(
            actor=by,
            kind=StaffAction.Kind.MUTE_LIFTED,
            subject=message.player,
            reason=reason,
            details=_details(message, mute=mute.pk, until=until.isoformat()),
        )


def records_chat_text_expire(*, cutoff: datetime, **kwargs: Any) -> int:
    """Take the text of messages written before ``cutoff`` out of staff records (the
    chat's purge sends :data:`baccarat.full.chat.chat_expired`): who did what, when and
    why stays. Returns the number of records changed."""
    changed = 0
    for action in StaffAction.objects.filter(details__has_key="text").only("details"):
        written = action.details.get("written")
        if written and datetime.fromisoformat(written) >= cutoff:
            continue
        details = {key: value for key, value in action.details.items() if key != "text"}
        StaffAction.objects.filter(pk=action.pk).update(details=details)
        changed += 1
    return changed
