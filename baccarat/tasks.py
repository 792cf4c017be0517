"""Celery tasks: thin wrappers that call one service."""

from __future__ import annotations

from celery import shared_task

from baccarat import services


@shared_task(acks_late=True, ignore_result=True)
def recover_rounds() -> int:
    """Finish rounds left LOCKED (or BETTING past their deadline with escrowed stakes)."""
    return len(services.recover_rounds())
