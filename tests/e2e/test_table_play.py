"""A new player signs up, plays 20 rounds by mouse and keyboard, rebuys, exports the
protocol and cashes out; every balance on screen is the ledger's."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from baccarat.models import Round, Table

UNIT = 100  # cents: the smallest chip of a default table
CSV_HEADER = [
    "Round",
    "Date",
    "Table",
    "Shoe",
    "Hand",
    "Player cards",
    "Banker cards",
    "Player total",
    "Banker total",
    "Outcome",
    "Bets",
    "Stake",
    "Paid",
    "Commission",
    "Net",
    "Balance before",
    "Balance after",
    "Status",
]


@pytest.mark.django_db(transaction=True)
def test_new_player_plays_by_mouse_and_keyboard_then_cashes_out(page, money, ledger):
    table = Table.objects.create(name="Golden Baccarat", slug="golden")

    # Sign up through the page.
    page.goto("/accounts/signup/")
    page.fill("#id_username", "tomas")
    page.select_option("#id_language", "en")
    page.fill("#id_password1", "Kiwi-Banker-2026")
    page.fill("#id_password2", "Kiwi-Banker-2026")
    page.click("button[type=submit].primary")
    expect(page.locator("h1")).to_have_text("Lobby")
    player = get_user_model().objects.get(username="tomas")

    # Lobby → table.
    page.locator(".table-card a[href='/tables/golden/']").click()
    expect(page.locator("#table-heading")).to_have_text("Golden Baccarat")

    board = page.locator("#board")
    stack = page.locator("#stack")
    stake = page.locator("#total-stake")
    rebuy = board.locator("details.rebuy")
    road = board.locator(".road > li:not(.road-empty)")

    busy = page.locator(".htmx-request, .htmx-swapping, .htmx-settling")

    def settled() -> None:
        # htmx binds the swapped-in board at the end of its settle step (20 ms);
        # a person does not act faster than that, the test waits for it.
        expect(busy).to_have_count(0)

    def expect_stack_is_ledger() -> None:
        expect(stack).to_have_text(money(ledger.stack(player, table)))

    def buy_in(units: int) -> None:
        if rebuy.get_attribute("open") is None:
            rebuy.locator("summary").click()
        rebuy.locator("input[name=amount]").fill(str(units))
        wallet_before = ledger.wallet(player)
        stack_after = ledger.stack(player, table) + units * UNIT
        rebuy.locator("button[type=submit]").click()
        expect(stack).to_have_text(money(stack_after))
        settled()
        assert ledger.stack(player, table) == stack_after
        assert ledger.wallet(player) == wallet_before - units * UNIT

    # The stack is empty: the table asks for a buy-in. Buy in a small amount only.
    expect(stack).to_have_text(money(0))
    expect(rebuy).to_have_attribute("open", "")
    buy_in(100)
    expect(stack).to_have_text(money(100 * UNIT))

    page.evaluate("window.__marker = 1")
    played = 0

    def expect_dealt() -> None:
        expect(road).to_have_count(played)
        expect(board.locator(".hands.dealing .result-banner")).to_be_visible()
        expect(stake).to_have_text(money(0))
        expect_stack_is_ledger()
        settled()

    # Ten rounds with the mouse: choose a chip, click a spot, DEAL.
    mouse_rounds = [
        [("chip-1", "player")],
        [("chip-1", "banker")],
        [("chip-1", "player"), ("chip-1", "player")],
        [("chip-1", "banker"), ("chip-1", "tie")],
        [("chip-2", "player")],
        [("chip-1", "tie")],
        [("chip-1", "banker")],
        [("chip-1", "player")],
        [("chip-1", "banker"), ("chip-1", "banker")],
        [("chip-1", "player")],
    ]
    chip_units = {"chip-1": 1, "chip-2": 5}
    for number, bets in enumerate(mouse_rounds):
        total = 0
        for chip, spot in bets:
            board.locator(f".chips label.{chip}").click()
            board.locator(f".spot-{spot} .spot-add").click()
            total += chip_units[chip]
            expect(stake).to_have_text(money(total * UNIT))
            settled()
        if number == 2:  # the − button takes a chip back
            board.locator(".spot-player .spot-remove").click()
            expect(stake).to_have_text(money(1 * UNIT))
            settled()
        board.locator("#btn-deal").click()
        played += 1
        expect_dealt()

    # Ten rounds with the keyboard shortcuts listed on the page.
    expect(page.locator(".keyboard-help")).to_contain_text("Select player, banker or tie")

    def key(name: str, stake_units: int | None = None) -> None:
        page.keyboard.press(name)
        if stake_units is not None:
            expect(stake).to_have_text(money(stake_units * UNIT))
            settled()

    for number in range(10):
        if number == 0:
            key("2")
            expect(board.locator(".spot-banker.selected")).to_have_count(1)
            key("+", 1)
            expect(board.locator(".spot-banker .spot-stake")).to_have_text(money(UNIT))
            key("+", 2)
            key("-", 1)
        elif number == 1:
            key("0", 1)  # rebet
            expect(board.locator(".spot-banker .spot-stake")).to_have_text(money(UNIT))
        elif number == 2:
            key("1")
            key("+", 1)
            key("+", 2)
            key(".", 0)  # clear
            key("3")
            key("+", 1)
        elif number == 3:
            key("1")
            key("+", 1)
            key("Delete", 0)  # clear
            key("1")
            key("+", 1)
        elif number % 2:
            key("0", 1)
        else:
            key("2")
            key("+", 1)
        key("Enter")
        played += 1
        expect_dealt()

    # Twenty rounds, and the page was never reloaded.
    assert page.evaluate("window.__marker") == 1
    assert Round.objects.filter(table=table, state=Round.State.SETTLED).count() == played

    # Run short: a stake above the stack is refused ...
    board.locator(".chips label.chip-5").click()
    board.locator(".spot-player .spot-add").click()
    expect(board.locator(".form-errors")).to_be_visible()
    settled()
    expect(stake).to_have_text(money(0))
    expect_stack_is_ledger()
    # ... so rebuy at the table, then the big bet goes through.
    buy_in(500)
    board.locator(".chips label.chip-5").click()
    board.locator(".spot-player .spot-add").click()
    expect(stake).to_have_text(money(500 * UNIT))
    settled()
    board.locator("#btn-deal").click()
    played += 1
    expect_dealt()
    assert page.evaluate("window.__marker") == 1

    # The protocol, and its CSV export.
    page.locator(".table-buttons a[href*='/protocol/']").click()
    expect(page.locator("#protocol-heading")).to_have_text("Protocol")
    expect(page.locator("#results tbody tr")).to_have_count(played)
    with page.expect_download() as download_info:
        page.locator("a[href*='export.csv']").click()
    download = download_info.value
    with open(download.path(), encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(io.StringIO(handle.read())))
    assert rows[0] == CSV_HEADER
    assert len(rows) - 1 == played

    # Back at the table, EXIT; the stack goes to the wallet.
    page.goto(f"/tables/{table.slug}/")
    expect_stack_is_ledger()
    page.locator(".table-buttons form[action$='/exit/'] button").click()
    expect(page.locator("h1")).to_have_text("Lobby")
    assert ledger.stack(player, table) == 0

    page.locator("header nav a[href='/cashier/']").click()
    expect(page.get_by_test_id("wallet-balance")).to_have_text(money(ledger.wallet(player)))
