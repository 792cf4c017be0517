"""The chat of a full table: seated players write, everyone at the table reads, every
message is text (never HTML), the limits refuse with a clear message and change nothing,
muted players cannot write, and nothing of one table's chat reaches another."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from baccarat.full import chat, seats
from baccarat.models import ChatMessage, ChatMute, ChatReport, Table, TableEvent
from tests.baccarat.conftest import make_player

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def full_table(slug: str) -> Table:
    return Table.objects.create(
        name=slug.title(),
        slug=slug,
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )


@pytest.fixture
def salon() -> Table:
    return full_table("salon")


def seated(table: Table, name: str, number: int) -> Any:
    player = make_player(name)
    seats.seat_take(table=table, player=player, number=number, buy_in=100_00, reference=name)
    return player


def browser(player: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(player)
    if language != "en":
        player.language = language
        player.save(update_fields=["language"])
    return client


def send(client: Client, table: Table, text: str) -> Any:
    return client.post(reverse("baccarat:chat_send", args=[table.slug]), {"text": text}, **HTMX)


def chat_events(table: Table) -> list[dict[str, Any]]:
    return [
        {"kind": e.kind, **e.data}
        for e in TableEvent.objects.filter(table=table, kind__startswith="chat").order_by("seq")
    ]


def test_a_seated_player_writes_and_everyone_at_the_table_reads_it(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    spectator = make_player("sam")

    response = send(browser(alice), salon, "  Good   luck,  everyone!  ")

    assert response.status_code == 200
    message = ChatMessage.objects.get()
    assert (message.player, message.seat, message.text) == (alice, 1, "Good luck, everyone!")
    assert chat_events(salon) == [
        {
            "kind": "chat",
            "message": message.pk,
            "seat": 1,
            "player": "alice",
            "text": "Good luck, everyone!",
        }
    ]
    page = browser(spectator).get(reverse("baccarat:table", args=[salon.slug]))
    assert 'id="chat-log"' in page.content.decode()
    assert "Good luck, everyone!" in page.content.decode()
    # Spectators read; they get no form, and are told how to write.
    assert 'id="chat-form"' not in page.content.decode()
    assert "Take a seat to write in the chat" in page.content.decode()


def test_messages_are_text_never_html(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    bob = seated(salon, "bob", 2)
    attack = '<script>alert("x")</script><b onclick="steal()">bold</b> & <img src=x>'
    assert send(browser(alice), salon, attack).status_code == 200

    for url in (
        reverse("baccarat:table", args=[salon.slug]),
        reverse("baccarat:chat", args=[salon.slug]),
        reverse("baccarat:chat", args=[salon.slug]) + "?part=log",
    ):
        html = browser(bob).get(url).content.decode()
        assert "<script>alert" not in html
        assert "<b onclick" not in html and "<img src=x>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    # The event carries the text as it was written; the page shows it with textContent.
    assert chat_events(salon)[0]["text"] == attack


def test_spectators_cannot_write(salon: Table) -> None:
    spectator = make_player("sam")
    response = send(browser(spectator), salon, "hello")
    assert "Take a seat to write in the chat; spectators read it." in response.content.decode()
    assert ChatMessage.objects.count() == 0 and chat_events(salon) == []


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "Write a message first."),
        ("    ", "Write a message first."),
        ("x" * 201, "A message has at most 200 characters."),
    ],
)
def test_empty_and_long_messages_are_refused(salon: Table, text: str, error: str) -> None:
    alice = seated(salon, "alice", 1)
    response = send(browser(alice), salon, text)
    assert error in response.content.decode()
    assert ChatMessage.objects.count() == 0 and chat_events(salon) == []


def test_the_rate_limit_refuses_with_a_translated_message(salon: Table, settings: Any) -> None:
    settings.CASINO_CHAT_RATE = 3
    settings.CASINO_CHAT_RATE_SECONDS = 60
    alice = seated(salon, "alice", 1)
    client = browser(alice, "de")
    for number in range(3):
        assert send(client, salon, f"message {number}").status_code == 200
    response = send(client, salon, "one too many")
    html = response.content.decode()
    assert "Sie schreiben zu schnell" in html
    assert 'value="one too many"' in html  # the text stays in the field
    assert ChatMessage.objects.count() == 3 and len(chat_events(salon)) == 3
    # Older messages no longer count.
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(seconds=61))
    assert send(client, salon, "later").status_code == 200
    assert ChatMessage.objects.count() == 4


def test_a_muted_player_sees_why_and_until_when_and_cannot_write(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    staff = make_player("staff")
    until = timezone.now() + timedelta(hours=1)
    chat.player_mute(player=alice, table=salon, until=until, reason="Insults", by=staff)
    client = browser(alice)

    page = client.get(reverse("baccarat:table", args=[salon.slug])).content.decode()
    assert "You may not write in this table&#x27;s chat until" in page
    assert "Reason: Insults" in page
    assert 'id="chat-form"' not in page
    response = send(client, salon, "let me speak")
    assert "Reason: Insults" in response.content.decode()
    assert ChatMessage.objects.count() == 0 and chat_events(salon) == []

    # A mute at one table is for that table; a mute everywhere is for every table.
    other = full_table("lounge")
    seats.seat_take(table=other, player=alice, number=1, buy_in=10_00, reference="lounge")
    assert send(client, other, "here I may").status_code == 200
    chat.player_mute(player=alice, table=None, until=until, reason="Spam", by=staff)
    response = send(client, other, "and now?")
    assert "You may not write in any chat until" in response.content.decode()
    assert ChatMessage.objects.filter(table=other).count() == 1
    # When the mute ends, the player writes again.
    ChatMute.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert send(client, salon, "back").status_code == 200
    assert ChatMessage.objects.filter(table=salon).count() == 1


def test_nothing_of_one_tables_chat_reaches_another(salon: Table) -> None:
    lounge = full_table("lounge")
    alice = seated(salon, "alice", 1)
    bob = seated(lounge, "bob", 1)
    send(browser(alice), salon, "salon only")
    send(browser(bob), lounge, "lounge only")

    lounge_page = browser(bob).get(reverse("baccarat:chat", args=[lounge.slug])).content.decode()
    assert "lounge only" in lounge_page and "salon only" not in lounge_page
    assert [e["text"] for e in chat_events(lounge)] == ["lounge only"]
    assert [e["text"] for e in chat_events(salon)] == ["salon only"]
    # Seated at the lounge, bob cannot write into the salon's chat either.
    response = send(browser(bob), salon, "sneaking in")
    assert "Take a seat to write" in response.content.decode()
    assert [e["text"] for e in chat_events(salon)] == ["salon only"]


def test_single_tables_have_no_chat(single_table: Table) -> None:
    alice = make_player("alice")
    client = browser(alice)
    assert client.get(reverse("baccarat:chat", args=[single_table.slug])).status_code == 404
    assert send(client, single_table, "hello").status_code == 404


def test_reports_go_to_support_once_per_player(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    bob = seated(salon, "bob", 2)
    send(browser(alice), salon, "rude words")
    message = ChatMessage.objects.get()
    url = reverse("baccarat:chat_report", args=[salon.slug, message.pk])

    response = browser(bob).post(url, {"reason": "insult"}, **HTMX)
    assert "Thank you: support will look at this message." in response.content.decode()
    response = browser(bob).post(url, {"reason": "again"}, **HTMX)
    assert "You have reported this message already." in response.content.decode()
    assert list(ChatReport.objects.values_list("reporter__username", "reason")) == [
        ("bob", "insult")
    ]
    # Not one's own message, not through another table, not a message that is not there.
    assert browser(alice).post(url, {}, **HTMX).status_code == 404
    lounge = full_table("lounge")
    other = reverse("baccarat:chat_report", args=[lounge.slug, message.pk])
    assert browser(bob).post(other, {}, **HTMX).status_code == 404
    huge = f"/tables/{salon.slug}/chat/{10**30}/report/"
    assert browser(bob).post(huge, {}, **HTMX).status_code == 404
    too_long = browser(make_player("carl")).post(url, {"reason": "x" * 201}, **HTMX)
    assert too_long.status_code == 400
    assert ChatReport.objects.count() == 1


def test_removed_messages_leave_every_page(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    send(browser(alice), salon, "to be removed")
    message = ChatMessage.objects.get()
    chat.message_remove(message=message)
    chat.message_remove(message=message)  # twice: one event
    assert [e["kind"] for e in chat_events(salon)] == ["chat", "chat_removed"]
    html = browser(alice).get(reverse("baccarat:chat", args=[salon.slug])).content.decode()
    assert "to be removed" not in html


def test_old_messages_are_purged(salon: Table, settings: Any) -> None:
    settings.CASINO_CHAT_RETENTION_DAYS = 30
    alice = seated(salon, "alice", 1)
    bob = make_player("bob")
    send(browser(alice), salon, "old")
    send(browser(alice), salon, "new")
    old = ChatMessage.objects.get(text="old")
    ChatReport.objects.create(message=old, reporter=bob)
    ChatMessage.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))

    chat.chat_purge()

    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["new"]
    assert ChatReport.objects.count() == 0


def test_the_chat_without_javascript_goes_back_to_the_table(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    client = browser(alice)
    url = reverse("baccarat:chat_send", args=[salon.slug])
    response = client.post(url, {"text": "plain form"})
    assert response.status_code == 302 and response["Location"].endswith("/tables/salon/")
    response = client.post(url, {"text": ""}, follow=True)
    assert "Write a message first." in response.content.decode()
    assert ChatMessage.objects.count() == 1
