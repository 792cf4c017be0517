"""A round of the protocol plays again as it was dealt: the cards turn in deal order and
nothing of the outcome shows before the last card, on opening the page and after "Play
again"; at once with reduced motion; as it ended without a script; on a phone without
sideways scrolling. The pictures go to ``<var>/screenshots/`` with the gallery's.

The frames are sampled as tests/e2e/test_reveal.py samples the table's reveal
(reveal_sampler.js, armed before the page draws the board); replay_order.js notes when
each card turned face up."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from baccarat import engine
from baccarat.models import Round, Shoe, Table
from baccarat.play import betting, rounds
from tests.e2e.browsers import new_player, signed_in_page
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db(transaction=True)

HERE = Path(__file__).parent
SAMPLER = HERE / "reveal_sampler.js"
ORDER = HERE / "replay_order.js"
GALLERY = settings.VAR_DIR / "screenshots"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "screen": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SCREENS = pytest.mark.parametrize("screen", SIZES)
PLAYER_9_TO_8 = "2S KD 3H 5C 4D 3C"  # six cards, Player wins 9 to 8


@pytest.fixture
def shoe_table(db):
    return Table.objects.create(
        name="Golden Shoe", slug="golden-shoe", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )


def dealt_round(player, table: Table, codes: str) -> Round:
    """A round ``player`` played at ``table`` (10.00 on Player, 5.00 on Tie), its shoe
    dealing ``codes`` first."""
    wallet_rebuy(player=player, table=table, amount=100_00, reference=f"{player.username}-in")
    order = [*engine.cards_from_codes(codes), *engine.fresh_cards(8)[:300]]
    shoe = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
    Shoe.objects.create(
        table=table,
        player=player,
        number=1,
        state=shoe.to_state(),
        commitment=shoe.commitment(),
        cut_position=0,
    )
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind="player", amount=1000)
    betting.bet_place(round=round, player=player, kind="tie", amount=500)
    return rounds.round_play(round_id=round.pk).round


def replay_page(browser, live_server, user, screen: str = "desktop", **options):
    """The player's browser, the samplers in every page, armed as the board starts dealing
    (before the page draws it: replay_order.js)."""
    page = signed_in_page(
        browser, live_server.url, user, timeout=20_000, locale="en-US", **SIZES[screen], **options
    )
    page.context.add_init_script(path=SAMPLER)
    page.context.add_init_script(path=ORDER)
    return page


def replay_url(round: Round) -> str:
    return reverse("baccarat:protocol_replay", args=[round.pk])


def frames_until_revealed(page) -> list[dict]:
    expect(page.locator("#board[data-revealed]")).to_have_count(1, timeout=30_000)
    page.wait_for_timeout(100)  # a few frames of the end
    return page.evaluate("window.revealSampler.frames()")


def assert_the_outcome_waits(frames: list[dict], *, since: float = 0) -> None:
    """From ``since`` on: the last card is face down for a while, then up; no frame before
    it is up shows anything of the outcome; at the end all of it shows."""
    frames = [f for f in frames if f["t"] >= since and f["cards"]]
    down = [i for i, f in enumerate(frames) if not f["lastUp"]]
    assert down, "the last card was never face down: no reveal"
    turned = frames[down[-1] + 1]["t"]
    early = [f for f in frames if f["t"] < turned]
    assert len(early) > 20, len(early)  # the page was looked at during the reveal
    spoilers = [
        (round(f["t"] - early[0]["t"]), f["cause"], f["shown"]) for f in early if f["shown"]
    ]
    assert not spoilers, f"the outcome showed before the last card turned: {spoilers[:5]}"
    assert not [f for f in early if f["announced"]], "announced before the last card"
    end = frames[-1]
    assert {"banner", "spot result", "winning hand", "status figures"} <= set(end["shown"]), end
    assert [s for s in end["shown"] if s.startswith("ring")], end
    assert end["announced"].startswith("Player: Two of spades, Three of hearts, Four of diamonds")


def assert_dealt_in_order(page, count: int) -> None:
    turned = page.evaluate("window.cardOrder.turned()")
    times = [turned[str(step)] for step in range(count)]  # every card turned
    # One after another (a step is 0.7 s: six cards take some 3.5 s from the first).
    assert all(a < b for a, b in itertools.pairwise(times)), turned
    assert times[-1] - times[0] > (count - 1) * 500, times


@SCREENS
def test_the_round_plays_again_as_it_was_dealt(browser, live_server, shoe_table, screen):
    rosa = new_player(f"rosa-{screen}")
    round = dealt_round(rosa, shoe_table, PLAYER_9_TO_8)
    assert (round.outcome, round.reserved_cards) == ("player", "2SKD3H5C4D3C")
    page = replay_page(browser, live_server, rosa, screen)
    page.goto(replay_url(round))
    frames = frames_until_revealed(page)
    assert_the_outcome_waits(frames)
    assert_dealt_in_order(page, 6)
    banner = page.locator(".result-banner")
    expect(banner.locator(".croupier-call")).to_contain_text("Player wins, 9 to 8")
    expect(banner.locator(".score")).to_have_text("Player 9 – Banker 8")
    expect(page.locator(".spot-player .spot-result")).to_have_text("Paid €20.00")
    expect(page.locator(".spot-tie .spot-result")).to_have_text("Lost")
    expect(page.locator(".replay-figures")).to_contain_text("+€5.00")
    expect(page.locator(".replay-shoe code.hash")).to_have_text(round.shoe.commitment)
    # A phone upright: nothing wider than the screen.
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{wide}px sideways"
    # The picture once the chips have moved (a lost stake to the house, the payout in).
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GALLERY / f"replay-en-{screen}.png"), full_page=True)
    found = Axe().run(page).response["violations"]
    assert found == [], [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in found]
    page.context.close()


def test_play_again_turns_the_cards_again_and_holds_the_outcome_back(
    browser, live_server, shoe_table
):
    rosa = new_player("rosa")
    round = dealt_round(rosa, shoe_table, PLAYER_9_TO_8)
    page = replay_page(browser, live_server, rosa)
    page.goto(replay_url(round))
    expect(page.locator("#board[data-revealed]")).to_have_count(1, timeout=30_000)
    again = page.get_by_role("button", name="Play again")
    expect(again).to_be_visible()
    page.evaluate("window.revealSampler.arm()")
    again.click()
    since = page.evaluate("window.cardOrder.since()")
    assert since > 0
    frames = frames_until_revealed(page)
    assert_the_outcome_waits(frames, since=since)
    assert_dealt_in_order(page, 6)
    # Pressed in the middle of a reveal, it starts over from the first card.
    page.evaluate("window.revealSampler.arm()")
    again.click()
    page.wait_for_timeout(1500)
    again.click()
    since = page.evaluate("window.cardOrder.since()")
    assert_the_outcome_waits(frames_until_revealed(page), since=since)
    assert_dealt_in_order(page, 6)
    page.context.close()


@pytest.mark.parametrize("how", ["system", "casino"])
def test_reduced_motion_shows_the_round_at_once(browser, live_server, shoe_table, how):
    rosa = new_player(f"rosa-{how}")
    if how == "casino":
        type(rosa).objects.filter(pk=rosa.pk).update(reduced_motion=True)
    round = dealt_round(rosa, shoe_table, PLAYER_9_TO_8)
    options = {"reduced_motion": "reduce"} if how == "system" else {}
    page = replay_page(browser, live_server, rosa, **options)
    page.goto(replay_url(round))
    expect(page.locator("#board[data-revealed]")).to_have_count(1)
    frames = [f for f in page.evaluate("window.revealSampler.frames()") if f["cards"]]
    # No card is ever face down; once the page is parsed (before, the parser may not have
    # reached the banner yet), every frame shows the board whole: the cards and the outcome.
    assert frames and all(f["lastUp"] for f in frames), frames[:3]
    parsed = [f for f in frames if not f["parsing"]]
    assert parsed and all("banner" in f["shown"] for f in parsed), parsed[:3]
    expect(page.locator(".result-banner")).to_be_visible()
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    page.context.close()


def test_without_a_script_the_page_shows_the_round_dealt(browser, live_server, shoe_table):
    rosa = new_player("rosa")
    round = dealt_round(rosa, shoe_table, PLAYER_9_TO_8)
    page = signed_in_page(
        browser, live_server.url, rosa, locale="en-US", java_script_enabled=False, **DESKTOP
    )
    page.goto(replay_url(round))
    expect(page.locator("#board .playing-card")).to_have_count(6)
    for card in page.locator("#board .playing-card .card-front").all():
        expect(card).to_be_visible()
    expect(page.locator(".result-banner")).to_be_visible()
    expect(page.locator(".spot-player .spot-result")).to_have_text("Paid €20.00")
    expect(page.locator("#replay-again")).to_be_hidden()
    page.context.close()
