"""The player's own pages beside the table (responsible play, their statistics, the replay
of a round) in Italian and Dutch, on a desktop screen and on a phone held upright: in the
player's language (the headings as the catalog translates them), no sideways scrolling,
and axe finds nothing; screenshots into ``<var>/screenshots/``. German and English are
walked by test_responsible_play, test_statistics_page and test_replay."""

from __future__ import annotations

import polib
import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import expect

from baccarat.models import Table
from tests.e2e.browsers import new_player, signed_in_page
from tests.e2e.test_replay import PLAYER_9_TO_8, SIZES, dealt_round

pytestmark = pytest.mark.django_db(transaction=True)

GALLERY = settings.VAR_DIR / "screenshots"


def translated(language: str, msgid: str) -> str:
    catalog = settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    found = polib.pofile(str(catalog)).find(msgid)
    assert found is not None and found.msgstr, msgid
    return found.msgstr


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["it", "nl"])
def test_the_players_own_pages_in_their_language(browser, live_server, language, size):
    cache.clear()  # ids come again after another case's flush
    player = new_player(f"pia-{language}-{size}", language=language)
    table = Table.objects.create(name="Golden Shoe", slug="golden-shoe", decks=8)
    round = dealt_round(player, table, PLAYER_9_TO_8)
    page = signed_in_page(
        browser, live_server.url, player, locale=f"{language}-{language.upper()}", **SIZES[size]
    )
    pages = {
        "responsible-play": (reverse("accounts:responsible_play"), "Responsible play"),
        "statistics": (reverse("baccarat:protocol_statistics"), "Your statistics"),
        "replay": (reverse("baccarat:protocol_replay", args=[round.pk]), None),
    }
    GALLERY.mkdir(parents=True, exist_ok=True)
    problems = {}
    for name, (url, heading) in pages.items():
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        title = translated(language, heading or "Replay of round #%(id)s") % {"id": round.pk}
        expect(page.locator("h1").first).to_have_text(title)
        if name == "replay":
            expect(page.locator("#board[data-revealed]")).to_have_count(1, timeout=30_000)
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (name, overflow)
        page.screenshot(path=str(GALLERY / f"{name}-{language}-{size}.png"), full_page=True)
        found = Axe().run(page).response["violations"]
        if found:
            problems[name] = [violation["id"] for violation in found]
    assert problems == {}
    page.context.close()
