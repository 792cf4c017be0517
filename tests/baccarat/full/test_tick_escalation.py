"""A full table's tick that keeps failing escalates as a stuck LOCKED round does: each
tick past the betting deadline counts an attempt on the round (committed before it
tries), and when the attempts pass CASINO_RECOVERY_MAX_ATTEMPTS the round is voided with
every escrowed stake back and marked for support; the table then goes on."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import pytest

from baccarat import recovery
from baccarat.full import croupier
from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Table, TableEvent
from tests.baccarat.conftest import ready, sit

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealing_breaks(monkeypatch: Any) -> None:
    """Every close of betting fails inside the tick's transaction (which rolls back)."""

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("dealing broke")

    monkeypatch.setattr(croupier, "_close_betting", broken)


def committed_round(salon: Table) -> tuple[Round, Any, Any]:
    """Anna bets 10 € on Banker and presses Deal (her stake goes to escrow); Ben does not
    decide, so only the timer can deal the round."""
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=10_00, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    return round, anna, ben


def test_failed_ticks_are_counted_then_the_round_is_voided_with_stakes_back(
    salon: Table, stack_of: Any, settings: Any, dealing_breaks: None, caplog: Any
) -> None:
    settings.CASINO_RECOVERY_MAX_ATTEMPTS = 3
    caplog.set_level(logging.INFO, logger="baccarat.full.croupier")
    round, anna, _ben = committed_round(salon)
    assert stack_of(anna, salon) == 90_00  # 10 € in escrow
    before = round.deadline - timedelta(seconds=1)
    croupier.table_tick(table_id=salon.pk, now=before)  # not due: no attempt
    round.refresh_from_db()
    assert round.recovery_attempts == 0
    past = round.deadline + timedelta(seconds=1)
    for attempt in (1, 2, 3):
        with pytest.raises(RuntimeError):
            croupier.table_tick(table_id=salon.pk, now=past)
        round.refresh_from_db()
        assert round.state == Round.State.BETTING and round.recovery_attempts == attempt
        assert f"tick attempt {attempt} failed" in round.recovery_note
        assert stack_of(anna, salon) == 90_00
    # The fourth: the round is given up before the tick tries again.
    croupier.table_tick(table_id=salon.pk, now=past)
    round.refresh_from_db()
    assert round.state == Round.State.VOID and round.needs_attention
    assert round.void_cause == Round.VoidCause.NOT_COMPLETED
    assert "could not deal this round after 3 attempts" in round.void_reason
    assert stack_of(anna, salon) == 100_00  # the stake came back
    assert Play.objects.get(round=round, player=anna).server_notice
    assert TableEvent.objects.filter(table=salon, kind="round_void").exists()
    assert audit_violations() == []
    voided = [json.loads(r.getMessage()) for r in caplog.records if '"event": "tick"' in r.message]
    assert voided == [
        {"event": "tick", "round": round.pk, "attempt": 4, "outcome": "voided", "step": "void"}
    ]
    # The table goes on: a later tick opens the next round.
    later = past + timedelta(seconds=salon.cycle_seconds + 1)
    croupier.table_tick(table_id=salon.pk, now=later)
    following = croupier.open_round(salon)
    assert following is not None and following.pk != round.pk
    assert following.recovery_attempts == 0


def test_the_sweep_counts_its_ticks_and_gives_up_too(
    salon: Table, stack_of: Any, settings: Any, dealing_breaks: None
) -> None:
    """The recovery sweep's tick of every table is an attempt like the timer's."""
    settings.CASINO_RECOVERY_MAX_ATTEMPTS = 2
    round, anna, _ben = committed_round(salon)
    Round.objects.filter(pk=round.pk).update(deadline=round.deadline - timedelta(minutes=5))
    for attempt in (1, 2):
        recovery.recover_rounds()  # the failed tick is logged; the pass goes on
        round.refresh_from_db()
        assert round.state == Round.State.BETTING and round.recovery_attempts == attempt
    recovery.recover_rounds()
    round.refresh_from_db()
    assert round.state == Round.State.VOID and round.needs_attention
    assert stack_of(anna, salon) == 100_00
    assert audit_violations() == []


def test_a_round_dealt_in_time_counts_one_attempt_and_nothing_more(salon: Table) -> None:
    round, _anna, _ben = committed_round(salon)
    croupier.table_tick(table_id=salon.pk, now=round.deadline)
    croupier.table_tick(table_id=salon.pk, now=round.deadline)  # a second tick: not betting
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED and round.recovery_attempts == 1
    assert not round.needs_attention and round.recovery_note == ""
