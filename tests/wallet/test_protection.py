"""Responsible play's services: limits that apply lowered at once and raised after 24
hours, losses and play time counted per day and week, breaks nobody can end early, and
the reality check's clock (the server's, one per player)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat.models import Round, Table
from wallet import protection
from wallet import services as wallet
from wallet.models import PlayBreak, PlayLimit, Transaction

pytestmark = pytest.mark.django_db


def _fresh(player: Any) -> Any:
    player.refresh_from_db()
    return player


def _lose(player: Any, table: Table, amount: int, at: Any = None) -> None:
    """A stake of ``amount`` the player loses (escrowed and never paid back: what the
    ledger shows of a lost bet on the player's stack)."""
    round = Round.objects.create(table=table, rules=table.rule_snapshot())
    stake = wallet.wallet_stake(
        player=player, table=table, round=round, amount=amount, reference=f"lose:{round.pk}"
    )
    if at is not None:
        Transaction.objects.filter(pk=stake.pk).update(created_at=at)


@pytest.fixture
def golden(db: None) -> Table:
    return Table.objects.create(name="Golden", slug="golden", decks=8)


def test_a_lower_limit_applies_at_once_a_higher_one_after_24_hours(alice: Any) -> None:
    now = timezone.now()
    protection.play_limit_set(player=alice, kind="loss_day", amount=50_00, now=now)
    assert _fresh(alice).has_play_limits
    protection.play_limit_set(player=alice, kind="loss_day", amount=20_00, now=now)
    assert PlayLimit.objects.get().amount == 20_00  # lowered: at once
    protection.play_limit_set(player=alice, kind="loss_day", amount=80_00, now=now)
    limit = PlayLimit.objects.get()
    assert limit.amount == 20_00 and limit.pending_amount == 80_00
    [state] = protection.limits_status(player=alice, now=now + timedelta(hours=23))
    assert state.amount == 20_00
    [state] = protection.limits_status(player=alice, now=now + timedelta(hours=24, seconds=1))
    assert state.amount == 80_00 and state.pending_from is None
    protection.play_limit_set(player=alice, kind="loss_day", amount=None, now=now)
    assert protection.limits_status(player=alice, now=now + timedelta(hours=1))[0].amount == 80_00
    assert protection.limits_status(player=alice, now=now + timedelta(hours=25)) == []
    assert not _fresh(alice).has_play_limits


def test_a_lower_limit_cancels_a_pending_raise(alice: Any) -> None:
    now = timezone.now()
    protection.play_limit_set(player=alice, kind="time_week", amount=120, now=now)
    protection.play_limit_set(player=alice, kind="time_week", amount=600, now=now)
    protection.play_limit_set(player=alice, kind="time_week", amount=60, now=now)
    limit = PlayLimit.objects.get()
    assert (limit.amount, limit.pending_amount, limit.pending_from) == (60, None, None)


@pytest.mark.parametrize("amount", [0, -5])
def test_a_limit_of_nothing_is_refused_and_changes_nothing(alice: Any, amount: int) -> None:
    with pytest.raises(protection.PlayRefused):
        protection.play_limit_set(player=alice, kind="loss_day", amount=amount)
    with pytest.raises(protection.PlayRefused):
        protection.play_limit_set(player=alice, kind="nonsense", amount=10)
    assert not PlayLimit.objects.exists() and not _fresh(alice).has_play_limits


def test_the_loss_limit_counts_the_days_losses_and_stops_bets(alice: Any, golden: Table) -> None:
    wallet.wallet_rebuy(player=alice, table=golden, amount=100_00, reference="r")
    protection.play_limit_set(player=alice, kind="loss_day", amount=15_00)
    alice = _fresh(alice)
    yesterday = protection.day_start(timezone.now()) - timedelta(hours=2)
    _lose(alice, golden, 30_00, at=yesterday)  # yesterday's losses do not count
    protection.protection_check(player=alice)
    _lose(alice, golden, 10_00)
    protection.protection_check(player=alice)  # 10 of 15 lost: still allowed
    _lose(alice, golden, 5_00)
    with pytest.raises(protection.PlayRefused) as refused:
        protection.protection_check(player=alice)
    assert "loss limit" in str(refused.value.message)
    protection.protection_check(player=alice, bet=False)  # a rebuy is not a bet


def test_play_time_counts_the_gaps_between_stakes_at_most_five_minutes(alice: Any) -> None:
    now = timezone.now()
    start = now - timedelta(hours=1)
    for minutes in (0, 2, 4, 40, 41):  # 2 + 2 + 5 (a pause of 36) + 1
        Transaction.objects.create(
            kind=Transaction.Kind.STAKE,
            reference=f"s{minutes}",
            player=alice,
        )
        Transaction.objects.filter(reference=f"s{minutes}").update(
            created_at=start + timedelta(minutes=minutes)
        )
    assert protection.played_seconds(player=alice, since=start, now=now) == 10 * 60
    # The visit began after the pause; 31 minutes after the last stake it is over.
    assert protection.visit_start(player=alice, now=now) == start + timedelta(minutes=40)
    assert protection.visit_start(player=alice, now=now + timedelta(minutes=12)) is None


def test_a_break_cannot_be_ended_early_and_blocks_every_money_path(alice: Any) -> None:
    now = timezone.now()
    with pytest.raises(protection.PlayRefused):
        protection.play_break_take(player=alice, kind="break", length=timedelta(days=2))
    taken = protection.play_break_take(player=alice, kind="break", length=timedelta(days=1))
    alice = _fresh(alice)
    assert alice.play_blocked_until == taken.ends_at
    for bet in (True, False):
        with pytest.raises(protection.PlayRefused):
            protection.protection_check(player=alice, bet=bet)
    # A shorter one during it does not shorten it; a longer one lengthens it.
    protection.play_break_take(player=alice, kind="break", length=timedelta(days=1), now=now)
    assert _fresh(alice).play_blocked_until == taken.ends_at
    longer = protection.play_break_take(player=alice, kind="exclusion", length=timedelta(days=183))
    assert _fresh(alice).play_blocked_until == longer.ends_at
    assert not hasattr(protection, "play_break_end")  # there is no way to end one
    protection.protection_check(player=alice, now=longer.ends_at + timedelta(seconds=1))
    assert PlayBreak.objects.filter(player=alice).count() == 3


def test_the_reality_check_falls_due_after_its_interval_of_play(alice: Any) -> None:
    now = timezone.now()
    alice.reality_check_minutes = 15
    alice.save()
    for minutes in range(0, 20, 2):
        Transaction.objects.create(
            kind=Transaction.Kind.STAKE, reference=f"v{minutes}", player=alice
        )
        Transaction.objects.filter(reference=f"v{minutes}").update(
            created_at=now - timedelta(minutes=20 - minutes)
        )
    assert protection.reality_check_due(player=alice, now=now)
    with pytest.raises(protection.RealityCheckDue):
        protection.protection_check(player=alice, deal=True, now=now)
    protection.protection_check(player=alice, now=now)  # a chip is still fine
    summary = protection.reality_check_pending(player=alice, now=now)
    assert summary is not None and summary.minutes == 20 and summary.net == 0
    protection.reality_check_answer(player=alice, now=now)
    assert not protection.reality_check_due(player=_fresh(alice), now=now + timedelta(minutes=14))
    assert protection.reality_check_due(player=_fresh(alice), now=now + timedelta(minutes=16))
    alice.reality_check_minutes = 0
    assert not protection.reality_check_due(player=alice, now=now + timedelta(hours=3))


def test_a_new_visit_starts_the_reality_checks_clock_again(alice: Any) -> None:
    now = timezone.now()
    alice.reality_checked_at = now - timedelta(days=2)
    alice.save()
    Transaction.objects.create(kind=Transaction.Kind.STAKE, reference="new", player=alice)
    Transaction.objects.filter(reference="new").update(created_at=now - timedelta(minutes=5))
    assert not protection.reality_check_due(player=alice, now=now)  # 5 minutes in
    assert _fresh(alice).reality_checked_at == now - timedelta(minutes=5)


def test_the_play_time_limit_stops_bets_once_reached(alice: Any) -> None:
    now = timezone.now()
    protection.play_limit_set(player=alice, kind="time_day", amount=20, now=now)
    alice = _fresh(alice)
    start = max(protection.day_start(now), now - timedelta(minutes=40))
    minutes = int((now - start).total_seconds() // 60)
    for minute in range(0, minutes + 1):
        Transaction.objects.create(
            kind=Transaction.Kind.STAKE, reference=f"t{minute}", player=alice
        )
        Transaction.objects.filter(reference=f"t{minute}").update(
            created_at=start + timedelta(minutes=minute)
        )
    if minutes < 20:
        pytest.skip("too close to midnight to have played 20 minutes today")
    with pytest.raises(protection.PlayRefused) as refused:
        protection.protection_check(player=alice, now=now)
    assert "20 minutes" in str(refused.value.message)
    [state] = protection.limits_status(player=alice, now=now)
    assert state.reached and state.resets_at == protection.day_start(now + timedelta(days=1))
