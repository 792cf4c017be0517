"""EXIT asks first only when chips are staked: the last round's bets lying on the layout
again (seed 002's repeat) are not; a chip the player laid out is."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.models import Round, Table
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def golden(db):
    return Table.objects.create(name="Golden Baccarat", slug="golden")


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def deal(page) -> None:
    page.locator("#btn-deal").click()
    expect(page.locator("#board[data-revealed]")).to_have_count(1, timeout=15_000)
    settled(page)


def test_exit_with_only_the_repeated_bet_leaves_without_a_question(
    page, golden, signed_in, money, ledger
):
    player = signed_in("ugo")
    wallet_rebuy(player=player, table=golden, amount=100_00, reference="ugo")
    page.goto("/tables/golden/")
    page.locator("#chip-rack label.chip-3").click()
    page.locator(".spot-player .spot-add").click()
    deal(page)
    # The bet lies on the layout again, as the last round's: nothing is staked.
    expect(page.locator(".spot-player .amount")).to_have_text(
        money(Round.objects.get().plays.get().stake_total)
    )
    page.locator("#btn-exit").click()
    expect(page.locator("h1")).to_have_text("Lobby")
    expect(page.locator(".exit-confirm")).to_have_count(0)
    assert ledger.stack(player, golden) == 0


def test_exit_with_a_chip_laid_out_asks_first(page, golden, signed_in, money, ledger):
    player = signed_in("vera")
    wallet_rebuy(player=player, table=golden, amount=100_00, reference="vera")
    page.goto("/tables/golden/")
    page.locator(".spot-banker .spot-add").click()
    deal(page)
    # A chip beside the repeated bet: the layout is the player's now.
    page.locator(".spot-tie .spot-add").click()
    stake = page.locator("#total-stake").inner_text()
    page.locator("#btn-exit").click()
    question = page.locator(".exit-confirm")
    expect(question).to_be_visible()
    expect(question).to_contain_text(f"You have {stake} on the layout.")
    settled(page)
    stack = ledger.stack(player, golden)
    assert stack > 0
    page.locator("#btn-exit-confirm").click()
    expect(page.locator("h1")).to_have_text("Lobby")
    expect(page.locator(".messages")).to_contain_text(money(stack))
    assert ledger.stack(player, golden) == 0
