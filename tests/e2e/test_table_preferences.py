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
