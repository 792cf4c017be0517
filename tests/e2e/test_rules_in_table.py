"""An Italian player reads the rules inside the table, without leaving it."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from playwright.sync_api import expect

from baccarat.models import Table

IT_PO = Path(settings.BASE_DIR) / "locale" / "it" / "LC_MESSAGES" / "django.po"


def italian(msgid: str) -> str:
    """What the catalog shows for ``msgid``: its Italian msgstr once translated."""
    entry = polib.pofile(str(IT_PO)).find(msgid)
    if entry is None or not entry.msgstr or "fuzzy" in entry.flags:
        return msgid
    return entry.msgstr


@pytest.mark.django_db(transaction=True)
def test_italian_player_reads_the_rules_inside_the_table(page, signed_in):
    table = Table.objects.create(name="Golden Baccarat", slug="golden")
    signed_in("giulia", language="it")

    page.goto(f"/tables/{table.slug}/")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    page.evaluate("window.__marker = 1")
    table_url = page.url

    page.locator(".table-buttons a[href$='/rules/']").click()

    rules = page.locator("#table-rules #rules")
    expect(rules).to_be_visible()
    expect(rules.locator("#rules-third h2")).to_have_text(italian("Third-card rules"))
    expect(rules.locator("#rules-payouts h2")).to_have_text(italian("Payouts"))
    expect(rules.locator(".rules-toc")).to_contain_text(italian("Third-card rules"))

    banker = rules.locator("#banker-rule")
    expect(banker.locator("thead")).to_contain_text(italian("Player stood"))
    expect(banker.locator("td[data-cell]")).to_have_count(110)
    expect(banker.locator("td[data-cell$='-stood']")).to_have_count(10)
    expect(banker.locator("td[data-cell]:not([data-cell$='-stood'])")).to_have_count(100)

    # Still the same page: no navigation, the table is still there.
    assert page.url == table_url
    assert page.evaluate("window.__marker") == 1
    expect(page.locator("#board")).to_be_visible()
