from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from baccarat.models import Table
from baccarat.notices import deliver_server_notices


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    deliver_server_notices(request)
    tables = Table.objects.filter(is_active=True).exclude(kind=Table.Kind.PRACTICE)
    return render(request, "lobby.html", {"tables": tables})


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
