"""A new player signs up in German, switches to Italian, logs out and in again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_signup_in_german_then_italian_survives_login(page):
    Table.objects.create(name="Golden Baccarat", slug="golden")
    page.goto("/accounts/signup/")
    page.fill("#id_username", "greta")
    page.select_option("#id_language", "de")
    page.fill("#id_password1", "Zimt-Stern-4711")
    page.fill("#id_password2", "Zimt-Stern-4711")
    page.click("button[type=submit].primary")

    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("h1")).to_have_text("Lobby")
    expect(page.locator("nav")).to_contain_text("Abmelden")
    expect(page.locator(".table-card")).to_contain_text("Spieler")

    page.wait_for_load_state("load")  # site.js (deferred) listens to the switcher by then
    page.select_option("#language-select", "it")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("nav")).to_contain_text("Esci")

    page.get_by_role("button", name="Esci").click()
    page.goto("/accounts/login/")
    page.fill("#id_username", "greta")
    page.fill("#id_password", "Zimt-Stern-4711")
    page.click("button[type=submit].primary")

    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator(".table-card")).to_contain_text("Giocatore")
