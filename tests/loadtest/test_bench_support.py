"""``manage.py bench_support`` on a few rounds: it loads, measures every page it names as
staff who gave their second factor (as in production) and cleans up after itself."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from baccarat.models import Play, Round, Table
from baccarat.play import betting, rounds
from casino.accounts.models import User
from wallet.services import wallet_open_for_new_player, wallet_rebuy

# PostgreSQL: the benchmark loads its rows with generate_series.
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_bench_support_measures_and_cleans_up(settings: Any) -> None:
    settings.CASINO_STAFF_OTP_REQUIRED = True  # the staff pages ask for the second factor
    # One of the players `manage.py bench` keeps in the same database, with a wallet and a
    # round played, with a second play whose id runs ahead of the rounds' (a full table's).
    benched = User.objects.create_user(username="bench-1", password="x" * 12)
    wallet_open_for_new_player(player=benched)
    table = Table.objects.create(name="Bench run", slug="bench-run")
    wallet_rebuy(player=benched, table=table, amount=50_00, reference="bench-run")
    played = betting.round_open(table=table, player=benched)
    betting.bet_place(round=played, player=benched, kind="player", amount=500)
    rounds.round_play(round_id=played.pk)
    watcher = User.objects.create_user(username="bench-2", password="x" * 12)
    Play.objects.create(pk=played.pk + 1000, round=played, table=table, player=watcher, seat=2)
    out = io.StringIO()
    call_command("bench_support", rounds=5000, players=50, repeat=2, stdout=out)
    text = out.getvalue()
    assert "loaded 5,000 rounds" in text
    for name in ("support search: player + 30 days", "support: round detail", "player protocol"):
        assert name in text
    assert not Table.objects.filter(slug="bench-table").exists()
    assert list(Round.objects.values_list("pk", flat=True)) == [played.pk]
    assert not User.objects.filter(username__startswith="bench-support").exists()
    left = User.objects.order_by("username").values_list("username", flat=True)
    assert list(left) == ["bench-1", "bench-2"]  # left alone
