"""Celery tasks: thin wrappers that call one service."""

from __future__ import annotations

from celery import shared_task

from baccarat import recovery


@shared_task(acks_late=True, ignore_result=True)
def recover_rounds() -> int:
    """Finish rounds left LOCKED by a crash or a lost connection."""
    report = recovery.recover_rounds()
    return len(report.completed) + len(report.voided)


@shared_task(acks_late=True, ignore_result=True)
def table_tick(table_id: int) -> None:
    """Do what is due at a full table (its timer): close betting, open the next round."""
    from baccarat.full.croupier import table_tick as tick

    tick(table_id=table_id)


@shared_task(acks_late=True, ignore_result=True)
def purge_chat() -> int:
    """Delete chat messages and table events older than their retention periods."""
    from baccarat.full.chat import chat_purge

    return chat_purge()
