"""The felt as a player sees it: the betting areas are bands on the cloth whose buttons a
tap reaches where they show, a stake is a stack of the table's chips (the same whether the
page or the server drew it), and hands and spots fit the screen at a laptop's and a
phone's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat import engine
from baccarat.models import Shoe, Table
from tests.e2e.browsers import new_player, signed_in_page
from wallet import services as wallet

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
# Hands and spots together, at most (issue 38): the page around them fits one screen.
HEIGHT = {"desktop": 430, "phone": 400}


def a_player_at_golden(browser, base: str, size: str, *, pairs: bool = False):
    user = new_player(f"vera-{size}", "de")
    user.reduced_motion = True
    user.save()
    table = Table.objects.create(
        name="Golden Baccarat",
        slug="golden",
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        pairs_enabled=pairs,
        allow_player_and_banker=True,
    )
    wallet.wallet_rebuy(player=user, table=table, amount=250_00, reference="felt")
    order = [*engine.cards_from_codes("KH AS 2C 2D 3S 4D"), *engine.fresh_cards(8)[:300]]
    dealer = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
    Shoe.objects.create(
        table=table,
        player=user,
        number=1,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=0,
    )
    page = signed_in_page(browser, base, user, timeout=10_000, **SIZES[size])
    page.goto("/tables/golden/")
    return page


def stack_of(page, kind: str) -> list[str]:
    return page.eval_on_selector_all(
        f".spot-{kind} .spot-stake > .chip-stack .stack-chip",
        "chips => chips.map(c => c.className)",
    )


def buttons_reached_at_their_centre(page) -> list[str]:
    """The spots whose button is not what a tap at its centre lands on."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.spot .spot-add')).filter(button => {
            const box = button.getBoundingClientRect();
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return !(hit && button.contains(hit));
        }).map(button => button.value)"""
    )


@pytest.mark.parametrize("pairs", [False, True])
@pytest.mark.parametrize("size", SIZES)
def test_the_bands_take_chips_drawn_as_stacks_and_fit_the_screen(browser, live_server, size, pairs):
    page = a_player_at_golden(browser, live_server.url, size, pairs=pairs)
    assert buttons_reached_at_their_centre(page) == []
    # 25 + 5 + 5 + 1 on Banker, laid out by the page: a stack of those chips, largest first.
    for chip, times in (("chip-3", 1), ("chip-2", 2), ("chip-1", 1)):
        page.locator(f"#chip-rack label.{chip}").click()
        for _ in range(times):
            page.locator(".spot-banker .spot-add").click()
    expect(page.locator(".spot-banker .amount")).to_have_text("36,00\u00a0€")
    drawn_here = ["stack-chip sc-3", "stack-chip sc-2", "stack-chip sc-2", "stack-chip sc-1"]
    assert stack_of(page, "banker") == drawn_here
    if pairs:
        page.locator(".spot-player_pair .spot-add").click()
        expect(page.locator(".spot-player_pair .amount")).to_be_visible()
    # Dealt: the server draws the same bet again, repeated, with the same chips.
    page.locator("#btn-deal").click()
    expect(
        page.locator("#board[data-revealed] .result-banner, #board.revealed .result-banner")
    ).to_be_visible()
    expect(page.locator(".spot-banker .repeated")).to_be_visible()
    assert stack_of(page, "banker") == drawn_here
    assert buttons_reached_at_their_centre(page) == []
    hands = page.locator(".hands").bounding_box()
    spots = page.locator(".spots").bounding_box()
    if not pairs:
        assert spots["y"] + spots["height"] - hands["y"] <= HEIGHT[size]
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["viewport"]["width"]
