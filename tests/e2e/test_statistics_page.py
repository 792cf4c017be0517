"""The statistics page in German with a few months of rounds, on a desktop screen and on a
phone held upright: its four charts drawn, each an image with a name,
no sideways scrolling, axe finds nothing; screenshots into ``<var>/screenshots/``."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.core.cache import cache
from playwright.sync_api import expect

from loadtest.management.commands.bench_statistics import Command as BenchStatistics
from tests.e2e.browsers import signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)

GALLERY = settings.VAR_DIR / "screenshots"
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "screen": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}


@pytest.mark.parametrize("size", SIZES)
def test_the_statistics_page_in_german(browser, live_server, size):
    cache.clear()  # ids come again after the other size's flush
    bench = BenchStatistics()
    player = bench._load(rounds=1200, days=75)  # the bench's throwaway player, 75 days
    player.language = "de"
    player.save()
    page = signed_in_page(browser, live_server.url, player, locale="de-DE", **SIZES[size])
    page.goto("/protocol/statistics/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    charts = page.locator("svg.stats-chart")
    expect(charts).to_have_count(4)
    for index in range(4):
        chart = charts.nth(index)
        expect(chart).to_have_attribute("role", "img")
        named_by = chart.get_attribute("aria-labelledby") or ""
        for element_id in named_by.split():
            expect(page.locator(f"#{element_id}")).not_to_be_empty()
        assert chart.bounding_box()["width"] > 300
    expect(page.locator("#stats-balance-text")).to_contain_text("€")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    GALLERY.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GALLERY / f"statistics-de-{size}.png"), full_page=True)
    found = Axe().run(page).response["violations"]
    assert [violation["id"] for violation in found] == []
    page.context.close()
