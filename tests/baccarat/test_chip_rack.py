"""A chip above every maximum of its table (seed 000: a 500 € chip beside a 300 € maximum)
is racked but cannot be chosen, and says why to a screen reader."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from baccarat.models import Table
from tests.baccarat.conftest import sit

pytestmark = pytest.mark.django_db

LIMITS = {f"max_{kind}": 30000 for kind in ("player", "banker", "tie", "pair")}


def radios(page: str) -> dict[str, bool]:
    """Each chip's value and whether it can be chosen."""
    found = re.findall(r'<input type="radio" name="amount" value="(\d+)"[^>]*>', page)
    inputs = re.findall(r'<input type="radio" name="amount"[^>]*>', page)
    return {value: "disabled" not in tag for value, tag in zip(found, inputs, strict=True)}


def test_the_single_seat_rack(client: Any, seated: Any, table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(chip_values=[100, 500, 50000], **LIMITS)
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[table.slug])).content.decode()
    assert radios(page) == {"100": True, "500": True, "50000": False}
    assert "above every maximum of this table" in page


def test_the_full_table_rack(client: Any, salon: Table) -> None:
    Table.objects.filter(pk=salon.pk).update(chip_values=[100, 2500, 50000], **LIMITS)
    anna = sit(salon, "anna", 1)
    client.force_login(anna)
    page = client.get(reverse("baccarat:table", args=[salon.slug])).content.decode()
    assert radios(page) == {"100": True, "2500": True, "50000": False}
