"""Responsible play as a player meets it in the browser: a break taken in one tab stops
the next DEAL in another at once; the reality check comes over the table after the round,
translated and reachable by keyboard, and DEAL waits for its answer; on a phone too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from baccarat.models import Round, Table
from wallet.models import Transaction
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db(transaction=True)

GALLERY = settings.VAR_DIR / "screenshots"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def golden(db):
    return Table.objects.create(name="Golden Baccarat", slug="golden")


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def test_a_break_taken_in_one_tab_stops_the_next_deal_in_the_other(page, golden, signed_in, ledger):
    player = signed_in("tessa")
    wallet_rebuy(player=player, table=golden, amount=100_00, reference="tessa")
    table = page
    table.goto("/tables/golden/")
    table.locator("#chip-rack label.chip-3").click()
    table.locator(".spot-banker .spot-add").click()
    settled(table)
    preferences = page.context.new_page()  # a second tab, the same session
    preferences.goto("/accounts/responsible-play/")
    preferences.select_option("#id_break-length", "1")
    preferences.check("#id_break-confirm")
    preferences.locator("form[action$='/break/'] button[type=submit]").click()
    expect(preferences.locator(".play-break")).to_be_visible()
    # The table's tab knows nothing yet: its next DEAL is refused, nothing moves.
    table.locator("#btn-deal").click()
    expect(table.locator("#board .form-errors")).to_contain_text("break from play")
    assert Round.objects.count() == 0
    assert ledger.stack(player, golden) == 100_00
    # Leaving still works: nothing traps the player's chips.
    table.locator("#btn-exit").click()
    table.locator("#btn-exit-confirm").click()
    expect(table.locator(".play-break")).to_be_visible()
    assert ledger.stack(player, golden) == 0


def _played_for(player, minutes: int) -> None:
    now = timezone.now()
    for minute in range(0, minutes + 1, 2):
        Transaction.objects.create(
            kind=Transaction.Kind.STAKE, reference=f"e{minute}", player=player
        )
        Transaction.objects.filter(reference=f"e{minute}").update(
            created_at=now - timedelta(minutes=minutes - minute)
        )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_reality_check_comes_over_the_table_and_deal_waits_for_it(
    page, golden, signed_in, ledger, size
):
    if size == "phone":
        page.set_viewport_size(PHONE)
    player = signed_in(f"rita-{size}", language="de")
    wallet_rebuy(player=player, table=golden, amount=100_00, reference=f"rita-{size}")
    player.reality_check_minutes = 15
    player.reality_checked_at = None
    player.save()
    _played_for(player, 21)
    page.goto("/tables/golden/")
    with translation.override("de"):
        title, go_on = gettext("Reality check"), gettext("Go on playing")
    dialog = page.get_by_role("alertdialog", name=title)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("21")
    expect(dialog.get_by_role("button", name=go_on)).to_be_focused()
    box = dialog.bounding_box()
    viewport = page.viewport_size
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GALLERY / f"reality-check-{size}.png"))
    # Enter answers the dialog's focused button, not DEAL.
    page.keyboard.press("Enter")
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    page.locator("#chip-rack label.chip-3").click()
    page.locator(".spot-banker .spot-add").click()
    page.locator("#btn-deal").click()
    expect(page.locator("#board[data-revealed]")).to_have_count(1, timeout=15_000)
    assert Round.objects.filter(state=Round.State.SETTLED).count() == 1
