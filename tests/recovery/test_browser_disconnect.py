"""The player closes the browser right after DEAL: the round is still in the protocol."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.models import Round, Table
from tests.conftest import PASSWORD
from tests.recovery.conftest import wait_for

pytestmark = [pytest.mark.recovery, pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    expect(page.locator("h1")).to_have_text("Lobby")


def test_closing_the_browser_after_deal_keeps_the_round(browser, live_server, make_player):
    player = make_player("dora", language="en")
    table = Table.objects.create(name="Golden Baccarat", slug="golden")

    context = browser.new_context(base_url=live_server.url, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        sign_in(page, player.username)
        page.goto(f"/tables/{table.slug}/")
        buy_in = page.locator("#buy-in")
        expect(buy_in).to_have_attribute("open", "")  # a first visit: the buy-in panel
        buy_in.locator("#id_amount").fill("20")
        with page.expect_response("**/rebuy/"):
            buy_in.locator(".buy-in-amount button[type=submit]").click()
        # The chip is laid out in the page; nothing is on the server before DEAL.
        page.click("button.spot-add[value=banker]")
        expect(page.locator("#total-stake")).to_have_text("€1.00")
        assert not Round.objects.filter(table=table).exists()
        with page.expect_request("**/deal/"):
            page.click("#btn-deal")
    finally:
        context.close()  # at once: the DEAL response is never read

    round = wait_for(
        lambda: Round.objects.filter(
            table=table, plays__player=player, state=Round.State.SETTLED
        ).first(),
        timeout=30,
        what="the round to be settled",
    )
    assert round.completion == Round.Completion.PLAYED
    assert round.plays.get().bets.get().stake == 100

    context = browser.new_context(base_url=live_server.url, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        sign_in(page, player.username)
        page.goto("/protocol/")
        link = page.locator(f"a[href='/protocol/{round.pk}/']")
        expect(link.first).to_be_visible()
        link.first.click()
        # The round's page shows the player's cards (each once, as a card).
        cards = page.locator(f"td[data-codes='{round.player_cards}'] .card-text")
        expect(cards).to_have_count(len(round.player_cards.split()))
        # The table shows that round's result the next time the player opens it.
        page.goto(f"/tables/{table.slug}/")
        expect(page.locator(".result-banner")).to_be_visible()
        expect(page.locator(".result-banner a")).to_have_attribute("href", f"/protocol/{round.pk}/")
    finally:
        context.close()
