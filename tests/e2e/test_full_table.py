"""Three browsers at one full table, in three languages: they sit, the new shoe is offered
for the cut in seat order, one player deals, one passes, one lets the timer run out;
each sees the others' bets and decisions, everyone sees the same cards and result, the
payouts and protocols are right, and no browser misses an event or sees one twice."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Seat, Shoe, Table, TableEvent
from tests.e2e.browsers import new_player, signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def open_page(browser, asgi_server):
    """Sign a new player in, in a browser of their own; closed before the server stops."""
    contexts = []

    def open_(username: str, language: str):
        user, page = player_page(browser, asgi_server, username, language)
        contexts.append(page.context)
        return user, page

    yield open_
    for context in contexts:
        context.close()


def player_page(browser, base: str, username: str, language: str):
    user = new_player(username, language)
    page = signed_in_page(browser, base, user, viewport={"width": 1280, "height": 1000})
    page.goto("/tables/salon/")
    expect(page.locator("#table-heading")).to_have_text("Salon")
    return user, page


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def caught_up(page, slug: str = "salon") -> None:
    """The page's board shows the table as of its last event, so no refresh is still on
    its way (one landing between filling a form and sending it would reset the form)."""
    seq = Table.objects.get(slug=slug).event_seq
    try:
        # As of that event or a later one (the croupier may have written one since).
        page.wait_for_function(CAUGHT_UP, arg=seq, timeout=10_000)
    except PlaywrightError as error:
        seen = page.evaluate(PAGE_EVENTS)
        raise AssertionError(f"the page did not catch up with event {seq}: {seen}") from error
    settled(page)


CAUGHT_UP = """seq => {
  const board = document.getElementById("board");
  return !!board && Number(board.dataset.seq) >= seq
    && !document.querySelector(".full-table[data-board-due]");
}"""
# What the page got of the events and which boards it fetched (full_table.js).
PAGE_EVENTS = """() => ({
  boards: Array.from(document.querySelectorAll("#board"), (board) => board.dataset.seq),
  due: !!document.querySelector(".full-table[data-board-due]"),
  events: window.tableEvents,
})"""


def refresh_board(page) -> None:
    """What another player's event does to this page: its board drawn anew."""
    page.evaluate(
        "htmx.ajax('GET', document.querySelector('.full-table').dataset.boardUrl,"
        " {target: '#board', swap: 'outerHTML'})"
    )
    settled(page)


def sit(page, seat: int, amount: int = 100, refreshed: bool = False) -> None:
    caught_up(page)
    page.select_option("#id_seat", str(seat))
    page.fill("#id_sit_amount", str(amount))
    if refreshed:
        # Another player's event draws the sitting form anew: the seat and the chips this
        # player chose stay chosen.
        refresh_board(page)
        expect(page.locator("#id_seat")).to_have_value(str(seat))
        expect(page.locator("#id_sit_amount")).to_have_value(str(amount))
    page.locator(".sit-form button[type=submit]").click()
    expect(page.locator(f".seat.mine[data-seat='{seat}']")).to_have_count(1)
    settled(page)


def events_are_whole(page) -> list[int]:
    seqs = page.evaluate("window.tableEvents.seqs")
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs
    return seqs


def test_three_browsers_play_a_round_together(open_page):
    Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
        betting_seconds=10,
        cycle_seconds=3,
    )
    alice, a = open_page("alice", "de")
    bob, b = open_page("bob", "it")
    carl, c = open_page("carl", "nl")

    sit(a, 1)
    # The new shoe is offered to seat 1 first.
    expect(a.locator(".cut-offer")).to_be_visible()
    sit(b, 2)
    sit(c, 5, amount=120, refreshed=True)
    expect(c.locator(".seat[data-seat='1'] .seat-cut")).to_be_visible()
    a.locator(".cut-offer form.inline button").click()  # No, thank you
    settled(a)
    # Passed on, in seat order: bob places the yellow card.
    expect(b.locator(".cut-offer")).to_be_visible()
    caught_up(b)
    b.locator("#cut-position").fill("150")
    # Another player's event refreshes the board: the place bob chose stays chosen.
    refresh_board(b)
    expect(b.locator("#cut-position")).to_have_value("150")
    expect(b.locator("#cut-output")).to_have_text("150")
    # Waited for by its answer: under a full suite's load the click's request may not
    # have begun when the page first looks settled.
    with b.expect_response("**/cut/"):
        b.locator(".cut-form button[type=submit]").click()
    settled(b)
    shoe = Shoe.objects.get(table__slug="salon", is_finished=False)
    assert (shoe.cut_position, shoe.cut_by) == (150, bob)
    for page in (a, b, c):
        expect(page.locator(".burn-info")).to_contain_text("bob")
        expect(page.locator(".betting-timer[data-deadline]")).to_be_visible()

    # Alice: banker, Deal. Bob: player, Pass. Carl: tie, and no decision. Each page draws
    # the others' chips and decisions from the events alone: no board is fetched for them.
    for page in (a, b, c):
        caught_up(page)
    boards = {page: page.evaluate("window.tableEvents.boards") for page in (a, b, c)}
    a.locator("#chip-rack label.chip-3").click()
    a.locator(".spot-banker .spot-add").click()
    settled(a)
    b.locator("#chip-rack label.chip-2").click()
    b.locator(".spot-player .spot-add").click()
    settled(b)
    c.locator("#chip-rack label.chip-2").click()
    c.locator(".spot-tie .spot-add").click()
    settled(c)
    a.locator("#btn-deal").click()
    b.locator("#btn-pass").click()
    settled(a)
    settled(b)
    # Everyone sees everyone's bets and decisions.
    expect(c.locator(".seat[data-seat='1']")).to_contain_text("B")
    expect(c.locator(".seat[data-seat='1'] .seat-bets")).to_contain_text("25,00")
    expect(c.locator(".seat[data-seat='1']")).to_have_class("seat decided-deal")
    expect(a.locator(".seat[data-seat='2']")).to_have_class("seat decided-pass")
    expect(b.locator(".seat[data-seat='5'] .seat-bets")).to_contain_text("5,00")
    with translation.override("nl"):  # carl's language
        expect(c.locator(".seat[data-seat='2'] .seat-status")).to_have_text(gettext("Pass"))
    assert Round.objects.get(table__slug="salon", shared=True).state == Round.State.BETTING
    assert {page: page.evaluate("window.tableEvents.boards") for page in (a, b, c)} == boards

    # The timer runs out for carl: the cards come; the same for everyone.
    round = Round.objects.get(table__slug="salon", shared=True)
    for page in (a, b, c):
        # Revealed (or, if the next round opened since, shown as it lies): the result.
        expect(page.locator(f"#board[data-round='{round.pk}'] .result-banner")).to_be_visible(
            timeout=20_000
        )
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    for page in (a, b, c):
        expect(page.locator(".hand-total .t.final")).to_have_text(
            [str(round.player_total), str(round.banker_total)]
        )
        assert page.locator(".playing-card").count() == len(round.reserved_cards) // 2
    plays = {p.player_id: p for p in Play.objects.filter(round=round)}
    assert plays[alice.pk].decision == Play.Decision.DEAL and plays[alice.pk].stake_total == 2500
    assert plays[bob.pk].decision == Play.Decision.PASS and plays[bob.pk].stake_total == 0
    assert plays[carl.pk].decision == Play.Decision.TIMED_OUT and plays[carl.pk].stake_total == 0
    assert Seat.objects.get(player=carl).missed == 1
    net = plays[alice.pk].payout_total - 2500
    expect(a.locator(".seat.mine .seat-net")).to_be_visible()
    # Every browser got every event since it opened the table, in order, none twice.
    last = TableEvent.objects.filter(table__slug="salon").order_by("-seq").first().seq
    for page in (a, b, c):
        seqs = events_are_whole(page)
        assert seqs[-1] >= TableEvent.objects.get(table__slug="salon", kind="payouts").seq
        assert seqs[-1] <= last

    # The next round opens: every page draws its timer, its seats deciding and (all three
    # are seated) its spots from the event alone, and the spots drawn so take a chip.
    opened = TableEvent.objects.filter(table__slug="salon", kind="round_open")
    expect(c.locator("#board[data-phase='betting'] #bet-form .spot-tie")).to_be_visible(
        timeout=20_000
    )
    second = opened.order_by("-seq").first()
    assert second.data["round"] != round.pk
    for page in (a, b, c):
        expect(page.locator(".betting-timer[data-deadline]")).to_be_visible()
        expect(page.locator(".seat[data-seat='1']")).to_have_class(
            "seat mine" if page is a else "seat"
        )
        expect(page.locator("#btn-deal")).to_be_enabled()
        assert second.seq not in page.evaluate("window.tableEvents.fetchedFor")
    with translation.override("de"):
        expect(a.locator(".betting-timer .timer-label")).to_have_text(gettext("Place your bets"))
        expect(a.locator(".seat[data-seat='5'] .seat-status")).to_have_text(gettext("Deciding…"))
    c.locator("#chip-rack label.chip-2").click()
    c.locator(".spot-tie .spot-add").click()
    settled(c)
    c.locator(".spot-tie .spot-add").click()  # a second press: a key of its own, a chip
    settled(c)
    expect(c.locator(".spot-tie .spot-stake .amount")).to_contain_text("10,00")
    expect(a.locator(".seat[data-seat='5'] .seat-bets")).to_contain_text("10,00")

    # The protocols: alice has the round, bob and carl (no stake) do not.
    a.goto("/protocol/")
    expect(a.locator("#results tbody tr")).to_have_count(1)
    a.goto(f"/protocol/{round.pk}/")
    expect(a.locator(f"td[data-codes='{round.player_cards}'] .card-text")).to_have_count(
        len(round.player_cards.split())
    )
    b.goto("/protocol/")
    expect(b.locator("#results tbody tr td[colspan]")).to_have_count(1)  # "no rounds yet"
    assert TableEvent.objects.filter(table__slug="salon", kind="payouts").get().data["seats"] == {
        "1": {"stake": 2500, "paid": 2500 + net}
    }
    assert audit_violations() == []
