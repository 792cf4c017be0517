"""Recovery that escalates: a round whose completion keeps failing is voided (stakes
back, the player told, support alerted) instead of retried forever; every attempt is
counted and logged as one structured line."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat import recovery
from baccarat.board.card_names import card_name
from baccarat.integrity import shoes
from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Table
from baccarat.play import betting, rounds
from wallet import services as wallet

pytestmark = pytest.mark.django_db


@pytest.fixture
def stuck(seated: Any, table: Table) -> Round:
    """Alice's round, locked a minute ago and never finished (the browser went away)."""
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="banker", amount=10_00)
    rounds.round_lock(round_id=round.pk)
    Round.objects.filter(pk=round.pk).update(locked_at=timezone.now() - timedelta(minutes=1))
    return round


@pytest.fixture
def settle_breaks(monkeypatch: Any) -> None:
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("ledger unreachable")

    monkeypatch.setattr(wallet, "wallet_settle_all", broken)


def _log_lines(caplog: Any) -> list[dict[str, Any]]:
    return [
        json.loads(record.getMessage())
        for record in caplog.records
        if record.name == "baccarat.recovery"
    ]


def test_a_failing_round_is_retried_then_voided_with_stakes_back(
    stuck: Round, settle_breaks: None, seated: Any, table: Table, stack_of: Any, caplog: Any
) -> None:
    caplog.set_level(logging.INFO, logger="baccarat.recovery")
    for attempt in range(1, 6):
        report = recovery.recover_rounds(max_attempts=5)
        assert report.failed == [stuck.pk] and not report.voided
        stuck.refresh_from_db()
        assert stuck.state == Round.State.LOCKED and stuck.recovery_attempts == attempt
    assert stuck.recovery_note.count("failed") == 5
    report = recovery.recover_rounds(max_attempts=5)
    assert report.voided == [stuck.pk]
    stuck.refresh_from_db()
    assert stuck.state == Round.State.VOID and stuck.needs_attention
    assert "could not complete this round after 5 attempts" in stuck.void_reason
    assert stack_of(seated, table) == 100_00  # the stake came back
    assert Play.objects.get(round=stuck).server_notice
    assert audit_violations() == []
    lines = _log_lines(caplog)
    assert [line["outcome"] for line in lines] == ["failed"] * 5 + ["voided"]
    assert lines[0] == {
        "event": "recovery",
        "round": stuck.pk,
        "table": table.slug,
        "step": "deal and settle",
        "attempt": 1,
        "outcome": "failed",
        "error": "RuntimeError('ledger unreachable')",
    }
    assert lines[-1]["step"] == "void" and lines[-1]["attempt"] == 6


def test_a_round_recovery_gave_up_on_reads_in_the_players_language(
    stuck: Round, settle_breaks: None, seated: Any, client: Any
) -> None:
    for _attempt in range(6):
        recovery.recover_rounds(max_attempts=5)
    stuck.refresh_from_db()
    assert stuck.void_cause == Round.VoidCause.NOT_COMPLETED
    client.force_login(seated)
    client.cookies["django_language"] = "de"
    page = client.get(reverse("baccarat:protocol_detail", args=[stuck.pk])).content.decode()
    assert "Vom Server nicht abgeschlossen" in page
    assert "Der Server konnte diese Runde nicht abschließen" in page
    assert "could not complete" not in page  # the server's English record stays its own


def test_a_crash_during_an_attempt_still_counts(stuck: Round) -> None:
    # The count is committed before the attempt starts: a killed worker still used one.
    assert recovery._count_attempt(stuck.pk) == 1
    assert recovery._count_attempt(stuck.pk) == 2
    report = recovery.recover_rounds(max_attempts=5)
    assert report.completed == [stuck.pk]
    stuck.refresh_from_db()
    assert stuck.recovery_attempts == 3 and stuck.completion == Round.Completion.SERVER


def test_one_broken_round_does_not_stop_the_others(
    stuck: Round, bob: Any, table: Table, monkeypatch: Any
) -> None:
    wallet.wallet_rebuy(player=bob, table=table, amount=50_00, reference="bob")
    other = betting.round_open(table=table, player=bob)
    betting.bet_place(round=other, player=bob, kind="player", amount=5_00)
    rounds.round_lock(round_id=other.pk)
    Round.objects.filter(pk=other.pk).update(locked_at=timezone.now() - timedelta(minutes=1))
    real_settle = wallet.wallet_settle_all

    def breaks_for_alice(**kwargs: Any) -> Any:
        if kwargs["round"].pk == stuck.pk:
            raise RuntimeError("broken")
        return real_settle(**kwargs)

    monkeypatch.setattr(wallet, "wallet_settle_all", breaks_for_alice)
    report = recovery.recover_rounds()
    assert report.failed == [stuck.pk] and report.completed == [other.pk]


def test_the_voided_round_is_told_to_the_player_in_their_language(
    client: Any, stuck: Round, settle_breaks: None, seated: Any, table: Table
) -> None:
    recovery.recover_rounds(max_attempts=0)
    seated.language = "de"
    seated.save()
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[table.slug])).content.decode()
    assert f"Ihre Runde Nr. {stuck.pk} an Golden wurde für ungültig erklärt" in page
    assert reverse("baccarat:protocol_detail", args=[stuck.pk]) in page
    assert not Play.objects.filter(server_notice=True).exists()


def test_support_sees_the_rounds_that_need_attention(
    client: Any, stuck: Round, settle_breaks: None, support_user: Any
) -> None:
    recovery.recover_rounds(max_attempts=0)
    client.force_login(support_user)
    page = client.get(reverse("support:search"), {"status": "attention"}).content.decode()
    assert f"#{stuck.pk}" in page or f">{stuck.pk}<" in page


def test_a_lost_answer_shows_the_result_the_next_time(
    client: Any, seated: Any, table: Table
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="player", amount=5_00)
    rounds.round_play(round_id=round.pk)  # settled; the browser never got the answer
    round.refresh_from_db()
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[table.slug])).content.decode()
    first = round.player_cards.split()[0]
    assert card_name(first) in page  # the card in words for screen readers
    assert reverse("baccarat:protocol_detail", args=[round.pk]) in page
    assert 'class="result-banner' in page


def test_the_heartbeat_is_written_after_the_sweeps_work(monkeypatch: Any) -> None:
    """A pass that dies on its way leaves the heartbeat as it was: /health/ then says the
    sweep is not working, though it started."""
    old = timezone.now() - timedelta(minutes=1)
    recovery.heartbeat_beat(at=old)

    def broken() -> int:
        raise RuntimeError("database gone")

    monkeypatch.setattr(shoes, "shoes_reveal_done", broken)
    with pytest.raises(RuntimeError):
        recovery.recover_rounds()
    assert recovery.heartbeat_last() == old
    monkeypatch.undo()
    started = timezone.now()
    recovery.recover_rounds()
    last = recovery.heartbeat_last()
    assert last is not None and last >= started
