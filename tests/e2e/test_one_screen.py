"""One screen for a round (seed 000: the statistics at the left of the table). At 1280 × 800
and on a phone held upright, at the single-seat table and at the full table, in every
language, before and after a round, what a round needs is on the screen without
scrolling: the hands, every spot, the chip rack, Deal (and Pass), the timer, the result,
at the full table all eight seats and the others' stakes written on them (none of them
under the chips and buttons, which on a phone stay over the page at the bottom), and
beside the felt on a desktop the bead plate and the big road. Nothing is wider than the
screen and no word breaks inside itself; the roads open at their newest column; the
phone's menu folds (and opens without a script); the chat lies over the table without
moving the felt; a phone on its side scrolls, with nothing cut off or overlapping."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat import engine
from baccarat.full import croupier, seats
from baccarat.models import Round, Shoe, Table
from baccarat.play import betting, rounds
from tests.e2e import browsers
from tests.e2e.test_screenshot import IPHONE_12
from wallet import services as wallet

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "de", "it", "nl"]  # German's words are the longest
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 800}}, "phone": IPHONE_12}
LANDSCAPE = {
    **IPHONE_12,
    "viewport": {"width": 844, "height": 390},
    "screen": {"width": 844, "height": 390},
}
# A player natural against a banker's nought, then the other way round: every coup a new
# column of the big road, so that it is wider than its box.
PLAYER_NATURAL, BANKER_NATURAL = "9S TH JD QC", "TS 9H JC QD"
SEEDED_COUPS = 30

# Each word of the page's visible text (spaces and hyphens part words; a no-break space
# does not) on one line: a word whose letters lie on two lines was broken inside itself.
BROKEN_WORDS = r"""() => {
  const broken = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(".visually-hidden, script, style, template, noscript, option")) continue;
    if (!el.getClientRects().length) continue;
    for (const word of node.data.matchAll(/[^ \t\n\r\f\u2028\u2029\u200b-]+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set();
      for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
      if (tops.size > 1) broken.push(word[0] + " (" + el.className + ")");
    }
  }
  return broken;
}"""


# What a round needs that lies above the chips and buttons, and must not lie under them.
UNDER_THE_CONTROLS = {"hands", "spot", "result", "timer"}
# What must not lie under the chips and buttons anywhere: no part of its box in theirs.
CLEAR_OF_THE_CONTROLS = {"seat", "stake on a seat"}
# What is written, not only read out: wider than a visually hidden text's one pixel.
WRITTEN = {"stake on a seat"}


def overlap(box: dict, other: dict) -> bool:
    """Whether two boxes share more than their edges (half a pixel of slack)."""
    return (
        box["x"] + box["width"] > other["x"] + 0.5
        and other["x"] + other["width"] > box["x"] + 0.5
        and box["y"] + box["height"] > other["y"] + 0.5
        and other["y"] + other["height"] > box["y"] + 0.5
    )


def new_player(username: str, language: str):
    user = browsers.new_player(username, language)
    user.reduced_motion = True  # the result at once: what is measured is the result
    user.save()
    return user


def browser_page(browser, base: str, options: dict, user):
    return browsers.signed_in_page(browser, base, user, timeout=20_000, **options)


def settled(page) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def speak(page, player, language: str) -> None:
    """The player's language is this one from the next page on."""
    player.language = language
    player.save(update_fields=["language"])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", language)
    settled(page)


def off_screen(page, what: dict[str, str]) -> list[str]:
    """What of ``what`` (name: selector, every element it finds) is missing or not wholly
    on the screen as it opens (scrolled to the top). Before a shoe's first coup its roads
    are a note that says so. At a full table another player's chip or the next round's
    opening can redraw the board while it is measured (a detached element has no box, a
    board half swapped stands taller than either): the screen as it rests is what counts,
    so a screen with a problem is measured again, a few times at most, and what stays
    wrong is reported."""
    for _ in range(3):
        found = measure_screen(page, dict(what))
        if not found:
            break
        settled(page)
        page.wait_for_timeout(300)
    return found


def measure_screen(page, what: dict[str, str]) -> list[str]:
    page.evaluate("window.scrollTo(0, 0)")
    if "bead plate" in what and page.locator("#shoe-stats .road-empty:visible").count():
        del what["bead plate"], what["big road"]
        what["no coups yet"] = "#shoe-stats .road-empty"
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    # On a phone the chips and buttons stay at the bottom of the screen, over the page.
    bar = page.locator("#table-controls:visible")
    controls = bar.bounding_box() if bar.count() else None
    found = []
    for name, selector in what.items():
        elements = page.locator(selector).all()
        if not elements:
            found.append(f"{name}: missing")
        for element in elements:
            box = element.bounding_box()
            inside = (
                box is not None
                and box["x"] >= -0.5
                and box["y"] >= -0.5
                and box["x"] + box["width"] <= width + 0.5
                and box["y"] + box["height"] <= height + 0.5
            )
            if not inside or (name in WRITTEN and box["width"] < 8):
                found.append(f"{name}: {box}")
                continue
            if not controls:
                continue
            if name in UNDER_THE_CONTROLS:
                covered = box["y"] + box["height"] > controls["y"] + 0.5
            else:
                covered = name in CLEAR_OF_THE_CONTROLS and overlap(box, controls)
            if covered:
                found.append(f"{name} under the chips and buttons: {box}, {controls}")
    return found


def felt_box(page) -> list[float]:
    """Where the felt lies on the page (not on the screen: scrolling does not move it)."""
    return page.locator(".felt").evaluate(
        "el => { const b = el.getBoundingClientRect();"
        " return [b.left + scrollX, b.top + scrollY, b.width, b.height]; }"
    )


def page_problems(page) -> list[str]:
    """Sideways scrolling of the page, words broken inside themselves, and roads that do
    not open at their newest column."""
    found = []
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if wide[0] > wide[1]:
        found.append(f"wider than the screen: {wide}")
    found += [f"broken: {word}" for word in page.evaluate(BROKEN_WORDS)]
    for box in page.locator("#shoe-stats .road-scroll:visible").all():
        left, shown, whole = box.evaluate("el => [el.scrollLeft, el.clientWidth, el.scrollWidth]")
        if left + shown < whole - 1:
            found.append(f"a road not at its newest column: {left} + {shown} < {whole}")
    return found


def what_a_round_needs(size: str, *, full: bool, result: bool) -> dict[str, str]:
    what = {
        "hands": ".felt .hands",
        "spot": "#bet-form .spot",
        "chip rack": "#chip-rack",
        "Deal": "#btn-deal",
    }
    if full:
        # Every seat too, with its player's stakes: all eight, free or taken.
        what |= {"Pass": "#btn-pass", "timer": ".betting-timer", "seat": ".seats .seat"}
        if not result:  # the others have bet: their amounts on their seats
            what["stake on a seat"] = ".seats .seat-bet.has-bet .seat-amount"
    if result:
        what["result"] = ".result-banner"
    if size == "desktop":
        # The panel from before the deal goes once the cards are turned (.before).
        what |= {
            "bead plate": "#shoe-stats .road-bead:not(.before .road-bead)",
            "big road": "#shoe-stats .road-big:not(.before .road-big)",
        }
    return what


def a_single_table_with_a_long_big_road(player) -> Table:
    """Golden Baccarat, the player's 250 € stack, and SEEDED_COUPS coups of its shoe played,
    Player and Banker by turns; the shoe goes on so."""
    table = Table.objects.create(
        name="Golden Baccarat", slug="golden", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )
    wallet.wallet_rebuy(player=player, table=table, amount=250_00, reference="one-screen")
    codes = " ".join([PLAYER_NATURAL, BANKER_NATURAL] * 30)
    order = [*engine.cards_from_codes(codes), *engine.fresh_cards(8)[:150]]
    dealer = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
    Shoe.objects.create(
        table=table,
        player=player,
        number=1,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=0,
    )
    for _ in range(SEEDED_COUPS):
        round = betting.round_open(table=table, player=player)
        betting.bet_place(round=round, player=player, kind="player", amount=100)
        rounds.round_play(round_id=round.pk)
    return table


@pytest.mark.parametrize("size", SIZES)
def test_a_round_at_the_single_seat_table_fits_one_screen(browser, live_server, size):
    player = new_player(f"solo-{size}", "en")
    a_single_table_with_a_long_big_road(player)
    page = browser_page(browser, live_server.url, SIZES[size], player)
    page.goto("/tables/golden/")
    problems: dict[str, list[str]] = {}
    for language in LANGUAGES:
        speak(page, player, language)
        page.locator("#chip-rack label.chip-2").click()
        page.keyboard.press("2")  # the chip on Banker
        expect(page.locator(".spot-banker.has-stake")).to_have_count(1)
        problems[f"{language}, before"] = off_screen(
            page, what_a_round_needs(size, full=False, result=False)
        ) + page_problems(page)
        page.locator("#btn-deal").click()
        expect(page.locator("#board.revealed .result-banner")).to_be_visible()
        settled(page)
        problems[f"{language}, after"] = off_screen(
            page, what_a_round_needs(size, full=False, result=True)
        ) + page_problems(page)
    page.context.close()
    assert {when: found for when, found in problems.items() if found} == {}


@pytest.mark.parametrize("size", SIZES)
def test_a_round_at_the_full_table_fits_one_screen(browser, asgi_server, size):
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
    player = new_player(f"ines-{size}", "en")
    others = [new_player(name, "en") for name in ("marco", "sophie", "jan")]
    for number, who in zip((1, 3, 5, 7), (player, *others), strict=True):
        seats.seat_take(
            table=table, player=who, number=number, buy_in=200_00, reference=f"one{number}"
        )
    page = browser_page(browser, asgi_server, SIZES[size], player)
    page.goto("/tables/salon/")
    # A new shoe: the cut is offered to this player (seat 1) first, then to the others.
    page.locator(".cut-offer form.inline button").click()  # no, thank you
    expect(page.locator(".cut-offer")).to_have_count(0)
    for other in others:
        croupier.cut_decide(table=table, player=other, accept=False)
    problems: dict[str, list[str]] = {}
    for language in LANGUAGES:
        speak(page, player, language)
        expect(page.locator("#board[data-phase='betting'] #bet-form .spot-banker")).to_be_visible()
        for other, kind in zip(others, ("banker", "player", "tie"), strict=True):
            croupier.full_bet(table=table, player=other, kind=kind, amount=500, take_back=False)
        page.locator("#chip-rack label.chip-2").click()
        page.keyboard.press("2")
        expect(page.locator(".spot-banker.has-stake")).to_have_count(1)
        expect(page.locator(".seats .seat-bet.has-bet")).to_have_count(4)  # theirs and mine
        settled(page)
        problems[f"{language}, before"] = off_screen(
            page, what_a_round_needs(size, full=True, result=False)
        ) + page_problems(page)
        for other in others:
            croupier.full_decide(table=table, player=other, deal=True)
        page.locator("#btn-deal").click()
        round = Round.objects.filter(table=table, shared=True).order_by("-pk").first()
        expect(
            page.locator(f"#board.revealed[data-round='{round.pk}'] .result-banner")
        ).to_be_visible()
        # The next round opens under the result: what a player sees between two rounds.
        expect(page.locator("#board[data-phase='betting'] #bet-form .spot-banker")).to_be_visible()
        settled(page)
        problems[f"{language}, after"] = off_screen(
            page, what_a_round_needs(size, full=True, result=True)
        ) + page_problems(page)

    # The chat opens over the page: the felt stays where it was, and closes again.
    settled(page)
    felt = felt_box(page)
    page.locator(".chat-toggle").click()
    expect(page.locator("#chat")).to_be_visible()
    expect(page.locator(".chat-toggle")).to_have_attribute("aria-expanded", "true")
    assert felt_box(page) == felt
    assert off_screen(page, {"chat": "#chat"}) == []
    page.keyboard.press("Escape")
    expect(page.locator("#chat")).to_be_hidden()
    expect(page.locator(".chat-toggle")).to_be_focused()
    assert felt_box(page) == felt
    page.context.close()
    assert {when: found for when, found in problems.items() if found} == {}


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_the_phone_menu_folds_and_opens(browser, live_server, script):
    player = new_player(f"menu-{script}", "de")
    player.is_staff = True  # the longest menu: Support too
    player.save()
    Table.objects.create(name="Golden Baccarat", slug="golden")
    page = browser_page(
        browser, live_server.url, {**IPHONE_12, "java_script_enabled": script}, player
    )
    page.goto("/tables/golden/")
    links = page.locator(".site-menu nav a, .site-menu nav button")
    expect(links).to_have_count(6)
    for link in links.all():
        expect(link).to_be_hidden()
    menu = page.locator(".site-menu > summary")
    assert off_screen(page, {"menu button": ".site-menu > summary"}) == []
    menu.click()
    for link in links.all():
        expect(link).to_be_visible()
    assert off_screen(page, {"menu": ".site-menu nav li", "language": "#language-select"}) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= IPHONE_12["viewport"]["width"]
    menu.click()
    expect(links.first).to_be_hidden()


def test_the_menu_stands_open_on_a_desktop(browser, live_server):
    player = new_player("wide", "nl")
    page = browser_page(browser, live_server.url, SIZES["desktop"], player)
    page.goto("/")
    expect(page.locator(".site-menu > summary")).to_be_hidden()
    for link in page.locator(".site-menu nav a, .site-menu nav button").all():
        expect(link).to_be_visible()
    assert off_screen(page, {"menu": ".site-menu nav li"}) == []
    page.context.close()


def test_a_phone_on_its_side_scrolls_with_nothing_cut_off(browser, live_server):
    player = new_player("sideways", "de")
    a_single_table_with_a_long_big_road(player)
    page = browser_page(browser, live_server.url, LANDSCAPE, player)
    page.goto("/tables/golden/")
    page.locator("#chip-rack label.chip-2").click()
    page.keyboard.press("2")
    page.locator("#btn-deal").click()
    expect(page.locator("#board.revealed .result-banner")).to_be_visible()
    settled(page)
    assert page_problems(page) == []
    width = LANDSCAPE["viewport"]["width"]
    boxes = {
        name: [element.bounding_box() for element in page.locator(selector).all()]
        for name, selector in what_a_round_needs("phone", full=False, result=True).items()
    }
    for name, found in boxes.items():
        for box in found:
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
    # Nothing lies over anything else: the chips and buttons stand under the spots.
    controls = page.locator("#table-controls").bounding_box()
    for spot in boxes["spot"]:
        assert spot["y"] + spot["height"] <= controls["y"], (spot, controls)
    page.context.close()


@pytest.mark.parametrize("language", ["de", "nl"])
def test_no_page_breaks_a_word_or_scrolls_sideways_on_a_phone(browser, live_server, language):
    player = new_player(f"reader-{language}", language)
    player.is_staff = True
    player.save()
    Table.objects.create(name="Golden Baccarat", slug="golden")
    page = browser_page(browser, live_server.url, IPHONE_12, player)
    problems = {}
    for url in ("/", "/cashier/", "/protocol/", "/accounts/preferences/", "/tables/golden/rules/"):
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        found = page_problems(page)
        if found:
            problems[url] = found
    page.context.close()
    assert problems == {}
