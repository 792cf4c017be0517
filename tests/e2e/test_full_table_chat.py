"""The chat of a full table in three browsers: a message appears in the log and beside
its writer's seat, as text; another player reports it; support mutes the writer from the
queue; the message leaves every browser and the writer reads why and until when; support
lifts the mute and the writer's open page may write again."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.test import Client
from playwright.sync_api import expect

from baccarat.full import seats
from baccarat.models import ChatMessage, ChatMute, ChatReport, Table
from casino.accounts.models import User
from casino.support.models import StaffAction
from tests.e2e.test_full_table import player_page, settled

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def contexts():
    opened = []
    yield opened
    for context in opened:
        context.close()


def support_page(browser, base: str):
    user = User.objects.create_user(username="sam", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="Support")[0])
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return user, page


def test_write_report_and_mute_across_browsers(browser, asgi_server, contexts):
    salon = Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        betting_seconds=30,
    )
    alice, a = player_page(browser, asgi_server, "alice", "de")
    bob, b = player_page(browser, asgi_server, "bob", "nl")
    contexts.extend([a.context, b.context])
    for player, number in ((alice, 1), (bob, 2)):
        seats.seat_take(
            table=salon, player=player, number=number, buy_in=50_00, reference=f"sit-{number}"
        )
    for page in (a, b):
        page.reload()
        expect(page.locator("#chat")).to_be_hidden()  # closed until the player opens it
        page.locator(".chat-toggle").click()
        expect(page.locator("#chat-form")).to_be_visible()

    # Alice writes (Enter sends); the text arrives as text, in the log and at her seat.
    attack = "<b>hallo</b><img src=x onerror=window.pwned=1>"
    a.fill("#chat-text", attack)
    a.press("#chat-text", "Enter")
    settled(a)
    expect(a.locator("#chat-text")).to_have_value("")
    expect(a.locator("#chat-text")).to_be_focused()
    message = ChatMessage.objects.get()
    for page in (a, b):
        expect(page.locator(f"#chat-message-{message.pk} .chat-text")).to_have_text(attack)
    expect(b.locator(".seat[data-seat='1'] .chat-bubble")).to_have_text(attack)
    assert b.locator("#chat-log b, .seat img").count() == 0
    assert b.evaluate("window.pwned") is None and a.evaluate("window.pwned") is None

    # Bob reports it.
    b.locator(f"#chat-message-{message.pk} .chat-report summary").click()
    b.fill(f"#chat-report-{message.pk}", "onbeschoft")
    b.locator(f"#chat-message-{message.pk} .chat-report button").click()
    expect(b.locator("#chat-body .message")).to_contain_text("Bedankt")
    assert ChatReport.objects.get().reason == "onbeschoft"

    # Support finds it in the queue and mutes alice at this table for an hour.
    staff, s = support_page(browser, asgi_server)
    contexts.append(s.context)
    s.goto("/support/chat/")
    s.get_by_role("link", name="Decide").click()
    expect(s.locator(".chat-context mark")).to_have_text(attack)
    s.get_by_label("Remove the message and mute its writer").check()
    s.get_by_label("At this table").check()
    s.get_by_label("Mute for").select_option("60")
    s.get_by_label("Reason").fill("Bitte freundlich bleiben")
    s.get_by_role("button", name="Record the decision").click()
    expect(s.locator(".messages, .message").first).to_contain_text("Done")
    expect(s.get_by_text("No report is waiting.")).to_be_visible()

    # The message leaves both browsers; alice reads why and until when, and cannot write.
    for page in (a, b):
        expect(page.locator(f"#chat-message-{message.pk}")).to_have_count(0)
    expect(a.locator(".chat-muted")).to_contain_text("Bitte freundlich bleiben")
    expect(a.locator(".chat-muted")).to_contain_text("bis")
    expect(a.locator("#chat-form")).to_have_count(0)
    mute = ChatMute.objects.get()
    assert (mute.player, mute.table, mute.muted_by) == (alice, salon, staff)
    assert StaffAction.objects.get().kind == StaffAction.Kind.PLAYER_MUTED

    # Support lifts the mute early: alice's open page may write again, without a reload.
    s.goto(f"/support/chat/{message.pk}/")
    s.get_by_label("Why lift it").fill("Apologised by mail")
    s.get_by_role("button", name="Lift the mute").click()
    expect(s.locator(".messages, .message").first).to_contain_text("The mute is lifted")
    expect(a.locator("#chat-form")).to_be_visible()
    expect(a.locator(".chat-muted")).to_have_count(0)

    # The window closes with its x and opens with Chat; the page remembers.
    b.get_by_role("button", name="Chat sluiten").click()
    expect(b.locator("#chat")).to_be_hidden()
    b.reload()
    expect(b.locator("#chat")).to_be_hidden()
    b.locator(".chat-toggle").click()
    expect(b.locator("#chat")).to_be_visible()
    expect(b.locator("#chat-text")).to_be_focused()
