"""Error views of our own: the CSRF failure, in the site's style and language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with a missing or stale CSRF token (a page open too long, a new
    session): the 403 page says the page expired and should be reloaded. ``reason`` is
    for developers and stays out of the page."""
    return render(request, "403.html", {"csrf_expired": True}, status=403)
