"""A practice session of ten hands, played in the browser; the wallet is never touched."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from baccarat.models import PracticeSession
from wallet.formatting import format_money


def cell(page, row: int):
    return page.locator(".card table.data tbody tr").nth(row).locator("td")


@pytest.mark.django_db(transaction=True)
def test_practice_session_of_ten_hands(page, signed_in, money, ledger):
    player = signed_in("petra")
    player.reduced_motion = True  # the result at once: this test is about the session
    player.save()
    wallet_before = ledger.wallet(player)

    page.goto("/")
    page.locator(".practice-entry a[href='/practice/']").click()
    expect(page.locator("#practice-heading")).to_have_text("Practice session")
    page.select_option("#id_decks", "6")
    page.select_option("#id_starting_chips", "1000")
    page.select_option("#id_hands", "10")
    page.locator("main form button.primary").click()

    expect(page.locator(".status-bar")).to_contain_text("0 / 10")
    stack = page.locator("#stack")
    expect(stack).to_have_text(money(1000 * 100), use_inner_text=True)
    session = PracticeSession.objects.get(player=player)
    assert session.table.decks == 6
    busy = page.locator(".htmx-request, .htmx-swapping, .htmx-settling")
    # The panel after the coup (the one from before it stays hidden in the page).
    beads = page.locator(
        "#shoe-stats .road-bead:not(.before .road-bead) circle.bead:not(.ask-preview *)"
    )

    for hand in range(1, 11):
        spot = ("player", "banker", "tie", "player", "banker")[hand % 5]
        if hand % 3 != 2:  # otherwise DEAL plays the bet left on the layout again
            page.locator("#btn-clear").click()
            expect(busy).to_have_count(0)
            page.locator("#chip-rack label.chip-1").click()
            page.locator(f"#board .spot-{spot} .spot-add").click()
        expect(page.locator("#total-stake")).to_have_text(money(100))
        expect(busy).to_have_count(0)
        page.locator("#btn-deal").click()
        expect(page.locator(".status-bar")).to_contain_text(f"{hand} / 10")
        expect(page.locator("#board.revealed .result-banner")).to_be_visible(timeout=15_000)
        expect(beads).to_have_count(hand)
        expect(busy).to_have_count(0)

    # The table of every coup, with its cards, comes when it is opened.
    coups = page.locator("#shoe-stats details.coups:not(.before details.coups)")
    expect(coups.locator("tbody tr")).to_have_count(0)
    coups.locator("summary").click()
    expect(coups.locator("tbody tr")).to_have_count(10)
    expect(coups.locator("tbody tr").first.locator("td.num")).to_have_text("1")

    # The session is over after ten hands; no more betting.
    expect(page.locator("#btn-deal")).to_have_count(0)
    page.locator("#board a[href^='/practice/']").click()
    expect(page.locator("#summary-heading")).to_have_text("Practice summary")

    session.refresh_from_db()
    assert not session.is_active
    expect(cell(page, 0)).to_have_text("10 / 10")
    won, lost, pushed = (int(cell(page, row).inner_text()) for row in (1, 2, 3))
    assert won + lost + pushed == 10
    assert (won, lost, pushed) == (session.hands_won, session.hands_lost, session.hands_pushed)

    starting, final = session.starting_chips, session.final_chips
    assert starting == 1000 * 100
    with translation.override("en"):
        net_text = format_money(final - starting, sign=True)
    expect(cell(page, 4)).to_have_text(net_text)
    expect(cell(page, 6)).to_have_text(money(starting))
    expect(cell(page, 7)).to_have_text(money(final))
    assert session.net == final - starting

    # The numbers on the page agree with each other too.
    def amount(text: str) -> int:
        return int(re.sub(r"[^0-9]", "", text)) * (-1 if text.startswith("−") else 1)

    assert amount(cell(page, 4).inner_text()) == amount(cell(page, 7).inner_text()) - amount(
        cell(page, 6).inner_text()
    )

    # The wallet was never touched.
    assert ledger.wallet(player) == wallet_before
    page.goto("/cashier/")
    expect(page.get_by_test_id("wallet-balance")).to_have_text(money(wallet_before))
