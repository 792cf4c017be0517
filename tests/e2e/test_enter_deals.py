"""Enter deals (seed 000: "Eingabetaste: Geben"), wherever the focus is: after a click on
Rules, a look at Protocols, the Version dialog opened and closed; a control the player
reached with the keyboard does what it says."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.full import seats
from baccarat.models import Play, Round, Table
from tests.e2e import browsers
from tests.e2e.browsers import new_player
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in_page(browser, base_url: str, name: str):
    user = new_player(name)
    page = browsers.signed_in_page(
        browser, base_url, user, locale="en-US", viewport={"width": 1280, "height": 800}
    )
    return user, page


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def enter_deals(page, table: Table) -> None:
    """Enter, and a round is dealt and revealed."""
    dealt = Round.objects.filter(table=table).count()
    with page.expect_response(lambda answer: answer.url.endswith("/deal/")):
        page.keyboard.press("Enter")
    expect(page.locator("#board[data-revealed]")).to_have_count(1, timeout=15_000)
    settled(page)
    assert Round.objects.filter(table=table, state=Round.State.SETTLED).count() == dealt + 1


def test_enter_deals_after_rules_protocols_and_version_at_a_single_seat(browser, live_server):
    golden = Table.objects.create(name="Golden Baccarat", slug="golden")
    user, page = signed_in_page(browser, live_server.url, "enzo")
    wallet_rebuy(player=user, table=golden, amount=100_00, reference="enzo")
    page.goto("/tables/golden/")
    page.locator(".spot-player .spot-add").click()
    buttons = page.locator(".table-buttons")

    # Rules: the link keeps the focus, and its rules come in; Enter deals all the same.
    rules = buttons.get_by_role("link", name="Rules")
    rules.click()
    expect(page.locator("#table-rules")).not_to_be_empty()
    settled(page)
    expect(rules).to_be_focused()
    enter_deals(page, golden)
    expect(page.locator("#table-rules")).not_to_be_empty()

    # A look at Protocols (the pointer over it), then Enter.
    buttons.get_by_role("link", name="Protocols").hover()
    enter_deals(page, golden)
    assert page.url.endswith("/tables/golden/")

    # Version, opened and closed: the focus is back on its button; Enter deals.
    version = buttons.get_by_role("button", name="Version")
    version.click()
    dialog = page.locator("#version-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(version).to_be_focused()
    enter_deals(page, golden)
    expect(dialog).to_be_hidden()

    # Reached with the keyboard (Tab from Rules), Protocols does what it says.
    rules.click()
    settled(page)
    page.keyboard.press("Tab")
    expect(buttons.get_by_role("link", name="Protocols")).to_be_focused()
    dealt = Round.objects.filter(table=golden).count()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/protocol/?table={golden.pk}")
    assert Round.objects.filter(table=golden).count() == dealt
    page.context.close()


def test_enter_is_deal_at_a_full_table_after_a_click_on_rules(browser, asgi_server):
    salon = Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        betting_seconds=30,
        cycle_seconds=3,
    )
    user, page = signed_in_page(browser, asgi_server, "fiona")
    seats.seat_take(table=salon, player=user, number=3, buy_in=100_00, reference="fiona")
    # The croupier's new shoe waits for the cut of the only seat: the croupier cuts instead.
    page.goto("/tables/salon/")
    cut = page.locator(".cut-offer form.inline button")
    spot = page.locator("#board[data-phase='betting'] #bet-form .spot-banker .spot-add")
    expect(cut.or_(spot)).to_be_visible(timeout=20_000)
    if cut.is_visible():
        cut.click()
    spot.click()
    settled(page)
    rules = page.locator(".table-buttons").get_by_role("link", name="Rules")
    rules.click()
    expect(page.locator("#table-rules")).not_to_be_empty()
    settled(page)
    expect(rules).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".seat.mine.decided-deal, #board[data-dealing]").first).to_be_visible()
    play = Play.objects.get(player=user)
    assert play.decision == Play.Decision.DEAL and play.stake_total > 0
    page.context.close()
