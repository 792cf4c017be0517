"""The README's pictures of the table after a round, taken by the browser: one on a desktop
screen, one on a phone held upright.

``UPDATE_SCREENSHOTS=1`` writes them to docs/table-after-a-round.png and
docs/table-on-a-phone.png; otherwise each test takes its picture into a temporary folder
and checks it is a small PNG of the felt.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import expect

from baccarat import engine
from baccarat.models import Shoe, Table
from wallet import services as wallet

ROOT = Path(__file__).resolve().parents[2]
DESKTOP_TARGET = ROOT / "docs" / "table-after-a-round.png"
PHONE_TARGET = ROOT / "docs" / "table-on-a-phone.png"

# Playwright's "iPhone 12" (scale, touch, its user agent), upright on the whole screen
# (the descriptor's viewport leaves out Safari's bars), in the system Chromium.
PHONE = {"width": 390, "height": 844}
IPHONE_12 = {
    "viewport": PHONE,
    "screen": PHONE,
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 14_4 like Mac OS X) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/14.0.3 Mobile/15E148 Safari/604.1"
    ),
}


def a_table_dealing_a_banker_win(player) -> Table:
    """Golden Baccarat with the player's 250 € stack and a shoe whose first coup is a
    banker win with three cards each: a picture worth showing."""
    table = Table.objects.create(
        name="Golden Baccarat", slug="golden", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )
    player.reduced_motion = True
    player.save()
    wallet.wallet_rebuy(player=player, table=table, amount=250_00, reference="shot")
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
    return table


def bet_twice_on_banker_and_deal(page, *, tap: bool = False) -> None:
    """The 5 € chip on Banker twice, then DEAL, with the mouse or (``tap``) a finger."""
    for selector in ("#chip-rack label.chip-2", ".spot-banker .spot-add", ".spot-banker .spot-add"):
        press(page.locator(selector), tap=tap)
        expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    expect(page.locator("#total-stake")).not_to_have_text(re.compile(r"(^|\D)0[,.]00"))
    press(page.locator("#btn-deal"), tap=tap)
    expect(page.locator("#board.revealed .result-banner")).to_be_visible()


def press(locator, *, tap: bool) -> None:
    if tap:
        locator.tap()
    else:
        locator.click()


def save_small(shot: Path, target: Path, tmp_path: Path) -> Path:
    """A palette of 128 colours keeps the felt's gradient and the cards, in a small file
    (an octree keeps the colour of a small area such as the purple 500 chip, which Pillow's
    default median cut maps to a grey); written to ``target`` with UPDATE_SCREENSHOTS=1,
    else beside the shot."""
    path = target if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path / target.name
    path.parent.mkdir(parents=True, exist_ok=True)
    palette = (
        Image.open(shot)
        .convert("RGB")
        .quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    )
    palette.save(path, optimize=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return path


@pytest.mark.django_db(transaction=True)
def test_screenshot_of_the_table_after_a_round(browser, live_server, signed_in, page, tmp_path):
    a_table_dealing_a_banker_win(signed_in("ines", language="de"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/tables/golden/")
    bet_twice_on_banker_and_deal(page)
    expect(page.locator(".result-banner")).to_contain_text("Bank gewinnt")
    # The whole screen of a laptop: the round, the statistics and the chips in one view.
    shot = tmp_path / "shot.png"
    page.screenshot(path=str(shot))
    path = save_small(shot, DESKTOP_TARGET, tmp_path)
    assert 10_000 < path.stat().st_size < 250_000


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="nl-NL", **IPHONE_12)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def sign_in(page, live_server, username: str, language: str):
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from wallet.services import wallet_open_for_new_player

    user = get_user_model().objects.create_user(username=username, language=language)
    wallet_open_for_new_player(player=user)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return user


def in_view(box) -> bool:
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= PHONE["width"]
        and box["y"] + box["height"] <= PHONE["height"]
    )


@pytest.mark.django_db(transaction=True)
def test_screenshot_of_the_table_on_a_phone(phone, live_server, tmp_path):
    a_table_dealing_a_banker_win(sign_in(phone, live_server, "daan", language="nl"))
    phone.goto("/tables/golden/")
    assert phone.evaluate("navigator.maxTouchPoints") > 0
    assert phone.evaluate("window.devicePixelRatio") == 3
    bet_twice_on_banker_and_deal(phone, tap=True)
    banner = phone.locator(".result-banner")
    expect(banner).to_contain_text("Banker wint")
    # The whole result on the screen as it is, above the chips and DEAL, and every card.
    controls = phone.locator("#table-controls").bounding_box()
    assert in_view(banner.bounding_box()), banner.bounding_box()
    assert banner.bounding_box()["y"] + banner.bounding_box()["height"] <= controls["y"]
    assert in_view(controls), controls
    cards = phone.locator(".playing-card")
    expect(cards).to_have_count(6)
    for card in cards.all():
        assert in_view(card.bounding_box()), card.bounding_box()
    # Nothing wider than the phone: no sideways scrolling of the page.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot = tmp_path / "shot.png"
    phone.screenshot(path=str(shot))
    raw = Image.open(shot)
    assert raw.size == (PHONE["width"] * 3, PHONE["height"] * 3)
    # Half the device's pixels in each direction keeps the file small.
    raw.resize((PHONE["width"] * 3 // 2, PHONE["height"] * 3 // 2), Image.LANCZOS).save(shot)
    path = save_small(shot, PHONE_TARGET, tmp_path)
    assert 10_000 < path.stat().st_size < 250_000
