"""What a chat message may hold: text that can be seen (a message of only invisible
characters is refused with a clear message and stores nothing), never a bidirectional
control (stripped before it is stored, so "exe.txt" cannot read "txt.exe"), and the
author and the text each drawn isolated from what stands around them (``<bdi>``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from baccarat.full import chat
from baccarat.models import ChatMessage, Table, TableEvent
from tests.baccarat.full.test_chat import browser, chat_events, full_table, seated, send

pytestmark = pytest.mark.django_db

INVISIBLE = "This message would show nothing. Please write letters, numbers or signs."
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


@pytest.fixture
def salon() -> Table:
    return full_table("salon")


@pytest.mark.parametrize(
    "text",
    [
        "\u200b",  # zero width space
        "\u200b\u200c\u200d\u2060\ufeff",  # zero-width (non-)joiners, word joiner, BOM
        " \u200b \u2060 ",
        "\u0301\u0308",  # combining marks with nothing to sit on
        "\u00ad\u180e\U000e0041",  # soft hyphen, Mongolian vowel separator, a tag
        "\u3164\u115f\uffa0",  # Hangul fillers: letters that draw nothing
        "\u2800\u2800",  # the blank braille pattern
        "\ufe0f\u034f",  # a variation selector, the combining grapheme joiner
        "\u200b\u202e\u200b",  # with a bidirectional control, stripped first
    ],
)
def test_a_message_that_shows_nothing_is_refused_and_nothing_is_stored(
    salon: Table, text: str
) -> None:
    alice = seated(salon, "alice", 1)
    events_before = TableEvent.objects.count()

    response = send(browser(alice), salon, text)

    assert response.status_code == 200
    assert INVISIBLE in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()
    assert ChatMessage.objects.count() == 0
    assert TableEvent.objects.count() == events_before and chat_events(salon) == []


def test_without_javascript_the_table_page_says_why(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    url = reverse("baccarat:chat_send", args=[salon.slug])
    response = browser(alice).post(url, {"text": "\u200b\u200d"}, follow=True)
    assert INVISIBLE in response.content.decode()
    assert ChatMessage.objects.count() == 0


def test_only_bidirectional_controls_and_spaces_is_an_empty_message(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    response = send(browser(alice), salon, f" {BIDI} ")
    assert "Write a message first." in response.content.decode()
    assert ChatMessage.objects.count() == 0 and chat_events(salon) == []


def test_bidirectional_controls_never_reach_the_database_or_a_page(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    bob = seated(salon, "bob", 2)
    # "my\u202etxt.exe" shows as "myexe.txt": a program dressed as a text file.
    written = "open my\u202etxt.exe \u2067and\u200f this\u061c\u200e\u202a\u202c"

    assert send(browser(alice), salon, written).status_code == 200

    message = ChatMessage.objects.get()
    assert message.text == "open mytxt.exe and this"
    assert chat_events(salon)[0]["text"] == "open mytxt.exe and this"
    for url in (
        reverse("baccarat:table", args=[salon.slug]),
        reverse("baccarat:chat", args=[salon.slug]) + "?part=log",
    ):
        html = browser(bob).get(url).content.decode()
        assert "open mytxt.exe and this" in html
        assert not set(BIDI) & set(html)


def test_the_author_and_the_text_are_drawn_isolated(salon: Table) -> None:
    alice = seated(salon, "alice", 1)
    send(browser(alice), salon, "\u0645\u0631\u062d\u0628\u0627 exe.txt")  # Arabic, then Latin
    html = browser(alice).get(reverse("baccarat:chat", args=[salon.slug])).content.decode()
    assert '<strong class="chat-author"><bdi>alice</bdi></strong>' in html
    assert '<bdi class="chat-text">\u0645\u0631\u062d\u0628\u0627 exe.txt</bdi>' in html


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        (
            "\U0001f468\u200d\U0001f469\u200d\U0001f467 hi",
            "\U0001f468\u200d\U0001f469\u200d\U0001f467 hi",
        ),
        ("\u2764\ufe0f", "\u2764\ufe0f"),  # a symbol with its variation selector
        ("e\u0301t\u00e9", "e\u0301t\u00e9"),  # a combining mark on a letter
        ("\u0645\u0631\u062d\u0628\u0627", "\u0645\u0631\u062d\u0628\u0627"),  # Arabic
        ("a\tb\nc\x00d\x07", "a b cd"),  # control characters: a space or nothing
        ("!", "!"),
    ],
)
def test_visible_text_is_kept_as_written(written: str, stored: str) -> None:
    assert chat.chat_text_clean(written) == stored
    assert chat.text_is_visible(stored)
