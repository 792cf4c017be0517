"""Celery tasks: thin wrappers that call one service.

Each is acknowledged late (a worker that dies under it leaves the message for another)
and safe to run twice. A task whose process died under it is run again after
``CASINO_TASK_RETRY_SECONDS``, at most ``CASINO_TASK_MAX_RUNS`` times in all
(``CELERY_TASK_RETRY_ON_WORKER_LOST``); then it is dropped and logged
(:mod:`casino.celery`), and the recovery sweep's next pass does its work.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import shared_task
from django.conf import settings

from baccarat import recovery

TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "ignore_result": True,
    "max_retries": settings.CASINO_TASK_MAX_RUNS - 1,
    "default_retry_delay": settings.CASINO_TASK_RETRY_SECONDS,
}


@shared_task(**TASK_OPTIONS)
def recover_rounds() -> int:
    """Finish rounds left LOCKED by a crash or a lost connection."""
    report = recovery.recover_rounds()
    return len(report.completed) + len(report.voided)


@shared_task(**TASK_OPTIONS)
def table_tick(table_id: int, at: str | None = None) -> None:
    """Do what is due at a full table (its timer): close betting, open the next round.
    ``at``: the moment the tick was sent for (ISO 8601)."""
    from baccarat.full.croupier import table_tick as tick

    tick(table_id=table_id, sent_for=datetime.fromisoformat(at) if at else None)


@shared_task(**TASK_OPTIONS)
def purge_chat() -> int:
    """Delete chat messages and table events older than their retention periods."""
    from baccarat.full.chat import chat_purge

    return chat_purge()


@shared_task(**TASK_OPTIONS)
def statistics_sum_hours() -> int:
    """Sum the hours of the players who played in the last two hours (their statistics
    page then reads a row per hour)."""
    from baccarat.protocol.hours import hours_summed_recent

    return hours_summed_recent()
