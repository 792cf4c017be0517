from __future__ import annotations

import hmac
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Min, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from baccarat.board.statistics import lobby_roads
from baccarat.full.state import lobby_full_tables
from baccarat.models import Round, Table
from baccarat.protocol.notices import deliver_server_notices
from baccarat.recovery import heartbeat_last
from casino.runtime import readiness


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    deliver_server_notices(request)
    tables = list(Table.objects.filter(is_active=True).exclude(kind=Table.Kind.PRACTICE))
    full = lobby_full_tables(tables)
    roads = lobby_roads(tables, request.user)
    for table in tables:
        table.lobby = full.get(table.pk)  # type: ignore[attr-defined]
        table.road = roads.get(table.pk)  # type: ignore[attr-defined]
    return render(request, "lobby.html", {"tables": tables})


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """Is the casino whole: the database answers, the recovery sweep works, no round waits.

    503 when the sweep has not finished a pass for three intervals (a dead beat or
    worker, or a pass that dies on its way), or a round has been overdue longer than
    ``CASINO_HEALTH_MAX_OVERDUE_SECONDS``: an alarm for the operator, not a reason to stop
    serving (a load balancer asks ``/health/ready/``). Its details go to staff and to a
    monitor with the token (:func:`may_see_details`); anyone else gets its status only.
    """
    now = timezone.now()
    last_sweep = heartbeat_last()
    sweep_age = (now - last_sweep).total_seconds() if last_sweep else None
    sweep_stale = sweep_age is None or sweep_age > 3 * settings.CASINO_RECOVERY_INTERVAL_SECONDS
    overdue = overdue_rounds(now)
    rounds_stale = (
        overdue["oldest_seconds"] is not None
        and overdue["oldest_seconds"] > settings.CASINO_HEALTH_MAX_OVERDUE_SECONDS
    )
    stale = sweep_stale or rounds_stale
    body = {
        "status": "stale" if stale else "ok",
        "database": "ok",
        "recovery": {
            "last_sweep": last_sweep.isoformat() if last_sweep else None,
            "seconds_ago": None if sweep_age is None else round(sweep_age, 1),
            "stale": sweep_stale,
        },
        "overdue_rounds": {**overdue, "stale": rounds_stale},
    }
    if not may_see_details(request):
        body = {"status": body["status"]}
    return JsonResponse(body, status=503 if stale else 200)


def overdue_rounds(now: datetime) -> dict[str, Any]:
    """Rounds the server should have moved on and has not, at every kind of table, in one
    read: LOCKED past the recovery sweep's grace (a deal or settle left half-done), and
    BETTING past the deadline of a full table's timer (no tick closed it). How many of
    each, and how long the oldest has been overdue (since its grace or deadline ended)."""
    grace = timedelta(seconds=settings.CASINO_RECOVERY_GRACE_SECONDS)
    locked = Q(state=Round.State.LOCKED, locked_at__lt=now - grace)
    betting = Q(state=Round.State.BETTING, deadline__lt=now)
    found = Round.objects.filter(locked | betting).aggregate(
        locked=Count("pk", filter=locked),
        betting=Count("pk", filter=betting),
        locked_at=Min("locked_at", filter=locked),
        deadline=Min("deadline", filter=betting),
    )
    locked_since = found["locked_at"] and found["locked_at"] + grace
    since = [at for at in (locked_since, found["deadline"]) if at]
    oldest = (now - min(since)).total_seconds() if since else None
    return {
        "locked_past_grace": found["locked"],
        "betting_past_deadline": found["betting"],
        "oldest_seconds": None if oldest is None else round(oldest, 1),
    }


def may_see_details(request: HttpRequest) -> bool:
    """Staff, or a monitor sending ``Authorization: Bearer <CASINO_HEALTH_TOKEN>``, see
    what a health check found; anyone else its status only."""
    token = settings.CASINO_HEALTH_TOKEN
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    return bool(request.user.is_authenticated and request.user.is_staff)


@require_GET
def health_live(request: HttpRequest) -> HttpResponse:
    """This web process answers and reaches the database (for a supervisor that restarts
    a process that does not)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


@require_GET
def health_ready(request: HttpRequest) -> HttpResponse:
    """Can this process serve players now: it gets a database connection that answers
    within ``CASINO_READY_TIMEOUT_SECONDS`` (and Redis answers, when
    ``CASINO_READY_NEEDS_REDIS``). 503 otherwise, so a load balancer sends elsewhere."""
    checks = readiness.check()
    ready = checks["database"] == "ok" and (
        checks["redis"] != "unavailable" or not settings.CASINO_READY_NEEDS_REDIS
    )
    body: dict[str, object] = {"status": "ready" if ready else "unavailable"}
    if may_see_details(request):
        body.update(checks)
    return JsonResponse(body, status=200 if ready else 503)
