"""What load clients share: an HTTP client that talks to the site as a browser does, and
how they read answers and sum up times.

Used by the full table's bots (:mod:`loadtest.bots`, ``manage.py table_bots``) and by the
single-player benchmark (:mod:`loadtest.bench`, ``manage.py bench`` and ``soak``). Nothing
here touches the database.
"""

from __future__ import annotations

import html
import math
import re
from urllib.parse import urlsplit

import httpx
from django.conf import settings

HTMX = {"HX-Request": "true"}
# Below the server's keep-alive (uvicorn: 5 s), so that a client never sends a request on
# a connection the server is closing at that moment.
KEEPALIVE_SECONDS = 2.0
FORM_ERRORS = re.compile(r'<div class="form-errors" role="alert">(.*?)</div>', re.S)
TAGS = re.compile(r"<[^>]+>")


def browser_client(base_url: str, *, https_proxy: bool, timeout: float = 30.0) -> httpx.AsyncClient:
    """A client with its own cookie jar that sends what a browser sends.

    A browser sends Origin with every POST; Django's CSRF check compares it with the scheme
    and host the request arrived on. ``https_proxy`` presents the plain-http connection as
    https behind a proxy (``X-Forwarded-Proto``, which the server trusts with DEBUG off):
    the server then marks its cookies Secure, and the jar would withhold those on the
    plain-http hop, so every cookie is sent, as a browser does over TLS (one host, path
    ``/``: no domain or path matching is needed).
    """
    base = urlsplit(base_url)
    scheme = "https" if https_proxy else base.scheme
    client = httpx.AsyncClient(
        base_url=base_url,
        headers={"Origin": f"{scheme}://{base.netloc}"},
        timeout=timeout,
        limits=httpx.Limits(keepalive_expiry=KEEPALIVE_SECONDS),
    )
    if https_proxy:
        client.headers["X-Forwarded-Proto"] = "https"

        async def send_secure_cookies(request: httpx.Request) -> None:
            cookies = "; ".join(f"{c.name}={c.value}" for c in client.cookies.jar)
            if cookies:
                request.headers["Cookie"] = cookies

        client.event_hooks = {"request": [send_secure_cookies], "response": []}
    return client


def behind_proxy(asked: bool | None, base_url: str) -> bool:
    """Whether to present a plain-http connection as https behind a proxy: as asked, else
    when the settings (the server's, same environment) trust X-Forwarded-Proto."""
    if asked is not None:
        return asked
    if urlsplit(base_url).scheme == "https":
        return False
    trusted = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    return bool(trusted and settings.SESSION_COOKIE_SECURE)


def csrf_token(client: httpx.AsyncClient, cookie_name: str = "csrftoken") -> str:
    for cookie in client.cookies.jar:
        if cookie.name == cookie_name and cookie.value:
            return cookie.value
    raise RuntimeError("no CSRF cookie")


def refusal(text: str) -> str | None:
    """The form errors an answer shows (a refused action), in words; None if none."""
    refused = FORM_ERRORS.search(text)
    if refused is None:
        return None
    return " ".join(html.unescape(TAGS.sub(" ", refused.group(1))).split())


# The start tags of forms and inputs, and the end of a form: all that form_fields reads.
# Our own markup, so a regular expression over the tags does what a full HTML parser did
# at a quarter of the client's CPU (the client shares the server's cores in a bench).
FORM_TAGS = re.compile(r"<(form|input)\b([^>]*)>|</form\s*>", re.I)
ATTRIBUTE = re.compile(r'([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^\s>]+)))?')


def form_fields(text: str, form_id: str) -> dict[str, str]:
    """The values an HTML answer gives the form ``form_id`` (CSRF token left out): its
    named inputs (not submit buttons), inside it or outside with ``form=``."""
    fields: dict[str, str] = {}
    inside = False
    for tag in FORM_TAGS.finditer(text):
        if tag.group(1) is None:
            inside = False
            continue
        found = {
            match[1].lower(): html.unescape(match[2] or match[3] or match[4] or "")
            for match in ATTRIBUTE.finditer(tag.group(2))
        }
        if tag.group(1).lower() == "form":
            inside = found.get("id") == form_id
        elif not found.get("name") or found.get("type") == "submit":
            continue
        elif found.get("form") == form_id or (inside and "form" not in found):
            fields[found["name"]] = found.get("value", "")
    fields.pop("csrfmiddlewaretoken", None)
    return fields


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """Count, p50, p95, p99 (nearest rank) and max of seconds, in milliseconds."""
    ordered = sorted(values)
    n = len(ordered)

    def rank(p: float) -> float | None:
        return round(ordered[max(0, math.ceil(p / 100 * n) - 1)] * 1000, 1) if n else None

    return {"count": n, "p50": rank(50), "p95": rank(95), "p99": rank(99), "max": rank(100)}
