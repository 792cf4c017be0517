"""Nothing of a round's outcome reaches the eye before its last card is face up.

A sampler in the page (an init script: the page's Content-Security-Policy does not apply
to it) looks at the page on every animation frame, every 10 ms and after every change of
the DOM, and notes what a player could see: the last card turned or not, and whether any
part of the outcome shows (the banner, a spot's result and the winning spot's ring, the
winning hand, a seat's net, the figures of the status bar, the statistics, the buy-in
panel opening, the announcer, the page's title). A frame that shows any of it before the
last card is face up fails the test, whichever browser, screen or motion setting.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from baccarat import engine
from baccarat.models import Round, Shoe, Table
from wallet.services import wallet_open_for_new_player, wallet_rebuy

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENS = pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])

# Deal order: Player, Banker, Player, Banker, then the third cards.
PLAYER_9_TO_8 = "2S KD 3H 5C 4D 3C"  # six cards, Player wins 9 to 8
BANKER_NATURAL = "KS 9D KH KC"  # Banker wins 9 to 0
BANKER_7_TO_3 = "KS 2D KH 5C 3D"  # five cards, Banker wins 7 to 3

SAMPLER = Path(__file__).with_name("reveal_sampler.js")


@dataclass
class Reveal:
    """What the sampler saw of one round's board."""

    frames: list[dict]
    turned: float  # when its last card was face up for good (ms, the page's clock)

    @property
    def first(self) -> dict:
        return self.frames[0]


def open_context(browser, base_url: str, user, *, screen=DESKTOP, reduced_motion=None):
    client = Client()
    client.force_login(user)
    options = {"base_url": base_url, "locale": "en-US", "viewport": screen}
    if reduced_motion:
        options["reduced_motion"] = reduced_motion
    context = browser.new_context(**options)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base_url,
            }
        ]
    )
    context.add_init_script(path=SAMPLER)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def player(name: str, *, reduced_motion: bool = False):
    user = get_user_model().objects.create_user(
        username=name, language="en", reduced_motion=reduced_motion
    )
    wallet_open_for_new_player(player=user)
    return user


def rig(table: Table, codes: str, owner=None) -> None:
    """The open shoe at ``table`` (``owner``'s own at a single-seat table) deals ``codes``
    first, one coup after another."""
    order = [*engine.cards_from_codes(codes), *engine.fresh_cards(8)[:300]]
    shoe = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
    Shoe.objects.create(
        table=table,
        player=owner,
        number=1,
        state=shoe.to_state(),
        commitment=shoe.commitment(),
        cut_position=0,
    )


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def revealed(page, round_id: int) -> Reveal:
    """Waits for the round's reveal to end, then reads what the sampler saw since it was
    armed: the frames of the round's boards, and when the last card was face up for good
    (after its last face-down frame; at once when it never was)."""
    round_board = f":is([data-round='{round_id}'], :has(input[name=after][value='{round_id}']))"
    expect(page.locator(f"#board[data-revealed]{round_board}")).to_have_count(1, timeout=30_000)
    page.wait_for_timeout(100)  # a few frames of the end
    seen = page.evaluate("window.revealSampler.frames()")
    first = next(i for i, f in enumerate(seen) if f["round"] == str(round_id) and f["cards"])
    frames = [f for f in seen[first:] if f["round"] == str(round_id)]
    down = [i for i, f in enumerate(frames) if not f["lastUp"]]
    turned = frames[down[-1] + 1]["t"] if down else frames[0]["t"]
    return Reveal(frames=frames, turned=turned)


def assert_nothing_spoiled(reveal: Reveal, *, before_deal: dict, announced: str) -> None:
    """No frame before the last card is face up shows anything of the outcome, nor do the
    statistics go blank; the page was looked at every 50 ms or more often; at the end the
    outcome shows."""
    early = [f for f in reveal.frames if f["t"] < reveal.turned]
    assert early, (
        "no frame of the reveal before its last card turned",
        [(f["board"], f["cards"], f["lastUp"], f["cause"]) for f in reveal.frames[:5]],
    )
    spoilers = [
        (round(f["t"] - reveal.first["t"]), f["cause"], f["shown"]) for f in early if f["shown"]
    ]
    assert not spoilers, f"the outcome showed before the last card turned: {spoilers[:5]}"
    end = reveal.frames[-1]
    for figure in ("stack", "available", "lastResult"):
        # Before the last card a figure shows what it showed before the deal (or "…"), not
        # what the result makes it; and it never goes blank.
        if end[figure] != before_deal[figure]:
            told = [round(f["t"] - reveal.first["t"]) for f in early if f[figure] == end[figure]]
            assert not told, f"{figure} {end[figure]!r} showed before the last card: {told[:5]}"
        assert all(f[figure] for f in early) or not before_deal[figure], figure
    told = [round(f["t"] - reveal.first["t"]) for f in early if f["announced"] == announced]
    assert not told, f"announced before the last card turned: {told[:5]}"
    assert not [f for f in early if f["buyInOpen"] and not before_deal["buyInOpen"]]
    assert {f["title"] for f in reveal.frames} == {before_deal["title"]}
    blank = [round(f["t"] - reveal.first["t"]) for f in reveal.frames if f["statsBlank"]]
    assert not blank, f"the statistics went blank at {blank[:5]} ms"
    # The sampler looks at every frame the page draws and every 10 ms besides; a longer gap
    # is a time the renderer did not run (the machine was busy: two cores for the server
    # and the browsers), when it drew nothing either.
    times = [f["t"] for f in early] + [reveal.turned]
    gaps = sorted(b - a for a, b in itertools.pairwise(times))
    assert gaps[len(gaps) * 95 // 100] <= 50, f"the page was looked at too seldom: {gaps[-10:]}"
    assert {"banner", "status figures"} <= set(end["shown"]) or "seat net" in end["shown"]
    assert "statistics" in end["shown"], end


def in_words(page, call: str, score: str) -> None:
    """The banner: the croupier's call, the score in words; no score written as odds."""
    banner = page.locator(".result-banner")
    expect(banner.locator(".croupier-call")).to_contain_text(call)
    expect(banner.locator(".score")).to_have_text(score)
    for text in (banner.inner_text(), page.locator("#board .status-bar").inner_text()):
        assert not re.search(r"\b[0-9]:[0-9]\b", text), text


def status_now(page) -> dict:
    return page.evaluate(
        """() => {
          const text = (id) => {
            const el = document.getElementById(id);
            return el ? el.innerText.trim() : "";
          };
          const buyIn = document.getElementById("buy-in");
          return {
            stack: text("stack"), available: text("available"), lastResult: text("last-outcome"),
            buyInOpen: !!buyIn && buyIn.open, title: document.title
          };
        }"""
    )


@pytest.fixture
def shoe_table(db):
    return Table.objects.create(
        name="Golden Shoe",
        slug="golden-shoe",
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )


def lay_out(page, *spots: str) -> None:
    for spot in spots:
        page.locator(f".spot-{spot} .spot-add").click()


def deal(page, table: Table) -> tuple[dict, Round]:
    """DEAL, with the sampler armed just before; the status as it was and the round."""
    settled(page)
    before = status_now(page)
    page.evaluate("window.revealSampler.arm()")
    with page.expect_response(lambda answer: answer.url.endswith("/deal/")):
        page.locator("#btn-deal").click()
    return before, Round.objects.filter(table=table).latest("pk")


@SCREENS
def test_the_first_deal_after_a_page_load_shows_nothing_before_its_last_card(
    browser, live_server, shoe_table, screen
):
    """A Player win (six cards): the ring of the Player spot, its payout, the Tie bet lost,
    the banner, the new stack and the statistics all wait for the last card."""
    rosa = player("rosa")
    wallet_rebuy(player=rosa, table=shoe_table, amount=100_00, reference="rosa")
    rig(shoe_table, PLAYER_9_TO_8, owner=rosa)
    page = open_context(browser, live_server.url, rosa, screen=screen)
    page.goto("/tables/golden-shoe/")
    lay_out(page, "player", "tie")
    before, round = deal(page, shoe_table)
    assert (round.outcome, len(round.reserved_cards) // 2) == ("player", 6)
    reveal = revealed(page, round.pk)
    assert [s for s in reveal.frames[-1]["shown"] if s.startswith("ring")]
    assert_nothing_spoiled(
        reveal, before_deal=before, announced=page.locator("#announcer").inner_text().strip()
    )
    # The result in words, the winner first, and no score written as odds.
    in_words(page, "Player wins, 9 to 8", "Player 9 – Banker 8")
    expect(page.locator("#last-outcome")).to_contain_text("Player 9 – Banker 8 · ")
    page.context.close()


def test_a_screen_reader_hears_each_card_as_it_turns(browser, live_server, shoe_table):
    """The cards' names (for a screen reader) are out of the accessibility tree until each
    card turns: the last card's name cannot tell the outcome before the reveal does."""
    rosa = player("rosa")
    wallet_rebuy(player=rosa, table=shoe_table, amount=100_00, reference="rosa")
    rig(shoe_table, PLAYER_9_TO_8, owner=rosa)
    page = open_context(browser, live_server.url, rosa)
    page.goto("/tables/golden-shoe/")
    lay_out(page, "player")
    with page.expect_response(lambda answer: answer.url.endswith("/deal/")):
        page.locator("#btn-deal").click()
    names = page.locator("#board .playing-card .card-front .visually-hidden")
    expect(names).to_have_count(6)
    last = "#board .playing-card.step-5 .card-front .visually-hidden"
    hidden = page.evaluate(f"getComputedStyle(document.querySelector({last!r})).visibility")
    assert hidden == "hidden"
    expect(page.locator("#board[data-revealed]")).to_have_count(1)
    shown = page.evaluate(f"getComputedStyle(document.querySelector({last!r})).visibility")
    assert shown == "visible"
    page.context.close()


@SCREENS
def test_a_deal_after_a_rebuy_shows_nothing_before_its_last_card(
    browser, live_server, shoe_table, screen
):
    """All in on Player, the Banker's natural takes it (the buy-in panel opens, after the
    reveal); a rebuy, and the next DEAL spoils nothing either."""
    sara = player("sara")
    wallet_rebuy(player=sara, table=shoe_table, amount=5_00, reference="sara")
    rig(shoe_table, BANKER_NATURAL + " " + BANKER_7_TO_3, owner=sara)
    page = open_context(browser, live_server.url, sara, screen=screen)
    page.goto("/tables/golden-shoe/")
    page.locator("#chip-rack label.chip-2").click()  # 5
    lay_out(page, "player")
    before, lost = deal(page, shoe_table)
    reveal = revealed(page, lost.pk)
    assert_nothing_spoiled(
        reveal, before_deal=before, announced=page.locator("#announcer").inner_text().strip()
    )
    assert reveal.frames[-1]["buyInOpen"]
    page.locator("#buy-in .buy-in-presets button").first.click()
    settled(page)
    page.locator("#chip-rack label.chip-1").click()
    lay_out(page, "banker")
    before, won = deal(page, shoe_table)
    assert won.outcome == "banker"
    reveal = revealed(page, won.pk)
    assert [s for s in reveal.frames[-1]["shown"] if s.startswith("ring")]
    assert_nothing_spoiled(
        reveal, before_deal=before, announced=page.locator("#announcer").inner_text().strip()
    )
    page.context.close()


@pytest.mark.parametrize(
    ("motion", "screen"),
    [("preference", DESKTOP), ("preference", PHONE), ("system", DESKTOP), ("system", PHONE)],
)
def test_with_reduced_motion_the_whole_result_shows_at_once(
    browser, live_server, shoe_table, motion, screen
):
    """The casino's own preference or the system's: the result is all there with the
    answer's first frame, and the statistics never go blank."""
    tina = player("tina", reduced_motion=motion == "preference")
    wallet_rebuy(player=tina, table=shoe_table, amount=100_00, reference="tina")
    rig(shoe_table, PLAYER_9_TO_8 + " " + BANKER_7_TO_3, owner=tina)
    page = open_context(
        browser,
        live_server.url,
        tina,
        screen=screen,
        reduced_motion="reduce" if motion == "system" else None,
    )
    page.goto("/tables/golden-shoe/")
    lay_out(page, "player", "tie")
    for _coup in range(2):
        before, round = deal(page, shoe_table)
        reveal = revealed(page, round.pk)
        first = reveal.first
        assert first["lastUp"], first
        assert {"banner", "spot result", "status figures", "statistics"} <= set(first["shown"])
        assert first["lastResult"] != before["lastResult"], first
        assert not [f for f in reveal.frames if f["statsBlank"]], "the statistics went blank"
        assert page.locator("#announcer").inner_text().strip()
        settled(page)
    page.context.close()


def test_a_full_table_round_shows_nothing_before_its_last_card_in_any_browser(browser, asgi_server):
    """Three seated players, two on a desktop and one on a phone; two deal, the third
    passes. Every browser sees the cards come and turn, and nothing of the outcome
    (banner, seat nets, stack, statistics, announcer) before the last one is face up."""
    from baccarat.full import seats

    salon = Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        betting_seconds=10,
        cycle_seconds=3,
    )
    rig(salon, PLAYER_9_TO_8)
    pages = {}
    for number, (name, screen) in enumerate(
        [("alice", DESKTOP), ("bob", PHONE), ("carl", DESKTOP)], start=1
    ):
        user = player(name)
        seats.seat_take(table=salon, player=user, number=number, buy_in=100_00, reference=name)
        pages[name] = open_context(browser, asgi_server, user, screen=screen)
        pages[name].goto("/tables/salon/")
    # A round that all three sat down before (the first may have opened for alice alone).
    for page in pages.values():
        expect(page.locator("#board[data-phase='betting'] #bet-form .spot-player")).to_be_visible(
            timeout=30_000
        )
    for name, spot in (("alice", "player"), ("bob", "banker")):
        page = pages[name]
        page.locator(f".spot-{spot} .spot-add").click()
        settled(page)
        page.locator("#btn-deal").click()
        expect(page.locator(".seat.mine.decided-deal")).to_have_count(1)
        settled(page)
    round = Round.objects.filter(table=salon, plays__decision="deal").distinct().get()
    before = {}
    for name, page in pages.items():
        expect(page.locator(".seat[data-seat='2'].decided-deal")).to_have_count(1)
        settled(page)
        before[name] = status_now(page)
        page.evaluate("window.revealSampler.arm()")
    # Carl passes: the cards come to every browser.
    pages["carl"].locator("#btn-pass").click()
    for name, page in pages.items():
        reveal = revealed(page, round.pk)
        assert "seat net" in reveal.frames[-1]["shown"], name
        in_words(page, "Player wins, 9 to 8", "Player 9 – Banker 8")
        assert_nothing_spoiled(
            reveal,
            before_deal=before[name],
            announced=page.locator("#announcer").inner_text().strip(),
        )
    for page in pages.values():
        page.context.close()
