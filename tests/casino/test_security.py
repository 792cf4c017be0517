"""Security headers (CSP, Permissions-Policy) and sessions that end (idle, lifetime)."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from casino.security.middleware import SESSION_SEEN, SESSION_STARTED

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Current-URL": "http://testserver/cashier/"}
MINUTE, HOUR = 60, 3600


def test_every_page_has_a_strict_content_security_policy(client, alice):
    client.force_login(alice)
    for url in (reverse("lobby"), reverse("wallet:cashier"), reverse("accounts:login")):
        policy = client.get(url)["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
        assert directives == {
            "default-src": "'self'",
            "script-src": "'self'",
            "style-src": "'self'",
            "img-src": "'self' data:",
            "connect-src": "'self'",
            "frame-ancestors": "'none'",
            "form-action": "'self'",
            "base-uri": "'self'",
            "object-src": "'none'",
        }
        assert "unsafe" not in policy


def test_no_powerful_browser_feature_is_allowed(client):
    header = client.get(reverse("lobby"))["Permissions-Policy"]
    features = dict(part.strip().split("=") for part in header.split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[feature] == "()"


def test_htmx_is_told_not_to_write_inline_styles_or_evaluate_code(client):
    html = client.get(reverse("lobby")).content.decode()
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false' in html
    assert '"allowEval": false' in html


def age(client, *, idle: int = 0, lived: int = 0) -> None:
    """Make the client's session look ``idle`` seconds idle and ``lived`` seconds old."""
    now = int(time.time())
    session = client.session
    session[SESSION_STARTED] = now - max(lived, idle)
    session[SESSION_SEEN] = now - idle
    session.save()


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_login_starts_the_clocks(client, alice):
    client.force_login(alice)
    session = client.session
    assert abs(session[SESSION_STARTED] - time.time()) < 5
    assert session[SESSION_SEEN] == session[SESSION_STARTED]


def test_a_player_idle_for_twelve_hours_is_logged_out_with_a_message(client, alice):
    client.force_login(alice)
    age(client, idle=12 * HOUR + MINUTE)
    url = reverse("wallet:cashier")
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={url}"
    assert not signed_in(client)
    page = client.get(response["Location"]).content.decode()
    assert "You were logged out after a period of inactivity. Please log in again." in page


def test_a_player_idle_for_less_stays(client, alice):
    client.force_login(alice)
    age(client, idle=11 * HOUR)
    assert client.get(reverse("wallet:cashier")).status_code == 200
    assert signed_in(client)
    assert abs(client.session[SESSION_SEEN] - time.time()) < 5  # the request counted


def test_activity_is_written_at_most_once_a_minute(client, alice):
    client.force_login(alice)
    age(client, idle=20)
    before = client.session[SESSION_SEEN]
    client.get(reverse("wallet:cashier"))
    assert client.session[SESSION_SEEN] == before


def test_staff_are_logged_out_after_thirty_idle_minutes(client, support_user):
    client.force_login(support_user)
    age(client, idle=31 * MINUTE)
    assert client.get(reverse("lobby")).status_code == 302
    assert not signed_in(client)


def test_a_session_ends_after_its_lifetime_however_busy(client, alice, support_user):
    client.force_login(alice)
    age(client, lived=7 * 24 * HOUR + MINUTE)
    response = client.get(reverse("lobby"), follow=True)
    assert not signed_in(client)
    assert "Your session has expired. Please log in again." in response.content.decode()
    client.force_login(support_user)
    age(client, lived=12 * HOUR + MINUTE)
    client.get(reverse("lobby"))
    assert not signed_in(client)


def test_an_expired_htmx_request_loads_the_login_page_whole(client, alice):
    client.force_login(alice)
    age(client, idle=13 * HOUR)
    response = client.post(reverse("wallet:deposit"), {"amount": "25"}, headers=HTMX)
    assert response["HX-Redirect"] == f"{reverse('accounts:login')}?next=%2Fcashier%2F"
    assert not signed_in(client)


def test_the_live_event_stream_is_no_activity(client, alice):
    client.force_login(alice)
    age(client, idle=30 * MINUTE)
    before = client.session[SESSION_SEEN]
    response = client.get("/no-such-page/", headers={"Accept": "text/event-stream"})
    assert response.status_code == 404
    assert client.session[SESSION_SEEN] == before


def test_limits_come_from_the_settings(client, alice, settings):
    settings.CASINO_SESSION_IDLE_MINUTES = 5
    client.force_login(alice)
    age(client, idle=6 * MINUTE)
    client.get(reverse("lobby"))
    assert not signed_in(client)


def test_a_session_from_before_the_limits_starts_them_now(client, alice):
    client.force_login(alice)
    session = client.session
    del session[SESSION_STARTED], session[SESSION_SEEN]
    session.save()
    assert client.get(reverse("wallet:cashier")).status_code == 200
    assert abs(client.session[SESSION_STARTED] - time.time()) < 5
