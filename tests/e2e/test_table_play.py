"""A new player signs up, buys in, plays by mouse and keyboard, rebuys, looks at the
protocol and leaves the table; every balance on screen is the ledger's, and nothing of
a result shows before its last card."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from playwright.sync_api import expect

from baccarat.board.card_names import card_name
from baccarat.errors import RoundError
from baccarat.forms import ENGINE_MESSAGES
from baccarat.models import Round, Table
from wallet.formatting import format_money

UNIT = 100  # cents: the smallest chip of a default table


@pytest.fixture
def golden(db):
    return Table.objects.create(name="Golden Baccarat", slug="golden")


def settled(page) -> None:
    # htmx gives the swapped-in board its classes at the end of its settle step (20 ms);
    # a person does not act faster than that, the test waits for it.
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def reveal_done(page) -> None:
    expect(page.locator("#board.revealed")).to_have_count(1, timeout=15_000)


def deal(page, *, key: str | None = None) -> None:
    """DEAL (by the button, or a key) and wait until the result has been revealed."""
    dealt = page.evaluate("document.querySelectorAll('.playing-card').length")
    if key:
        page.keyboard.press(key)
    else:
        page.locator("#btn-deal").click()
    settled(page)
    reveal_done(page)
    assert page.evaluate("document.querySelectorAll('.playing-card').length") or dealt


@pytest.mark.django_db(transaction=True)
def test_new_player_plays_by_mouse_and_keyboard_then_leaves(page, golden, money, ledger):
    # Sign up through the page; the lobby offers the table.
    page.goto("/accounts/signup/")
    page.fill("#id_username", "tomas")
    page.select_option("#id_language", "en")
    page.fill("#id_password1", "Kiwi-Banker-2026")
    page.fill("#id_password2", "Kiwi-Banker-2026")
    page.click("button[type=submit].primary")
    expect(page.locator("h1")).to_have_text("Lobby")
    player = get_user_model().objects.get(username="tomas")
    page.locator(".table-card a[href='/tables/golden/']").click()
    expect(page.locator("#table-heading")).to_have_text("Golden Baccarat")
    # The chips are laid out in the browser: a round is one request, DEAL with the layout.
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)

    stack, stake, available = (
        page.locator("#stack"),
        page.locator("#total-stake"),
        page.locator("#available"),
    )
    buy_in = page.locator("#buy-in")

    def expect_money(stack_cents: int, stake_cents: int) -> None:
        # Inner text: what shows (the figure from before a deal hides at its reveal).
        expect(stack).to_have_text(money(stack_cents), use_inner_text=True)
        expect(stake).to_have_text(money(stake_cents))
        expect(available).to_have_text(money(stack_cents - stake_cents), use_inner_text=True)
        assert ledger.stack(player, golden) == stack_cents

    # First visit: the buy-in panel is open with the wallet and presets (no "no more chips").
    expect(buy_in).to_have_attribute("open", "")
    expect(buy_in).to_contain_text(f"Your wallet: {money(ledger.wallet(player))}")
    expect(page.locator(".hands-empty")).to_contain_text("Buy chips to take part.")
    buy_in.locator(".buy-in-presets button", has_text=money(50 * UNIT)).click()
    settled(page)
    expect_money(50 * UNIT, 0)
    expect(buy_in).not_to_have_attribute("open", "")

    # The chosen chip stays chosen: 5, then Player twice is a stake of 10.
    page.locator("#chip-rack label.chip-2").click()
    for expected in (5, 10):
        page.locator(".spot-player .spot-add").click()
        expect(stake).to_have_text(money(expected * UNIT))
        settled(page)
    expect(page.locator("#chip-rack input[value='500']")).to_be_checked()
    expect_money(50 * UNIT, 10 * UNIT)

    # DEAL: at first nothing of the outcome shows, nor is it announced; then all of it.
    page.locator("#btn-deal").click()
    expect(page.locator("#board.dealing")).to_have_count(1)
    settled(page)
    for hidden in (".result-banner", ".hand-total .t.final", "#last-outcome .outcome"):
        expect(page.locator(hidden).first).to_be_hidden()
    expect(page.locator("#announcer")).to_have_text("")
    # The statistics panel shows the one from before the coup (the page's own, copied by
    # the script: the answer does not send it again) until the cards are turned.
    stats_before, stats_after = (
        page.locator("#shoe-stats .before"),
        page.locator("#shoe-stats .outcome"),
    )
    expect(stats_before).to_contain_text("No coups yet.")
    expect(stats_after.locator(".road-bead circle.bead:not(.ask-preview *)")).to_have_count(1)
    expect(stats_after).to_be_hidden()
    reveal_done(page)
    expect(page.locator(".result-banner")).to_be_visible()
    expect(page.locator("#announcer")).to_contain_text("Player:")
    expect(page.locator("#announcer")).to_contain_text("Net:")
    round = Round.objects.get(table=golden)
    with translation.override("en"):
        names = [
            card_name(code) for code in (round.player_cards + " " + round.banker_cards).split()
        ]
    expect(page.locator(".playing-card .visually-hidden")).to_have_text(names, use_inner_text=True)
    play = round.plays.get()
    with translation.override("en"):
        net = format_money(play.net, sign=True)
    expect(page.locator("#last-outcome")).to_contain_text(net, use_inner_text=True)
    expect(stack).to_have_text(money(ledger.stack(player, golden)), use_inner_text=True)
    # After the round the layout keeps the bet (seed 002); DEAL alone plays it again.
    expect(page.locator(".spot-player .amount")).to_have_text(money(10 * UNIT))
    expect_money(ledger.stack(player, golden), 10 * UNIT)
    deal(page)
    assert Round.objects.filter(table=golden, state=Round.State.SETTLED).count() == 2
    expect(stats_before.locator(".road-bead circle.bead:not(.ask-preview *)")).to_have_count(
        1
    )  # the panel it replaced
    expect(stats_after.locator(".road-bead circle.bead:not(.ask-preview *)")).to_have_count(2)
    expect(stats_after).to_be_visible()
    assert [
        b.stake for r in Round.objects.filter(table=golden) for b in r.plays.get().bets.all()
    ] == [
        10 * UNIT,
        10 * UNIT,
    ]
    # CLEAR takes it away.
    page.locator("#btn-clear").click()
    settled(page)
    expect(stake).to_have_text(money(0))

    # The keyboard of seeds 000/001.
    expect(page.locator("#keyboard-help")).to_contain_text(
        "Place the chosen chip on Player, Banker or Tie"
    )
    page.locator("body").click(position={"x": 5, "y": 5})

    def key(name: str, stake_units: int) -> None:
        page.keyboard.press(name)
        expect(stake).to_have_text(money(stake_units * UNIT))
        settled(page)

    page.locator("#chip-rack label.chip-1").click()
    key("2", 1)  # 2 places the chosen chip on Banker
    expect(page.locator(".spot-banker.selected")).to_have_count(1)
    key("+", 2)
    key("ArrowUp", 3)  # the Italian seed's arrows change the bet too
    key("Shift+ArrowUp", 13)
    key("Shift+-", 3)
    key("ArrowDown", 2)
    key("3", 3)  # Tie
    page.locator(".spot-tie").click(button="right")  # the whole Tie bet back
    expect(stake).to_have_text(money(2 * UNIT))
    settled(page)
    page.keyboard.press("ArrowLeft")  # from Tie (the chosen spot) to Player
    expect(page.locator(".spot-player.selected")).to_have_count(1)
    page.keyboard.press("Delete")
    expect(stake).to_have_text(money(0))
    settled(page)
    key("1", 1)
    deal(page, key="Enter")  # Enter after 1 deals; it does not place another chip
    last = Round.objects.filter(table=golden).latest("pk")
    assert last.state == Round.State.SETTLED
    assert [(b.kind, b.stake) for b in last.plays.get().bets.all()] == [("player", UNIT)]
    key(".", 0)
    key("0", 1)  # 0 repeats the last bet
    expect(page.locator(".spot-player .amount")).to_have_text(money(UNIT))

    # Run short: a stake above the stack is refused, with a way to rebuy ...
    page.locator("#chip-rack label.chip-5").click()
    page.locator(".spot-banker .spot-add").click()
    expect(page.locator("#board .form-errors")).to_be_visible()
    settled(page)
    expect(stake).to_have_text(money(UNIT))
    # ... REBUY shows the wallet too.
    page.locator("#buy-in summary").click()
    expect(buy_in).to_contain_text(f"Your wallet: {money(ledger.wallet(player))}")
    buy_in.locator("#id_amount").fill("600")
    buy_in.locator(".buy-in-amount button[type=submit]").click()
    settled(page)
    expect(stack).to_have_text(money(ledger.stack(player, golden)), use_inner_text=True)

    assert posts and not [url for url in posts if url.endswith("/bet/")], posts
    assert sum(url.endswith("/deal/") for url in posts) == 3

    # Leaving with chips on the layout asks first; then the lobby says what came back.
    page.locator("#btn-exit").click()
    expect(page.locator(".exit-confirm")).to_be_visible()
    settled(page)
    returned = ledger.stack(player, golden)
    page.locator("#btn-exit-confirm").click()
    expect(page.locator("h1")).to_have_text("Lobby")
    expect(page.locator(".messages")).to_contain_text(
        f"You left Golden Baccarat: {money(returned)} went back to your wallet."
    )
    assert ledger.stack(player, golden) == 0


@pytest.mark.django_db(transaction=True)
def test_reduced_motion_shows_the_whole_result_at_once(page, golden, signed_in):
    player = signed_in("rosa")
    player.reduced_motion = True
    player.save()
    page.goto("/tables/golden/")
    page.locator(".buy-in-presets button").first.click()
    settled(page)
    page.locator(".spot-banker .spot-add").click()
    settled(page)
    page.locator("#btn-deal").click()
    expect(page.locator("#board.dealing")).to_have_count(1)
    settled(page)
    expect(page.locator(".result-banner")).to_be_visible(timeout=300)
    expect(page.locator("#announcer")).to_contain_text("Banker:", timeout=300)


@pytest.mark.django_db(transaction=True)
def test_the_lobby_offers_no_table_that_cannot_be_opened(page, golden, signed_in):
    Table.objects.create(
        name="Salon Privé",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )
    closed = Table.objects.create(name="Closed", slug="closed", is_active=False)
    signed_in("lena")
    page.goto("/")
    hrefs = page.locator(".table-card a.button").evaluate_all("els => els.map(e => e.href)")
    assert len(hrefs) == 3  # Golden: Play; Salon: Take a seat, Watch
    for href in hrefs:
        assert page.request.get(href).status == 200, href
    salon = page.locator(".table-card", has_text="Salon Privé")
    expect(salon).to_contain_text("0/8 seats taken")
    expect(page.locator(".table-card", has_text=closed.name)).to_have_count(0)


@pytest.mark.django_db(transaction=True)
def test_chips_laid_out_in_the_page_are_checked_and_kept_through_a_refused_deal(
    page, golden, signed_in, money, ledger
):
    """German page: the layout is drawn in the page as the server draws money; a chip the
    rules refuse is refused there in the server's words; a DEAL the server refuses (the
    stack cashed out from another tab meanwhile) keeps the chips laid out and changes
    nothing."""
    from wallet import services as wallet

    player = signed_in("greta", language="de")
    wallet.wallet_rebuy(player=player, table=golden, amount=30 * UNIT, reference="greta")
    page.goto("/tables/golden/")
    stake = page.locator("#total-stake")
    page.locator("#chip-rack label.chip-2").click()  # 5
    page.locator(".spot-player .spot-add").click()
    page.locator(".spot-player .spot-add").click()
    expect(stake).to_have_text(money(10 * UNIT, "de"))
    expect(page.locator(".spot-player .amount")).to_have_text(money(10 * UNIT, "de"))
    expect(page.locator("#available")).to_have_text(money(20 * UNIT, "de"))
    # Banker beside Player: refused in the page, in German, nothing changed.
    page.locator(".spot-banker .spot-add").click()
    with translation.override("de"):
        refused = str(ENGINE_MESSAGES["combination_not_allowed"])
    expect(page.locator("#board .form-errors")).to_have_text(refused)
    expect(stake).to_have_text(money(10 * UNIT, "de"))
    # Meanwhile another tab takes the stack down to 5: DEAL is refused by the server.
    wallet.wallet_cash_out(player=player, table=golden, amount=25 * UNIT, reference="other tab")
    page.locator("#btn-deal").click()
    settled(page)
    with translation.override("de"):
        short = str(RoundError("stack_short").message)
    expect(page.locator("#board .form-errors")).to_have_text(short)
    expect(stake).to_have_text(money(10 * UNIT, "de"))  # the chips laid out stay
    expect(page.locator(".spot-player .amount")).to_have_text(money(10 * UNIT, "de"))
    assert not Round.objects.filter(table=golden).exists()
    assert ledger.stack(player, golden) == 5 * UNIT
    # One chip back (−) and DEAL: the layout the page shows is the one played.
    page.locator(".spot-player .spot-remove").click()
    deal(page)
    round = Round.objects.get(table=golden)
    assert [(b.kind, b.stake) for b in round.plays.get().bets.all()] == [("player", 5 * UNIT)]
