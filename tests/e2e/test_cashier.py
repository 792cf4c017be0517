"""Deposits at the cashier in every language: HTMX updates the balance, the ledger agrees."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from wallet.models import Transaction

LANGUAGES = ("en", "de", "it", "nl")


@pytest.mark.django_db(transaction=True)
def test_deposits_in_each_language_and_a_double_click_deposits_once(page, signed_in, money, ledger):
    player = signed_in("carla")
    page.goto("/cashier/")
    balance = page.get_by_test_id("wallet-balance")
    expected = ledger.wallet(player)
    expect(balance).to_have_text(money(expected, "en"))

    def deposits() -> int:
        return Transaction.objects.filter(player=player, kind=Transaction.Kind.DEPOSIT).count()

    for number, language in enumerate(LANGUAGES, start=1):
        if language != "en":
            page.select_option("#language-select", language)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(balance).to_have_text(money(expected, language))
        page.evaluate("window.__marker = 1")

        units = 10 * number + 5
        page.fill("#cashier #id_amount", str(units))
        page.locator("#cashier form[action$='/deposit/'] button.primary").click()
        expected += units * 100

        expect(page.locator("#cashier .message.success")).to_be_visible()
        expect(balance).to_have_text(money(expected, language))
        assert ledger.wallet(player) == expected
        assert deposits() == number
        # Swapped in place by HTMX, not a page load.
        assert page.evaluate("window.__marker") == 1

    # A preset button, still in Dutch.
    page.locator("#cashier button[name=preset][value='100']").click()
    expected += 100 * 100
    expect(balance).to_have_text(money(expected, "nl"))
    assert ledger.wallet(player) == expected
    assert deposits() == len(LANGUAGES) + 1

    # A double click on the deposit button deposits once.
    page.fill("#cashier #id_amount", "7")
    page.locator("#cashier form[action$='/deposit/'] button.primary").dblclick()
    expected += 7 * 100
    expect(balance).to_have_text(money(expected, "nl"))
    page.wait_for_load_state("networkidle")
    expect(balance).to_have_text(money(expected, "nl"))
    assert deposits() == len(LANGUAGES) + 2
    assert ledger.wallet(player) == expected
    assert page.evaluate("window.__marker") == 1
