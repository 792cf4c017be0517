"""Pages and partials are sent gzipped; the live event stream never is."""

from __future__ import annotations

import gzip

from django.http import HttpResponse
from django.test import Client, RequestFactory

from baccarat.models import Table
from casino.middleware import CompressionMiddleware


def test_a_page_is_gzipped_for_a_browser_that_takes_it(client: Client, db) -> None:
    response = client.get("/accounts/login/", headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert b"csrfmiddlewaretoken" in gzip.decompress(response.content)


def test_a_page_is_plain_without_accept_encoding(client: Client, db) -> None:
    response = client.get("/accounts/login/")
    assert not response.has_header("Content-Encoding")


def test_the_event_stream_is_neither_compressed_nor_buffered(client: Client, alice) -> None:
    Table.objects.create(name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8)
    client.force_login(alice)
    response = client.get(
        "/tables/salon/events/",
        headers={"Accept-Encoding": "gzip", "Accept": "text/event-stream"},
    )
    try:
        assert response.status_code == 200 and response.streaming
        assert response["Content-Type"].startswith("text/event-stream")
        assert not response.has_header("Content-Encoding")
        assert response["X-Accel-Buffering"] == "no"
    finally:
        response.close()


def test_the_second_factor_pages_are_never_compressed(db) -> None:
    request = RequestFactory().get("/accounts/two-factor/setup/", HTTP_ACCEPT_ENCODING="gzip")
    page = HttpResponse("<p>" + "secret key " * 200 + "</p>", content_type="text/html")
    middleware = CompressionMiddleware(lambda request: page)
    assert not middleware(request).has_header("Content-Encoding")
