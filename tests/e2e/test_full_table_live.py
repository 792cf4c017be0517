"""A full table as its players see it between the events (issue 38): the loser of a seat
race is told where they sit; the timer never shows more than the server's deadline
leaves, across boards drawn anew; a player's notice stays until they have seen it;
seats change on every page at once, even while a coup's cards turn, without cutting the
reveal short; a new shoe's cut passed on is drawn from its events but on the page it
comes to. Each page is watched every animation frame (a sampler installed through
Playwright: the page's CSP refuses eval, so nothing polls with a string)."""

from __future__ import annotations

import math
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from baccarat.full import croupier, seats
from baccarat.models import Round, Seat, Table, TableEvent
from tests.e2e.browsers import new_player
from tests.e2e.test_full_table import caught_up, player_page, refresh_board, settled, sit

pytestmark = pytest.mark.django_db(transaction=True)

RACE = "Seat 3 was taken a moment before you; you sit at seat 4."
RAISED = "Stakes below the table minimum were raised to it."

# Every animation frame, before it is painted: the timer's text and deadline, the board
# (a number per board element: a new one is a board drawn anew), its classes, the seats
# taken and the player's notices.
SAMPLER = """() => {
  const frames = window.frames38 = [];
  const boards = new WeakMap();
  let count = 0;
  const look = () => {
    const board = document.getElementById("board");
    if (board && !boards.has(board)) boards.set(board, ++count);
    const timer = document.querySelector(".betting-timer[data-deadline]");
    const seconds = timer && timer.querySelector(".timer-seconds");
    frames.push({
      t: Date.now(),
      text: seconds ? seconds.textContent.trim() : null,
      deadline: timer ? Date.parse(timer.dataset.deadline) : null,
      board: board ? boards.get(board) : 0,
      classes: board ? board.className : "",
      round: board ? board.dataset.round : "",
      taken: Array.prototype.map.call(
        document.querySelectorAll(".seats .seat:not(.free)"), (el) => el.dataset.seat),
      notices: Array.prototype.map.call(
        document.querySelectorAll("#board p.message, #board .form-errors, #sit .form-errors"),
        (el) => el.textContent.replace("×", "").trim()),
    });
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def frames(page) -> list[dict]:
    return page.evaluate("window.frames38")


def story(seen: list[dict]) -> str:
    """The frames where the board, its classes or the seats changed (for a failure)."""
    lines, last = [], None
    for frame in seen:
        key = (frame["board"], frame["classes"], frame["round"], frame["taken"])
        if key != last:
            lines.append(f"{frame['t'] - seen[0]['t']:>6} ms {key}")
            last = key
    return "\n".join(lines)


def heard(page) -> None:
    """The page has had every event of the table so far, and no board fetch is due."""
    seq = Table.objects.get(slug="salon").event_seq
    expect(page.locator(f".full-table[data-event-seq='{seq}']")).to_have_count(1)
    expect(page.locator(".full-table[data-board-due]")).to_have_count(0)
    settled(page)


@pytest.fixture
def pages(browser, asgi_server):
    """Open a signed-in page per player (``pages("alice")``); closed before the server
    stops. ``events=False``: the page hears no events until ``hear(page)``; ``language``:
    the player's (English unless said)."""
    contexts = []

    def open_(username: str, *, events: bool = True, language: str = "en"):
        if events:
            user, page = player_page(browser, asgi_server, username, language)
        else:
            user, page = _deaf_page(browser, asgi_server, username)
        contexts.append(page.context)
        return user, page

    yield open_
    for context in contexts:
        context.close()


def _deaf_page(browser, base: str, username: str):
    """A page whose event stream is refused until ``hear(page)``: what a page sees that
    has not heard of a change yet."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from wallet.services import wallet_open_for_new_player

    user = get_user_model().objects.create_user(username=username, language="en")
    wallet_open_for_new_player(player=user)
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 1000})
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            }
        ]
    )
    context.route("**/events/**", lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/tables/salon/")
    expect(page.locator("#table-heading")).to_have_text("Salon")
    return user, page


def hear(page) -> None:
    page.context.unroute("**/events/**")


def salon(**extra) -> Table:
    values = {
        "name": "Salon",
        "slug": "salon",
        "kind": Table.Kind.FULL,
        "seats": 8,
        "decks": 8,
        "reshuffle": Table.Reshuffle.CUT_CARD,
        "burn": Table.Burn.FIRST_CARD,
        "min_player": 500,
        "min_banker": 500,
        "min_tie": 500,
        "betting_seconds": 20,
        "cycle_seconds": 3,
        **extra,
    }
    return Table.objects.create(**values)


def decline_the_cut(*seated) -> None:
    """Each seated page in turn passes the new shoe on; the croupier cuts."""
    for page in seated:
        expect(page.locator(".cut-offer")).to_be_visible()
        caught_up(page)
        page.locator(".cut-offer form.inline button").click()
        settled(page)


def betting(*pages_) -> Round:
    for page in pages_:
        expect(page.locator("#board[data-phase='betting'] .betting-timer")).to_be_visible(
            timeout=20_000
        )
        caught_up(page)
    round = croupier.open_round(Table.objects.get(slug="salon"))
    assert round is not None and round.state == Round.State.BETTING
    return round


def test_the_loser_of_a_seat_race_is_told_which_seat_they_got(pages) -> None:
    salon()
    _alice, a = pages("alice")
    bob, b = pages("bob", events=False)
    # Both choose seat 3; alice's request is served first, bob's page has not heard.
    b.select_option("#id_seat", "3")
    b.fill("#id_sit_amount", "100")
    sit(a, 3)
    b.locator(".sit-form button[type=submit]").click()
    notice = b.locator("#board-mine p.message")
    expect(notice).to_contain_text(RACE)
    expect(b.locator(".seat.mine[data-seat='4']")).to_have_count(1)
    assert Seat.objects.get(player=bob).number == 4
    # Its events reach the page (alice's seat, bob's own): the board is drawn anew, the
    # notice stays on it, until bob dismisses it.
    b.evaluate(SAMPLER)
    seq = Table.objects.get(slug="salon").event_seq
    hear(b)
    expect(b.locator(f".full-table[data-event-seq='{seq}']")).to_have_count(1, timeout=20_000)
    caught_up(b)
    assert b.evaluate("window.tableEvents.fetchedFor")  # its own sitting down: a board
    expect(notice).to_contain_text(RACE)
    seen = [f for f in frames(b) if f["board"]]
    assert len({f["board"] for f in seen}) >= 2  # drawn anew at least once
    assert all(RACE in f["notices"] for f in seen), "the notice left the board for a while"
    notice.locator(".notice-dismiss").click()
    expect(b.locator("#board p.message")).to_have_count(0)


def test_the_timer_never_shows_more_than_the_deadline_leaves(pages) -> None:
    table = salon()
    alice, a = pages("alice")
    bob, b = pages("bob")
    _carl, c = pages("carl")
    sit(a, 1)
    sit(b, 2)
    decline_the_cut(a, b)
    round = betting(a, b, c)
    c.select_option("#id_seat", "5")
    c.fill("#id_sit_amount", "100")
    for page in (a, c):
        page.evaluate(SAMPLER)
    # Some seconds into the round, so the table's whole betting time is wrong to show.
    expect(a.locator(".timer-seconds")).to_have_text(str(table.betting_seconds - 3))
    croupier.full_bet(table=table, player=bob, kind="banker", amount=500, take_back=False)
    refresh_board(a)  # a board fetched for an event
    c.locator(".sit-form button[type=submit]").click()  # its answer, then its own event
    expect(c.locator(".seat.mine[data-seat='5']")).to_have_count(1)
    croupier.full_bet(table=table, player=bob, kind="banker", amount=500, take_back=False)
    heard(a)
    refresh_board(a)
    caught_up(c)
    expect(c.locator("#board-mine")).to_have_count(1)
    croupier.full_decide(table=table, player=alice, deal=False)
    for page in (a, c):
        seen = [f for f in frames(page) if f["text"] is not None]
        assert len({f["board"] for f in seen}) >= 3, "boards were not drawn anew"
        last = None
        for frame in seen:
            shown = int(frame["text"])
            left = math.ceil((frame["deadline"] - frame["t"]) / 1000)
            assert shown <= left + 1, f"{shown} shown with {left} s left"
            if last is not None and last["deadline"] == frame["deadline"]:
                assert shown <= int(last["text"]), f"the timer went up: {last['text']} {shown}"
            last = frame
    assert Round.objects.get(pk=round.pk).state == Round.State.BETTING


def test_a_notice_stays_until_the_player_has_seen_it(pages) -> None:
    table = salon(betting_seconds=30)
    _alice, a = pages("alice")
    bob, b = pages("bob")
    sit(a, 1)
    sit(b, 2)
    decline_the_cut(a, b)
    round = betting(a, b)
    a.locator("#chip-rack label.chip-1").click()  # 1.00, below the minimum of 5.00
    a.locator(".spot-banker .spot-add").click()
    settled(a)
    a.evaluate(SAMPLER)
    a.locator("#btn-deal").click()
    notice = a.locator("#board-mine p.message")
    expect(notice).to_contain_text(RAISED)
    # Another player's chip and decision; the last decision deals: the board is drawn
    # anew for the cards, the notice stays on it.
    croupier.full_bet(table=table, player=bob, kind="player", amount=500, take_back=False)
    heard(a)
    croupier.full_decide(table=table, player=bob, deal=True)
    expect(a.locator(f"#board.revealed[data-round='{round.pk}']")).to_have_count(1, timeout=20_000)
    expect(notice).to_contain_text(RAISED)
    # Once the next round has opened and it has been shown a while, it goes.
    expect(a.locator("#board[data-phase='betting']")).to_have_count(1, timeout=20_000)
    expect(a.locator("#board p.message")).to_have_count(0, timeout=20_000)
    seen = frames(a)
    shown = [f for f in seen if any(RAISED in n for n in f["notices"])]
    first, gone = shown[0], shown[-1]
    assert gone["t"] - first["t"] >= 7_900, "the notice went too soon"
    during = [f for f in seen if first["t"] <= f["t"] <= gone["t"]]
    assert all(any(RAISED in n for n in f["notices"]) for f in during)
    assert len({f["board"] for f in during}) >= 2  # drawn anew, and it stayed


def test_seats_change_on_every_page_while_the_cards_turn(pages) -> None:
    table = salon()
    alice, a = pages("alice")
    bob, b = pages("bob")
    _carl, c = pages("carl")
    sit(a, 1)
    sit(b, 2)
    decline_the_cut(a, b)
    round = betting(a, b, c)
    c.select_option("#id_seat", "3")
    c.fill("#id_sit_amount", "100")
    croupier.full_bet(table=table, player=alice, kind="banker", amount=500, take_back=False)
    croupier.full_decide(table=table, player=alice, deal=True)
    for page in (a, c):
        page.evaluate(SAMPLER)
    croupier.full_decide(table=table, player=bob, deal=False)  # the last decision: dealt
    # While the cards turn (on carl's page; the frames tell for alice's): carl sits
    # down, bob leaves.
    turning = f"#board.dealing:not(.revealed)[data-round='{round.pk}']"
    expect(c.locator(turning)).to_have_count(1, timeout=10_000)
    # Until the cards have turned, the statistics from before the coup: the page's own
    # panel, copied in by its script (the board sends the panel after the coup only).
    expect(c.locator("#shoe-stats .before .road-empty")).to_have_count(1)
    beads = "#shoe-stats .outcome .road-bead circle.bead:not(.ask-preview *)"
    expect(c.locator(beads)).to_have_count(1)
    c.locator(".sit-form button[type=submit]").click()
    b.locator("#btn-exit").click()
    b.wait_for_url(lambda url: url.endswith("/") and "/tables/" not in url)  # the lobby
    # Once the cards have turned: alice's board as revealed, carl's own board (his seat,
    # his controls) fetched then.
    expect(a.locator("#board.revealed")).to_have_count(1, timeout=20_000)
    expect(c.locator("#board-mine")).to_have_count(1, timeout=20_000)
    expect(c.locator(".seat.mine[data-seat='3']")).to_have_count(1)
    for page, name in ((a, "alice"), (c, "carl")):
        seen = frames(page)
        dealing = [f for f in seen if "dealing" in f["classes"]]
        dealt_board = dealing[0]["board"]
        # The reveal ran on one board, to its end: not drawn anew, not cut short.
        ends = [f for f in seen if "revealed" in f["classes"]]
        assert ends and ends[0]["board"] == dealt_board, f"{name}: cut short\n{story(seen)}"
        revealed = ends[0]
        turning_frames = [f for f in dealing if f["t"] < revealed["t"]]
        assert all(f["board"] == dealt_board for f in turning_frames)
        # Both seats changed while the cards were still turning.
        assert any("3" in f["taken"] for f in turning_frames), f"{name}:\n{story(seen)}"
        assert any("2" not in f["taken"] for f in turning_frames), f"{name}:\n{story(seen)}"


def test_a_stream_answered_with_an_error_is_opened_again(pages) -> None:
    """An error answer to the event stream (a web process without its database answers
    503) closes an EventSource for good: the page opens a new one after a pause, from the
    last event it drew, and hears what happened meanwhile."""
    table = salon()
    _user, page = pages("watcher", events=False)
    refused = []

    def unavailable(route) -> None:
        refused.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "5"}, body="busy")

    page.context.unroute("**/events/**")
    page.context.route("**/events/**", unavailable)
    for _ in range(100):  # 1 s, then 2 s between the page's attempts
        if len(refused) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(refused) >= 2, refused
    hear(page)  # the database is back
    newcomer = new_player("newcomer")
    seats.seat_take(table=table, player=newcomer, number=4, buy_in=100_00, reference="n")
    expect(page.locator(".seats .seat[data-seat='4']")).not_to_have_class(re.compile(r"\bfree\b"))
    expect(page.locator(".seats .seat[data-seat='4']")).to_contain_text("newcomer")
    assert page.evaluate("window.tableEvents.reconnects") >= 2


def test_chips_are_laid_out_on_the_page_and_sent_once_they_pause(pages) -> None:
    """A player's chips are the page's until they pause (then every seat sees them, the
    player's own seat at once) or until Deal, which carries them: a round of quick chips
    is one request. A chip the table refuses is refused on the page, as the server would."""
    salon(betting_seconds=30, max_banker=2000)
    alice, a = pages("alice")
    _bob, b = pages("bob")
    sit(a, 1)
    sit(b, 2)
    decline_the_cut(a, b)
    round = betting(a, b)
    posted: list[str] = []
    a.on("request", lambda r: posted.append(r.url.split("/")[-2]) if r.method == "POST" else None)
    a.locator("#chip-rack label.chip-2").click()  # 5.00
    a.locator(".spot-banker .spot-add").click()
    expect(a.locator(".seat[data-seat='1'] .seat-bets")).to_contain_text("€5.00")  # at once
    expect(b.locator(".seat[data-seat='1'] .seat-bets")).to_contain_text("€5.00")  # after a pause
    assert posted == ["layout"]
    assert {bet.kind: bet.stake for bet in round.plays.get(player=alice).bets.all()} == {
        "banker": 500
    }
    # Quick chips, one above the maximum (refused on the page, in the server's words), Deal.
    posted.clear()
    a.evaluate(
        """() => { window.pressedAt = []; document.addEventListener("click", (event) => {
          if (event.target.closest(".spot-add, #btn-deal"))
            window.pressedAt.push(performance.now());
        }, true); }"""
    )
    for _ in range(4):
        a.locator(".spot-banker .spot-add").click()
    expect(a.locator("#board .form-errors")).to_contain_text("above the table maximum")
    expect(a.locator(".spot-banker .spot-stake .amount")).to_contain_text("€20.00")
    a.locator("#btn-deal").click()
    expect(a.locator("#board-mine[data-my-decision='deal']")).to_have_count(1)
    settled(a)
    # One request: Deal carries the chips. Only a browser slower than the page's pause
    # (400 ms from the last chip taken, the third, to Deal) sends them on their own first.
    pressed = a.evaluate("window.pressedAt")
    if pressed[4] - pressed[2] < 350:
        assert posted == ["deal"], pressed
    else:
        assert posted in (["deal"], ["layout", "deal"]), (posted, pressed)
    play = round.plays.get(player=alice)
    assert play.decision == "deal" and play.stake_total == 2000
    expect(b.locator(".seat[data-seat='1'] .seat-bets")).to_contain_text("€20.00")
    expect(b.locator(".seat[data-seat='1']")).to_have_class("seat decided-deal")


def test_a_decision_answered_while_the_page_lacks_the_players_part_redraws_the_board(
    pages,
) -> None:
    """The answer to Deal is the player's part of the board (#board-mine). Should the page
    show a board without it when the answer comes, the whole board is fetched instead,
    with the decision on it; nothing breaks on the page. (Bob has not decided yet: the
    croupier does not deal the round before that board is drawn.)"""
    salon(betting_seconds=30)
    alice, a = pages("alice")
    _bob, b = pages("bob")
    errors: list[str] = []
    a.on("pageerror", lambda error: errors.append(str(error)))
    sit(a, 1)
    sit(b, 2)
    decline_the_cut(a, b)
    round = betting(a, b)
    a.locator(".spot-banker .spot-add").click()
    a.evaluate("document.getElementById('board-mine').remove()")
    a.locator("#btn-deal").click()
    expect(a.locator("#board-mine[data-my-decision='deal']")).to_have_count(1)
    assert round.plays.get(player=alice).decision == "deal"
    assert errors == []


def test_a_cut_passed_on_is_drawn_from_its_events_but_on_the_page_offered_it(pages) -> None:
    """A new shoe's cut passed on from seat to seat: the other pages move the offer's line
    and mark from the events alone, in their language; the page it is offered to fetches
    its board, for the offer's form."""
    salon(betting_seconds=60)  # each offer's time: none runs out here
    _alice, a = pages("alice")
    _bob, b = pages("bob")
    _carl, c = pages("carl", language="nl")
    for page, seat in ((a, 1), (b, 2), (c, 3)):
        sit(page, seat)
    expect(a.locator(".cut-offer")).to_be_visible()
    for page in (a, b, c):
        caught_up(page)
    boards = c.evaluate("window.tableEvents.boards")
    a.locator(".cut-offer form.inline button").click()  # No, thank you
    settled(a)
    expect(b.locator(".cut-offer")).to_be_visible()
    passed = list(
        TableEvent.objects.filter(table__slug="salon", kind__in=["cut_declined", "cut_offer"])
        .order_by("-seq")
        .values_list("seq", flat=True)[:2]
    )
    expect(c.locator(f".full-table[data-event-seq='{max(passed)}']")).to_have_count(1)
    caught_up(c)
    with translation.override("nl"):
        offered = gettext("A new shoe: the cut is offered to seat %(seat)s.") % {"seat": 2}
        expect(c.locator(".betting-timer.closed")).to_have_text(offered)
        expect(c.locator(".seat[data-seat='2'] .seat-cut")).to_have_text(gettext("Offered the cut"))
    expect(c.locator(".seats .seat-cut")).to_have_count(1)
    assert c.evaluate("window.tableEvents.boards") == boards
    assert not set(passed) & set(c.evaluate("window.tableEvents.fetchedFor"))
    expect(a.locator(".cut-offer")).to_have_count(0)
    expect(a.locator(".seat[data-seat='2'] .seat-cut")).to_be_visible()
    # Passed on again, to carl: his page fetches its board, with the form.
    caught_up(b)
    b.locator(".cut-offer form.inline button").click()
    settled(b)
    expect(c.locator(".cut-offer")).to_be_visible()
    assert c.evaluate("window.tableEvents.boards") > boards
    expect(a.locator(".seat[data-seat='3'] .seat-cut")).to_be_visible()
    expect(a.locator(".seats .seat-cut")).to_have_count(1)
