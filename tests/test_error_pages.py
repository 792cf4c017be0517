"""Our own error pages, in the site's style and the visitor's language, with DEBUG off."""

from __future__ import annotations

import pytest
from django.core.exceptions import BadRequest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import path, reverse

from casino.urls import urlpatterns as project_urlpatterns


def _boom(request):
    raise RuntimeError("a bug")


def _bad(request):
    raise BadRequest("nonsense")


# The project's URLs plus two that fail, for these tests only (see ``pytest.mark.urls``).
urlpatterns = [path("test-boom/", _boom), path("test-bad/", _bad), *project_urlpatterns]

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
