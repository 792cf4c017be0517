"""Layout at a common laptop width: the lobby's cards hold their limits tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from baccarat.models import Table
from casino.management.commands.seed_demo import DEMO_TABLES

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_table_card_contains_its_limits_in_german_at_1280(page, signed_in):
    for fields in DEMO_TABLES:
        Table.objects.create(**fields)
    signed_in("greta", language="de")  # long words: "Unentschieden", "Mindesteinsatz"
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".table-card")).to_have_count(len(DEMO_TABLES))
    edges = page.eval_on_selector_all(
        ".table-card",
        """cards => cards.map(card => ({
            name: card.querySelector("h2").textContent,
            card: card.getBoundingClientRect().right,
            limits: card.querySelector("table.limits").getBoundingClientRect().right,
        }))""",
    )
    overflowing = [edge["name"] for edge in edges if edge["limits"] > edge["card"]]
    assert overflowing == [], edges
