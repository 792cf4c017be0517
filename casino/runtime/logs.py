"""Log lines that say which request (or task) wrote them, as text or as JSON.

A request id is kept in a context variable: the request middleware sets it for each
request (``casino.middleware.RequestIdMiddleware``), the Celery signals in
``casino/celery.py`` for each task (the id of the request that sent it, else the task's
own). :class:`RequestIdFilter` copies it onto every record the console handler writes,
and ``LOG_FORMAT=json`` writes each record as one JSON object per line.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

NO_REQUEST = "-"
request_id: ContextVar[str] = ContextVar("request_id", default=NO_REQUEST)

# What we take from a client or proxy's X-Request-ID: short, and nothing a log reader or
# a header could trip on. Anything else is replaced by an id of our own.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")


def request_id_for(offered: str | None) -> str:
    """The id a request is logged under: the one offered if it is sane, else a new one."""
    if offered and SANE_REQUEST_ID.fullmatch(offered):
        return offered
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Puts the current request id on each record (``%(request_id)s``); drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


# The attributes every LogRecord has; whatever else a record carries came from ``extra``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "request_id",
    "color_message",  # uvicorn's coloured copy of the message
}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, request
    id, process, the ``extra`` fields, and the exception if any."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
            "process": record.process,
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)
