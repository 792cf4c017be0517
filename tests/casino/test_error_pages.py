"""Our own error pages, in the site's style and the visitor's language, with DEBUG off."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from django.core.exceptions import BadRequest
from django.db import OperationalError, connection
from django.template.loader import render_to_string
from django.test import Client
from django.urls import path, reverse
from psycopg_pool import PoolTimeout

from casino.errors import BUSY_RETRY_AFTER_SECONDS, database_busy
from casino.urls import handler500  # noqa: F401 (this module is the tests' URLconf)
from casino.urls import urlpatterns as project_urlpatterns
from tests.pools import pool_of_one


def _boom(request):
    raise RuntimeError("a bug")


def _bad(request):
    raise BadRequest("nonsense")


def _busy(request):
    # What Django raises when every pooled connection stayed taken past the pool's wait
    # (test_a_real_pool_timeout_is_recognised_as_busy shows it on PostgreSQL).
    try:
        raise PoolTimeout("couldn't get a connection after 10.00 sec")
    except PoolTimeout as error:
        raise OperationalError(*error.args) from error


def _broken(request):
    raise OperationalError("no such table: nowhere")


# The project's URLs plus some that fail, for these tests only (see ``pytest.mark.urls``).
urlpatterns = [
    path("test-boom/", _boom),
    path("test-bad/", _bad),
    path("test-busy/", _busy),
    path("test-broken/", _broken),
    *project_urlpatterns,
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


def test_404_page_says_not_found_and_links_to_the_lobby(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in html
    assert f'href="{reverse("lobby")}">Back to the lobby' in html
    assert 'class="site-header"' in html  # the site's own page, not Django's


def test_404_page_speaks_the_visitors_language(client):
    client.cookies["django_language"] = "de"
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response.context["LANGUAGE_CODE"] == "de"
    assert '<html lang="de">' in response.content.decode()


def test_403_page_for_a_player_in_the_support_area(client, alice):
    client.force_login(alice)
    response = client.get(reverse("support:search"))
    html = response.content.decode()
    assert response.status_code == 403
    assert "Access denied" in html
    assert "Back to the lobby" in html


def test_400_page_for_a_bad_request(client):
    response = client.get("/test-bad/")
    assert response.status_code == 400
    assert "Bad request" in response.content.decode()


def test_500_page_for_an_unexpected_error(client):
    client.raise_request_exception = False
    response = client.get("/test-boom/")
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in html
    assert "Back to the lobby" in html


def test_500_page_needs_no_request_and_no_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        html = render_to_string("500.html")
    assert "Something went wrong" in html
    assert 'href="/"' in html


def test_a_busy_database_is_a_503_that_says_when_to_come_back(client):
    client.raise_request_exception = False
    client.cookies["django_language"] = "de"
    response = client.get("/test-busy/")
    html = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == str(BUSY_RETRY_AFTER_SECONDS)
    assert "Das Casino ist ausgelastet" in html
    assert "Something went wrong" not in html


def test_a_broken_database_is_still_a_500(client):
    client.raise_request_exception = False
    response = client.get("/test-broken/")
    assert response.status_code == 500
    assert "Retry-After" not in response


def test_the_503_page_needs_no_request_and_no_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        html = render_to_string("503.html")
    assert "The casino is busy" in html


def test_a_locked_sqlite_database_is_busy():
    try:
        try:
            raise sqlite3.OperationalError("database is locked")
        except sqlite3.OperationalError as error:
            raise OperationalError(*error.args) from error
    except OperationalError as error:
        assert database_busy(error)
    assert not database_busy(OperationalError("no such table: nowhere"))
    assert not database_busy(None)
    looped = RuntimeError("a chain that comes back to itself")
    looped.__context__ = looped
    assert not database_busy(looped)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a psycopg pool: PostgreSQL")
def test_a_real_pool_timeout_is_recognised_as_busy():
    """A pool of one connection, held by another thread: the next request for a
    connection waits out the pool's timeout and fails the way ``database_busy`` knows."""
    taken, release = threading.Event(), threading.Event()

    with pool_of_one("busy-test") as wrapper:

        def hold():
            holder = wrapper()
            holder.ensure_connection()
            taken.set()
            release.wait(10)
            holder.close()

        thread = threading.Thread(target=hold)
        thread.start()
        try:
            assert taken.wait(10)
            with pytest.raises(OperationalError) as raised:
                wrapper().ensure_connection()
            assert database_busy(raised.value)
        finally:
            release.set()
            thread.join()


def test_expired_csrf_token_asks_for_a_reload(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse("accounts:set_language"), {"language": "de", "next": "/"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "Page expired" in html
    assert "Reload the page and try again." in html
    alice.refresh_from_db()
    assert alice.language == "en"  # nothing was carried out
