"""A phone held upright (390 × 844): chips and DEAL within the thumb's reach without
scrolling, the result in view after the deal, and wide tables scrolling in their box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.models import Table
from baccarat.play import betting, rounds
from wallet import services as wallet

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="de-DE", viewport=PHONE, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def sign_in(phone, live_server, username: str, language: str = "de"):
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from wallet.services import wallet_open_for_new_player

    user = get_user_model().objects.create_user(username=username, language=language)
    wallet_open_for_new_player(player=user)
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return user


def inside(box, *, top: float = 0, bottom: float = PHONE["height"]) -> bool:
    return box is not None and box["y"] >= top and box["y"] + box["height"] <= bottom


@pytest.mark.django_db(transaction=True)
def test_chips_and_deal_in_reach_and_the_result_in_view(phone, live_server):
    table = Table.objects.create(name="Golden Baccarat", slug="golden")
    player = sign_in(phone, live_server, "mia")
    wallet.wallet_rebuy(player=player, table=table, amount=50_00, reference="phone")
    phone.goto("/tables/golden/")
    assert phone.evaluate("window.scrollY") == 0
    controls = phone.locator("#table-controls").bounding_box()
    # In the lower half of the screen, where the thumb is, and wholly in view.
    assert inside(phone.locator("#btn-deal").bounding_box(), top=PHONE["height"] / 2)
    for chip in phone.locator("#chip-rack label.chip").all():
        assert inside(chip.bounding_box(), top=PHONE["height"] / 2)
    # The spots are in view above the controls, so a chip can be placed without scrolling.
    for spot in ("player", "banker", "tie"):
        assert inside(phone.locator(f".spot-{spot}").bounding_box(), bottom=controls["y"])

    phone.locator("#chip-rack label.chip-2").tap()
    phone.locator(".spot-banker .spot-add").tap()
    expect(phone.locator("#total-stake")).to_have_text("5,00\u00a0€")
    phone.locator("#btn-deal").tap()
    expect(phone.locator("#board.revealed")).to_have_count(1, timeout=15_000)
    controls = phone.locator("#table-controls").bounding_box()
    banner = phone.locator(".result-banner").bounding_box()
    assert inside(banner, bottom=controls["y"]), (banner, controls)
    for card in phone.locator(".playing-card").all():
        assert inside(card.bounding_box(), bottom=controls["y"])
    # Nothing wider than the phone: no sideways scrolling of the page.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_the_protocol_table_scrolls_inside_its_own_box(phone, live_server):
    table = Table.objects.create(name="Golden Baccarat", slug="golden")
    player = sign_in(phone, live_server, "noah")
    wallet.wallet_rebuy(player=player, table=table, amount=50_00, reference="phone")
    for _ in range(3):
        round = betting.round_open(table=table, player=player)
        betting.bet_place(round=round, player=player, kind="player", amount=100)
        rounds.round_play(round_id=round.pk)
    phone.goto("/protocol/")
    box = phone.locator("#results .table-scroll")
    expect(box.locator("tbody tr")).to_have_count(3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # the table scrolls in it
    before = box.evaluate("el => el.scrollLeft")
    box.evaluate("el => el.scrollBy(200, 0)")
    assert box.evaluate("el => el.scrollLeft") > before
