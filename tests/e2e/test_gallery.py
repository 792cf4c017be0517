"""Every table in every state, seen: a screenshot of the single-seat table (betting, the
reveal, the result, the rebuy) and of the full table (the cut offer, betting, the chat,
the reveal, the result) in English, German, Italian and Dutch, on a desktop screen and on
a phone held upright, into one folder (``<var>/screenshots/``, which CI leaves on the
machine); and axe-core finds no violation of any impact on any of them but the reveal
(a picture between two states, whose cards are still turning)."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import expect

from baccarat import engine
from baccarat.full import chat, croupier, seats
from baccarat.models import Round, Shoe, Table
from tests.e2e.browsers import new_player, signed_in_page
from wallet import services as wallet

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "de", "it", "nl"]
GALLERY = settings.VAR_DIR / "screenshots"

# The points inside an element (its middle, and halfway to its left and top edges) at
# which something else lies on top of it.
COVERED = """el => {
  const r = el.getBoundingClientRect();
  const points = [[r.left + r.width / 2, r.top + r.height / 2],
    [r.left + r.width / 4, r.top + r.height / 2], [r.left + r.width / 2, r.top + r.height / 4]];
  return points.filter(([x, y]) => !el.contains(document.elementFromPoint(x, y)));
}"""

# The seats whose Deal or Pass (or "Deciding…") and what the last deal brought them lie
# over each other.
STATUS_OVER_NET = """() => Array.from(document.querySelectorAll(".seat")).filter(seat => {
  const status = seat.querySelector(".seat-status"), net = seat.querySelector(".seat-net");
  if (!status || !net || !status.textContent.trim()) return false;
  // In the seat's own layout, before it is tilted along the rail.
  const box = el => ({left: el.offsetLeft, top: el.offsetTop,
    right: el.offsetLeft + el.offsetWidth, bottom: el.offsetTop + el.offsetHeight});
  const a = box(status), b = box(net);
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}).map(seat => seat.dataset.seat)"""

AXE = Axe()
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    # Playwright's "iPhone 12", upright on the whole screen, at half its pixel density
    # (the pictures stay small; the layout is the same).
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "screen": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}


def violations(page) -> list[str]:
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(node["target"][0]) for node in v["nodes"][:5])
        for v in results.response["violations"]
    ]


class Gallery:
    """Takes a table's pictures in one language and size; keeps what axe finds."""

    def __init__(self, page, language: str, size: str) -> None:
        self.page = page
        self.suffix = f"{language}-{size}"
        self.problems: dict[str, list[str]] = {}
        GALLERY.mkdir(parents=True, exist_ok=True)

    def shoot(self, name: str, *, audit: bool = True) -> None:
        self.page.screenshot(path=str(GALLERY / f"{name}-{self.suffix}.png"))
        if audit:
            found = violations(self.page)
            if found:
                self.problems[name] = found


def browser_page(browser, base: str, size: str, user):
    return signed_in_page(browser, base, user, timeout=20_000, **SIZES[size])


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_single_seat_table_in_every_state(browser, live_server, language, size):
    player = new_player(f"solo-{language}-{size}", language)
    table = Table.objects.create(
        name="Golden Baccarat", slug="golden", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )
    wallet.wallet_rebuy(player=player, table=table, amount=250_00, reference="gallery")
    # The first coup: a banker win with three cards each.
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
    page = browser_page(browser, live_server.url, size, player)
    gallery = Gallery(page, language, size)
    page.goto("/tables/golden/")
    expect(page.locator("html")).to_have_attribute("lang", language)

    page.locator("#chip-rack label.chip-2").click()
    for _ in range(2):
        page.locator(".spot-banker .spot-add").click()
    page.locator("#chip-rack label.chip-1").click()
    page.locator(".spot-tie .spot-add").click()
    expect(page.locator("#total-stake")).not_to_have_text(re.compile(r"(^|\D)0[,.]00"))
    gallery.shoot("single-betting")

    page.locator("#btn-deal").click()
    expect(page.locator(".dealing .playing-card")).to_have_count(6)
    page.wait_for_timeout(1_600)  # two cards turned, the third on its way
    gallery.shoot("single-reveal", audit=False)
    expect(page.locator("#board.revealed .result-banner")).to_be_visible()
    gallery.shoot("single-result")

    page.locator("#buy-in summary").click()
    expect(page.locator("#buy-in .buy-in-presets")).to_be_visible()
    page.locator("#buy-in").scroll_into_view_if_needed()
    gallery.shoot("single-rebuy")
    page.context.close()
    assert gallery.problems == {}, gallery.problems


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_full_table_in_every_state(browser, asgi_server, language, size):
    table = Table.objects.create(
        name="Salon Privé",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
        betting_seconds=60,
        cycle_seconds=2,
    )
    player = new_player(f"ines-{language}-{size}", language)
    others = [new_player(name, "en") for name in ("marco", "sophie", "jan")]
    for number, who in zip((1, 3, 5, 7), (player, *others), strict=True):
        seats.seat_take(
            table=table, player=who, number=number, buy_in=200_00, reference=f"g{number}"
        )
    page = browser_page(browser, asgi_server, size, player)
    gallery = Gallery(page, language, size)
    page.goto("/tables/salon/")
    expect(page.locator("html")).to_have_attribute("lang", language)

    # A new shoe: the cut is offered to seat 1, this player.
    expect(page.locator(".cut-offer")).to_be_visible()
    settled(page)
    gallery.shoot("full-cut-offer")
    with page.expect_response("**/cut/"):
        page.locator(".cut-offer form.inline button").click()  # no, thank you
    settled(page)
    for other in others:
        croupier.cut_decide(table=table, player=other, accept=False)

    # Betting: the others' chips and decisions, this player's own chips.
    expect(page.locator("#board[data-phase='betting'] #bet-form .spot-banker")).to_be_visible()
    for other, kind, amount in zip(
        others, ("banker", "player", "tie"), (25_00, 10_00, 5_00), strict=True
    ):
        croupier.full_bet(table=table, player=other, kind=kind, amount=amount, take_back=False)
    croupier.full_decide(table=table, player=others[0], deal=True)
    settled(page)
    page.locator("#chip-rack label.chip-2").click()
    page.locator(".spot-banker .spot-add").click()
    settled(page)
    expect(page.locator(".seat[data-seat='3'] .seat-bets")).to_be_visible()
    expect(page.locator(".spot-banker .spot-stake .amount")).to_be_visible()
    gallery.shoot("full-betting")

    chat.chat_post(table=table, player=others[1], text="Bonne chance à tous !")
    bubble = page.locator(".seat .chat-bubble")
    expect(bubble).to_be_visible()
    # The message lies whole over the spots above its seat: nothing of the felt covers it.
    assert bubble.evaluate(COVERED) == []
    if page.locator("#chat").is_hidden():
        page.locator(".chat-toggle").first.click()
    expect(page.locator("#chat .chat-message")).to_have_count(1)
    gallery.shoot("full-chat")
    page.locator("#chat .chat-close").click()
    expect(page.locator("#chat")).to_be_hidden()

    # Everyone has decided: the croupier deals; the cards turn in every browser.
    for other in others[1:]:
        croupier.full_decide(table=table, player=other, deal=True)
    page.locator("#btn-deal").click()
    expect(page.locator(".dealing .playing-card").first).to_be_attached()
    page.wait_for_timeout(1_600)
    gallery.shoot("full-reveal", audit=False)
    round = Round.objects.filter(table=table, shared=True).order_by("pk").first()
    expect(page.locator(f"#board.revealed[data-round='{round.pk}']")).to_have_count(1)
    expect(page.locator(".result-banner")).to_be_visible()
    gallery.shoot("full-result")
    assert page.locator(".seat .seat-net").count() == 4
    assert page.evaluate(STATUS_OVER_NET) == []
    page.context.close()
    assert gallery.problems == {}, gallery.problems
