"""The Celery app: configured from Django settings (``CELERY_*``).

Worker and beat log through the project's ``LOGGING`` (text or JSON, as the web
processes), and a task logs under the request id of the request that sent it (or its
own task id when no request did): ``casino/runtime/logs.py``.
"""

from __future__ import annotations

import logging.config
import os
from contextvars import Token
from typing import Any

from billiard.exceptions import WorkerLostError
from celery import Celery, signals

from casino.runtime import logs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger("casino.tasks")

REQUEST_ID_HEADER = "casino_request_id"
_task_tokens: dict[str, Token[str]] = {}


def _project_logging(**kwargs: Any) -> None:
    """Connected, so Celery leaves the root logger alone: the settings' LOGGING rules."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


def _send_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    current = logs.request_id.get()
    if headers is not None and current != logs.NO_REQUEST:
        headers[REQUEST_ID_HEADER] = current


def _task_request_id(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    sent = getattr(getattr(task, "request", None), REQUEST_ID_HEADER, None)
    current = logs.request_id.get()  # an eager task runs inside its request
    inside = current if current != logs.NO_REQUEST else None
    _task_tokens[task_id] = logs.request_id.set(sent or inside or task_id or logs.NO_REQUEST)


def _task_request_id_done(task_id: str = "", **kwargs: Any) -> None:
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        logs.request_id.reset(token)


def _task_dropped(
    sender: Any = None, task_id: str = "", exception: Any = None, **kwargs: Any
) -> None:
    """A task whose process died under it on its last allowed run (``CASINO_TASK_MAX_RUNS``)
    is not sent again: said once, at ERROR, for the operator's alarm."""
    if isinstance(exception, WorkerLostError):
        name = getattr(sender, "name", "?")
        logger.error(
            "task %s[%s] dropped: its process died under it on each of its runs; "
            "the recovery sweep does its work",
            name,
            task_id,
        )


def _worker_keeps_connections(**kwargs: Any) -> None:
    """In a worker (before its pool forks), keep database connections between tasks.

    The web processes keep none of their own (``DATABASE_CONN_MAX_AGE=0``: under ASGI a
    request's thread changes) and pool them instead; a worker's process runs its tasks one
    at a time in one thread, where a kept connection is safe. Opening one per task cost a
    PostgreSQL backend a tick and lost the statements prepared on it. Django checks a kept
    connection before each task (``CONN_HEALTH_CHECKS``) and Celery closes the parent's in
    each child it forks."""
    from django.conf import settings

    for database in settings.DATABASES.values():
        if not database.get("CONN_MAX_AGE") and "pool" not in database.get("OPTIONS", {}):
            database["CONN_MAX_AGE"] = settings.CASINO_WORKER_CONN_MAX_AGE


# Connected by calls, not as decorators: Celery's signals are untyped.
signals.worker_init.connect(_worker_keeps_connections)
signals.setup_logging.connect(_project_logging)
signals.before_task_publish.connect(_send_request_id)
signals.task_prerun.connect(_task_request_id)
signals.task_postrun.connect(_task_request_id_done)
signals.task_failure.connect(_task_dropped)
