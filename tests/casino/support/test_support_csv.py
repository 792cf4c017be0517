"""Support's round export: text cells never run as formulas, amounts stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from baccarat.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(client, support_user, make_player, play_round):
    """The CSV row of one round ``=cmd`` played at the table ``+evil``."""
    player = make_player("=cmd", language="en")
    table = Table.objects.create(name="+evil", slug="evil")
    play_round(player, table, {"player": 500})
    client.force_login(support_user)
    response = client.get(reverse("support:search"), {"table": table.pk, "export": "csv"})
    text = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(text)))


def test_username_cannot_become_a_formula(exported):
    assert [row["Player"] for row in exported] == ["'=cmd"]


def test_table_name_cannot_become_a_formula(exported):
    assert [row["Table"] for row in exported] == ["'+evil"]


def test_amounts_stay_numbers(exported):
    [row] = exported
    assert row["Stake"] == "5.00"
    assert row["Net"] in {"-5.00", "0.00", "5.00"}
