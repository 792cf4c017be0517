"""The recovery sweep: rounds a crash or a lost connection left behind are finished by
the server, and a round that cannot be finished is voided instead of retried forever.

Beat runs :func:`recover_rounds` every few seconds (``manage.py recover_rounds`` does
the same by hand). Each pass that did all its work records a heartbeat, which
``/health/`` reads, and writes one structured log line per round it touches.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.utils import timezone

from baccarat.full import croupier
from baccarat.integrity import shoes
from baccarat.models import Heartbeat, Round
from baccarat.play import rounds, stacks

logger = logging.getLogger("baccarat.recovery")

HEARTBEAT = "recovery"


@dataclass
class RecoveryReport:
    completed: list[int] = field(default_factory=list)
    voided: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    shoes_revealed: int = 0
    tables_ticked: int = 0
    stacks_released: int = 0


def _log(
    round: Round | None, round_id: int, step: str, attempt: int, outcome: str, **extra: object
) -> None:
    line = {
        "event": "recovery",
        "round": round_id,
        "table": round.table.slug if round is not None else None,
        "step": step,
        "attempt": attempt,
        "outcome": outcome,
        **extra,
    }
    level = logging.INFO if outcome in ("completed", "skipped") else logging.WARNING
    logger.log(level, json.dumps(line, sort_keys=True, default=str))


def heartbeat_beat(name: str = HEARTBEAT, *, at: datetime | None = None) -> None:
    """Record that the periodic job ``name`` ran now."""
    Heartbeat.objects.update_or_create(name=name, defaults={"at": at or timezone.now()})


def heartbeat_last(name: str = HEARTBEAT) -> datetime | None:
    return Heartbeat.objects.filter(name=name).values_list("at", flat=True).first()


def _count_attempt(round_id: int) -> int | None:
    """Count one more attempt, committed before it starts (a crash in it still counts).

    ``None`` when the round is no longer LOCKED: someone finished it meanwhile.
    """
    updated = Round.objects.filter(pk=round_id, state=Round.State.LOCKED).update(
        recovery_attempts=F("recovery_attempts") + 1
    )
    if not updated:
        return None
    return Round.objects.values_list("recovery_attempts", flat=True).get(pk=round_id)


def recover_round(round_id: int, *, max_attempts: int, report: RecoveryReport) -> None:
    """Finish one stuck round: settle it with its reserved cards, or void it when its
    completion has failed ``max_attempts`` times."""
    attempt = _count_attempt(round_id)
    round = Round.objects.select_related("table").filter(pk=round_id).first()
    if attempt is None:
        _log(round, round_id, "settle", 0, "skipped", reason="no longer locked")
        return
    step = "deal and settle" if round is not None and round.dealt_at is None else "settle"
    if attempt > max_attempts:
        reason = (
            f"The server could not complete this round after {max_attempts} attempts; "
            "every stake was returned."
        )
        try:
            rounds.round_void(
                round_id=round_id,
                reason=reason,
                by="recovery",
                attention=True,
                cause=Round.VoidCause.NOT_COMPLETED,
            )
        except Exception as error:
            report.failed.append(round_id)
            _log(round, round_id, "void", attempt, "failed", error=repr(error))
            return
        report.voided.append(round_id)
        _log(round, round_id, "void", attempt, "voided")
        return
    try:
        if round is not None and round.shared:
            croupier.shared_round_recover(round_id=round_id)
        else:
            rounds.round_settle(round_id=round_id, completion=Round.Completion.SERVER)
    except Exception as error:  # one broken round must not stop the others
        report.failed.append(round_id)
        line = f"attempt {attempt} failed at {timezone.now().isoformat()}: {type(error).__name__}"
        Round.objects.filter(pk=round_id).update(
            recovery_note=Concat(F("recovery_note"), Value("\n" + line))
        )
        _log(round, round_id, step, attempt, "failed", error=repr(error))
        return
    report.completed.append(round_id)
    _log(round, round_id, step, attempt, "completed")


def recover_rounds(
    *, grace_seconds: int | None = None, max_attempts: int | None = None
) -> RecoveryReport:
    """Finish rounds a crash or disconnect left behind, with completion "server".

    LOCKED rounds older than ``grace_seconds`` (``CASINO_RECOVERY_GRACE_SECONDS``) are
    settled with the cards they reserved when they locked; every full table is ticked
    (betting past its deadline closes: ``Round.deadline``). A round whose completion has
    failed ``max_attempts`` times (``CASINO_RECOVERY_MAX_ATTEMPTS``) is voided with the
    reason recorded and marked for support. Finished shoes whose rounds are all final
    are revealed. Then, and only then, the heartbeat is written.
    """
    if grace_seconds is None:
        grace_seconds = settings.CASINO_RECOVERY_GRACE_SECONDS
    if max_attempts is None:
        max_attempts = settings.CASINO_RECOVERY_MAX_ATTEMPTS
    now = timezone.now()
    report = RecoveryReport()
    stuck = Round.objects.filter(
        state=Round.State.LOCKED, locked_at__lt=now - timedelta(seconds=grace_seconds)
    ).order_by("locked_at")
    for round_id in stuck.values_list("pk", flat=True)[:200]:
        recover_round(round_id, max_attempts=max_attempts, report=report)
    # Full tables: close betting whose timer ran out, open rounds, move cut offers on,
    # even when the worker that was to do it at the time died.
    report.tables_ticked = croupier.tables_tick()
    # Closed tables keep nobody's chips (a round in play there was finished just above).
    report.stacks_released = stacks.stacks_release_closed()
    report.shoes_revealed = shoes.shoes_reveal_done()
    # Written once the work is done: a pass that dies on the way (a crash, a database
    # gone) leaves the heartbeat old, and /health/ says the sweep is not working.
    heartbeat_beat()
    return report
