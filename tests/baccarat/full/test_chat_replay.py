"""Chat text leaves the table's event stream: a message support removed is gone from every
replay (``/tables/<slug>/events/?after=0``: the event row, and each web process's copy of
recent events), and the purge deletes a table's events after their retention, a chat
event with its message, so no chat text outlives the chat's retention."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from baccarat.events import event_write, table_change
from baccarat.full import chat, live
from baccarat.full.live import Feed, feed_learn
from baccarat.models import ChatMessage, Table, TableEvent
from baccarat.tasks import purge_chat
from tests.baccarat.full.test_chat import browser, chat_events, full_table, seated, send

pytestmark = pytest.mark.django_db


@pytest.fixture
def salon() -> Table:
    return full_table("salon")


def replay(viewer: Any, table: Table, *, after: int = 0) -> list[dict[str, Any]]:
    """The events the stream sends ``viewer``'s browser that comes with ``after``, up to
    the last. (The view itself, under WSGI: the test client would end the response by
    closing this test's database connection.)"""
    last = Table.objects.get(pk=table.pk).event_seq
    url = reverse("baccarat:table_events", args=[table.slug])
    request = RequestFactory().get(url, {"after": after})
    request.user = viewer

    async def auser() -> Any:
        return viewer

    request.auser = auser  # type: ignore[attr-defined]
    response = async_to_sync(live.table_events)(request, slug=table.slug)
    events: list[dict[str, Any]] = []
    chunks = iter(response.streaming_content)
    try:
        while not events or events[-1]["seq"] < last:
            for line in next(chunks).decode().splitlines():
                if line.startswith("data: ") and '"seq"' in line:
                    events.append(json.loads(line[len("data: ") :]))
    finally:
        request_finished.disconnect(close_old_connections)
        try:
            response.close()
        finally:
            request_finished.connect(close_old_connections)
    return events


def test_a_removed_message_is_gone_from_every_replay(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    bob = seated(salon, "bob", 2)
    send(browser(alice), salon, "my secret phone number")
    send(browser(alice), salon, "good luck")
    secret = ChatMessage.objects.get(text="my secret phone number")
    assert "my secret phone number" in json.dumps(replay(bob, salon))

    chat.message_remove(message=secret)

    for event in TableEvent.objects.filter(table=salon):
        assert "my secret phone number" not in json.dumps(event.data)
    events = replay(bob, salon)
    assert "my secret phone number" not in json.dumps(events)
    chats = [event for event in events if event["kind"].startswith("chat")]
    assert [(event["kind"], event["message"]) for event in chats] == [
        ("chat", secret.pk),
        ("chat", secret.pk + 1),
        ("chat_removed", secret.pk),
    ]
    assert chats[0]["removed"] is True and "text" not in chats[0]
    assert chats[1]["text"] == "good luck"  # the others' messages stay as they were


def test_a_web_processs_copy_of_recent_events_forgets_a_removed_text(salon: Table) -> None:
    """Each web process keeps the recent events of a table for its streams; the removal's
    event makes it drop what came before, so a stream reads the rewritten rows."""
    alice = seated(salon, "alice", 1)
    send(browser(alice), salon, "my secret phone number")
    feed = Feed()
    feed_learn(feed, list(TableEvent.objects.filter(table=salon).order_by("seq")))
    first = feed.messages[0][0]
    assert any("my secret phone number" in text for _seq, text in feed.messages)

    chat.message_remove(message=ChatMessage.objects.get())
    removal = TableEvent.objects.get(table=salon, kind="chat_removed")
    feed_learn(feed, [removal])

    assert not any("my secret phone number" in text for _seq, text in feed.messages)
    assert feed.after(first - 1) is None  # a replay from before goes to the rows
    assert [seq for seq, _text in feed.after(removal.seq - 1) or []] == [removal.seq]


def test_removing_is_once_and_leaves_other_tables_alone(salon: Table) -> None:
    lounge = full_table("lounge")
    alice = seated(salon, "alice", 1)
    seats_lounge = seated(lounge, "lena", 1)
    send(browser(alice), salon, "salon words")
    send(browser(seats_lounge), lounge, "lounge words")
    message = ChatMessage.objects.get(text="salon words")
    chat.message_remove(message=message)
    chat.message_remove(message=message)
    assert [event["kind"] for event in chat_events(salon)] == ["chat", "chat_removed"]
    assert chat_events(lounge)[0]["text"] == "lounge words"


def age(rows: Any, days: int) -> None:
    rows.update(created_at=timezone.now() - timedelta(days=days))


def test_the_purge_deletes_events_past_their_retention(salon: Table, settings: Any) -> None:
    settings.CASINO_CHAT_RETENTION_DAYS = 30
    settings.CASINO_TABLE_EVENT_RETENTION_DAYS = 90
    alice = seated(salon, "alice", 1)
    send(browser(alice), salon, "an old message")
    with table_change(salon.pk) as table:
        event_write(table, "bets", seat=1, stakes={"player": 500})
    age(ChatMessage.objects.all(), 31)
    age(TableEvent.objects.filter(table=salon), 31)  # sit, chat, bets: a month old
    send(browser(alice), salon, "a new message")
    kept = set(TableEvent.objects.exclude(kind="chat").values_list("pk", flat=True))

    purge_chat()  # the hourly task of the beat schedule

    # A chat event goes with its message; the others stay until their own retention.
    assert [event["text"] for event in chat_events(salon)] == ["a new message"]
    assert set(TableEvent.objects.exclude(kind="chat").values_list("pk", flat=True)) == kept
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["a new message"]

    age(TableEvent.objects.filter(pk__in=kept), 91)
    chat.chat_purge()
    assert [event["kind"] for event in chat_events(salon)] == ["chat"]
    assert not TableEvent.objects.filter(pk__in=kept).exists()
    # A browser still gets what is left, from where it stands.
    events = replay(alice, salon)
    assert [event["text"] for event in events if event["kind"] == "chat"] == ["a new message"]


def test_the_event_retention_is_a_setting_the_hourly_purge_applies() -> None:
    assert django_settings.CASINO_TABLE_EVENT_RETENTION_DAYS == 30
    assert django_settings.CASINO_CHAT_RETENTION_DAYS == 30
    schedule = django_settings.CELERY_BEAT_SCHEDULE["purge-chat"]
    assert schedule == {"task": "baccarat.tasks.purge_chat", "schedule": 3600.0}
