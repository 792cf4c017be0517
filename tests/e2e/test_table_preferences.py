"""Sound is off unless the player turns it on, and never starts before a click or a key;
the time display (seed 003) shows time played and the local time, and can be turned off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from baccarat.models import Table

# Counts the audio contexts the page creates (the only way a page can make a sound).
COUNT_AUDIO = """
window.__audioContexts = 0;
const Real = window.AudioContext;
window.AudioContext = function (...args) { window.__audioContexts += 1; return new Real(...args); };
"""


@pytest.fixture
def golden(db):
    return Table.objects.create(name="Golden Baccarat", slug="golden")


@pytest.mark.django_db(transaction=True)
def test_no_sound_unless_chosen(page, golden, signed_in):
    signed_in("quiet")
    page.add_init_script(COUNT_AUDIO)
    page.goto("/tables/golden/")
    expect(page.locator("body")).to_have_attribute("data-sound", "off")
    # A chip is laid out in the page (this player has no chips yet: refused there, in words).
    page.locator(".spot-player .spot-add").click()
    page.keyboard.press("1")
    expect(page.locator("#board .form-errors[data-code=stack_short]")).to_be_visible()
    assert page.evaluate("window.__audioContexts") == 0


@pytest.mark.django_db(transaction=True)
def test_sound_waits_for_a_gesture_once_turned_on(page, golden, signed_in):
    player = signed_in("loud")
    page.add_init_script(COUNT_AUDIO)
    page.goto("/accounts/preferences/")
    page.locator("#id_sound_enabled").check()
    page.locator("main form button[type=submit]").click()
    player.refresh_from_db()
    assert player.sound_enabled
    page.goto("/tables/golden/")
    expect(page.locator("body")).to_have_attribute("data-sound", "on")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__audioContexts") == 0  # no autoplay
    page.locator("#chip-rack label.chip-2").click()
    assert page.evaluate("window.__audioContexts") == 1


@pytest.mark.django_db(transaction=True)
def test_the_time_display_can_be_turned_off(page, golden, signed_in):
    player = signed_in("clock")
    page.goto("/tables/golden/")
    elapsed = page.locator("[data-clocks] [data-elapsed]")
    expect(elapsed).to_have_text("00:00:00")
    expect(elapsed).to_have_text("00:00:01", timeout=3000)
    expect(page.locator("[data-clocks] [data-local]")).to_have_text(
        re.compile(r"^\d\d:\d\d( [AP]M)?$")  # by the page's language
    )
    player.show_clock = False
    player.save()
    page.reload()
    expect(page.locator("#table-heading")).to_be_visible()
    expect(page.locator("[data-clocks]")).to_have_count(0)


@pytest.mark.django_db(transaction=True)
def test_the_sound_button_turns_it_on_and_off_at_once_and_remembers(page, golden, signed_in):
    player = signed_in("switch")
    page.add_init_script(COUNT_AUDIO)
    page.goto("/tables/golden/")
    other = page.context.new_page()  # the player's second tab
    other.goto("/tables/golden/")
    button = page.locator(".table-buttons [data-sound-toggle]")
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_have_accessible_name("Sound")

    button.click()
    expect(page.locator("body")).to_have_attribute("data-sound", "on")
    expect(button).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__audioContexts") == 1  # the click may start the sound
    expect(page.locator(".sound-form.htmx-request")).to_have_count(0)
    player.refresh_from_db()
    assert player.sound_enabled
    # The other tab hears of it; a reload keeps it.
    expect(other.locator("body")).to_have_attribute("data-sound", "on")
    expect(other.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-sound", "on")

    page.locator(".table-buttons [data-sound-toggle]").click()
    expect(page.locator("body")).to_have_attribute("data-sound", "off")
    expect(page.locator(".sound-form.htmx-request")).to_have_count(0)
    player.refresh_from_db()
    assert not player.sound_enabled
    expect(other.locator("body")).to_have_attribute("data-sound", "off")
    # The other tab's button now turns it on again.
    other.locator("[data-sound-toggle]").click()
    expect(other.locator(".sound-form.htmx-request")).to_have_count(0)
    expect(page.locator("body")).to_have_attribute("data-sound", "on")
    player.refresh_from_db()
    assert player.sound_enabled


@pytest.mark.django_db(transaction=True)
def test_the_full_table_ticks_in_the_last_seconds(browser, asgi_server):
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from baccarat.full import seats
    from wallet.services import wallet_open_for_new_player

    table = Table.objects.create(
        name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD, betting_seconds=7, cycle_seconds=30,
    )  # fmt: skip
    player = get_user_model().objects.create_user(username="ears", sound_enabled=True)
    wallet_open_for_new_player(player=player)
    seats.seat_take(table=table, player=player, number=1, buy_in=50_00, reference="ears")
    client = Client()
    client.force_login(player)
    context = browser.new_context(base_url=asgi_server)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": asgi_server,
            }
        ]
    )
    page = context.new_page()
    page.goto("/tables/salon/")
    page.evaluate(
        """() => {
          const play = window.casinoSound.play;
          window.played = [];
          window.casinoSound.play = (name, delay) => {
            window.played.push(name);
            return play(name, delay);
          };
        }"""
    )
    page.locator(".cut-offer form.inline button").click()  # the croupier cuts
    expect(page.locator(".betting-timer[data-deadline]")).to_be_visible(timeout=15_000)
    # The time is up: the timer gives way to "no more bets".
    expect(page.locator(".betting-timer[data-deadline]")).to_have_count(0, timeout=15_000)
    ticks = page.evaluate("window.played.filter(name => name === 'tick').length")
    assert ticks >= 4, page.evaluate("window.played")  # 5 (or 4 if the page came late), 3, 2, 1
    context.close()
