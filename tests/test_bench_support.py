"""``manage.py bench_support`` on a few rounds: it loads, measures every page it names as
staff who gave their second factor (as in production) and cleans up after itself."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from baccarat.models import Round, Table
from casino.accounts.models import User

# PostgreSQL: the benchmark loads its rows with generate_series.
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_bench_support_measures_and_cleans_up(settings: Any) -> None:
    settings.CASINO_STAFF_OTP_REQUIRED = True  # the staff pages ask for the second factor
    out = io.StringIO()
    call_command("bench_support", rounds=5000, players=50, repeat=2, stdout=out)
    text = out.getvalue()
    assert "loaded 5,000 rounds" in text
    for name in ("support search: player + 30 days", "support: round detail", "player protocol"):
        assert name in text
    assert not Table.objects.filter(slug="bench-table").exists()
    assert (
        not Round.objects.exists()
        and not User.objects.filter(username__startswith="bench").exists()
    )
