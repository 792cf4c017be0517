"""A task whose process died under it is run again after a delay, a bounded number of
times, then dropped with an error for the operator (the worker itself is exercised in
tests/recovery/test_full_table_faults.py)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from billiard.exceptions import WorkerLostError

from baccarat import tasks
from casino import celery


@pytest.mark.parametrize(
    "task", [tasks.recover_rounds, tasks.table_tick, tasks.purge_chat, tasks.statistics_sum_hours]
)
def test_every_task_is_run_again_later_and_at_most_max_runs_times(task: Any, settings: Any) -> None:
    assert celery.app.conf.task_retry_on_worker_lost is True
    assert celery.app.conf.task_reject_on_worker_lost is True  # without retries: put back
    assert task.acks_late is True
    assert task.max_retries == settings.CASINO_TASK_MAX_RUNS - 1 == 2
    assert task.default_retry_delay == settings.CASINO_TASK_RETRY_SECONDS == 2


def test_a_task_dropped_after_its_last_run_is_logged_as_an_error(caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="casino.tasks")
    celery._task_dropped(sender=tasks.table_tick, task_id="t-1", exception=ValueError("x"))
    assert not caplog.records  # an ordinary failure is Celery's to log
    lost = WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL) Job: 3.")
    celery._task_dropped(sender=tasks.table_tick, task_id="t-1", exception=lost)
    [record] = caplog.records
    assert record.levelno == logging.ERROR
    assert record.getMessage().startswith("task baccarat.tasks.table_tick[t-1] dropped")


def test_a_worker_keeps_its_database_connections_between_tasks(
    settings: Any, monkeypatch: Any
) -> None:
    """A connection of its own (not pooled, not kept by the settings) is kept for
    ``CASINO_WORKER_CONN_MAX_AGE`` seconds once the worker starts; one kept already or
    pooled is left as it is."""
    databases = {
        "own": {"CONN_MAX_AGE": 0, "OPTIONS": {}},
        "pooled": {"CONN_MAX_AGE": 0, "OPTIONS": {"pool": {"max_size": 4}}},
        "kept": {"CONN_MAX_AGE": 30},
    }
    monkeypatch.setattr(settings._wrapped, "DATABASES", databases)
    assert celery._worker_keeps_connections in [
        receiver() for _key, receiver in celery.signals.worker_init.receivers
    ]
    celery._worker_keeps_connections()
    assert [db["CONN_MAX_AGE"] for db in databases.values()] == [600, 0, 30]
