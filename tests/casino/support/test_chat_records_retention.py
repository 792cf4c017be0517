"""Staff records keep the text of a chat message they acted on only as long as the chat
keeps its messages: the chat's purge takes it out of them; who did what, when and why
stays. A removal takes the text out of the table's events at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat.full import chat, seats
from baccarat.models import ChatMessage, Table, TableEvent
from baccarat.tasks import purge_chat
from casino.support import moderation
from casino.support.models import StaffAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def salon() -> Table:
    return Table.objects.create(
        name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )  # fmt: skip


def reported_message(table: Table, writer: Any, reporter: Any, text: str) -> ChatMessage:
    message = chat.chat_post(table=table, player=writer, text=text)
    chat.chat_report(message_id=message.pk, table=table, reporter=reporter)
    return message


def test_the_purge_takes_old_chat_text_out_of_staff_records(
    salon: Table, alice: Any, bob: Any, support_user: Any, settings: Any
) -> None:
    settings.CASINO_CHAT_RETENTION_DAYS = 30
    seats.seat_take(table=salon, player=alice, number=1, buy_in=50_00, reference="a")
    seats.seat_take(table=salon, player=bob, number=2, buy_in=50_00, reference="b")
    old = reported_message(salon, alice, bob, "old insult")
    new = reported_message(salon, alice, bob, "new insult")
    removed = moderation.report_decide(
        message_id=old.pk, action="remove", by=support_user, reason="Insult"
    )
    muted = moderation.report_decide(
        message_id=new.pk, action="mute", by=support_user, reason="Again", minutes=60
    )
    # The removal took the text out of the table's events already.
    assert "old insult" not in str(list(TableEvent.objects.values_list("data", flat=True)))
    month_ago = timezone.now() - timedelta(days=31)
    ChatMessage.objects.filter(pk=old.pk).update(created_at=month_ago)
    TableEvent.objects.filter(kind="chat", data__message=old.pk).update(created_at=month_ago)
    StaffAction.objects.filter(pk=removed.pk).update(
        details={**removed.details, "written": month_ago.isoformat()}
    )

    purge_chat()

    removed.refresh_from_db()
    muted.refresh_from_db()
    assert "text" not in removed.details
    assert removed.details["message"] == old.pk and removed.details["table"] == salon.pk
    assert (removed.kind, removed.actor, removed.subject, removed.reason) == (
        StaffAction.Kind.MESSAGE_REMOVED,
        support_user,
        alice,
        "Insult",
    )
    assert muted.details["text"] == "new insult"  # written within the retention: kept
    assert not ChatMessage.objects.filter(pk=old.pk).exists()
    assert not TableEvent.objects.filter(kind="chat", data__message=old.pk).exists()
    assert TableEvent.objects.filter(kind="chat", data__message=new.pk).exists()


def test_a_record_without_a_writing_time_loses_its_text_too(support_user: Any, alice: Any) -> None:
    action = StaffAction.objects.create(
        actor=support_user,
        kind=StaffAction.Kind.MESSAGE_REMOVED,
        subject=alice,
        details={"message": 1, "text": "kept by an older version"},
    )
    assert moderation.records_chat_text_expire(cutoff=timezone.now()) == 1
    action.refresh_from_db()
    assert action.details == {"message": 1}
