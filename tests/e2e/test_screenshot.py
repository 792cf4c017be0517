"""The README's picture of the table after a round, taken by the browser.

``UPDATE_SCREENSHOTS=1`` writes it to docs/table-after-a-round.png; otherwise the test
takes it into a temporary folder and checks it is a small PNG of the felt.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from baccarat import engine
from baccarat.models import Shoe, Table
from wallet import services as wallet

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "docs" / "table-after-a-round.png"


@pytest.mark.django_db(transaction=True)
def test_screenshot_of_the_table_after_a_round(browser, live_server, signed_in, page, tmp_path):
    table = Table.objects.create(
        name="Golden Baccarat", slug="golden", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )
    player = signed_in("ines", language="de")
    player.reduced_motion = True
    player.save()
    wallet.wallet_rebuy(player=player, table=table, amount=250_00, reference="shot")
    # A shoe that deals a banker win with three cards each: a picture worth showing.
    order = [*engine.cards_from_codes("KH AS 2C 2D 3S 4D"), *engine.fresh_cards(8)[:300]]
    dealer = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
    Shoe.objects.create(
        table=table,
        player=player,
        number=1,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=0,
    )
    page.set_viewport_size({"width": 800, "height": 900})
    page.goto("/tables/golden/")
    page.locator("#chip-rack label.chip-2").click()
    page.locator(".spot-banker .spot-add").click()
    expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    page.locator(".spot-banker .spot-add").click()
    expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    page.locator("#btn-deal").click()
    expect(page.locator("#board.revealed .result-banner")).to_be_visible()
    expect(page.locator(".result-banner")).to_contain_text("Bank gewinnt")
    path = TARGET if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path / TARGET.name
    path.parent.mkdir(parents=True, exist_ok=True)
    # From the table's name to the chips: what a player looks at.
    top = page.locator(".game-table").bounding_box()
    bottom = page.locator("#table-controls").bounding_box()
    clip = {
        "x": top["x"],
        "y": top["y"],
        "width": top["width"],
        "height": bottom["y"] + bottom["height"] - top["y"],
    }
    shot = tmp_path / "shot.png"
    page.screenshot(path=str(shot), clip=clip)
    # A palette of 96 colours keeps the felt's gradient and the cards, in a small file.
    Image.open(shot).convert("RGB").quantize(colors=96, dither=Image.Dither.NONE).save(
        path, optimize=True
    )
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert 10_000 < len(data) < 150_000
