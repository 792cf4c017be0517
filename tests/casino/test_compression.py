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


def _compressed(page: HttpResponse, encoding: str = "gzip") -> HttpResponse:
    request = RequestFactory().get("/tables/", HTTP_ACCEPT_ENCODING=encoding)
    return CompressionMiddleware(lambda request: page)(request)


def test_a_page_is_gzipped_behind_random_padding() -> None:
    body = ("<p>" + "Banker wins 0:6 " * 500 + "</p>").encode()
    sizes = set()
    for _ in range(20):
        response = _compressed(HttpResponse(body, content_type="text/html"))
        content = response.content
        assert response["Content-Encoding"] == "gzip"
        assert response["Content-Length"] == str(len(content))
        assert gzip.decompress(content) == body
        assert content[3] == gzip.FNAME  # the padding is the header's file name
        name_end = content.index(b"\x00", 10)
        assert content[name_end + 1 :] == gzip.compress(body, mtime=0)[10:]  # Django's level
        sizes.add(len(content))
    assert len(sizes) > 1  # BREACH: the length is not the content's alone


def test_what_is_not_compressed_is_left_as_it_came() -> None:
    small = _compressed(HttpResponse(b"<p>ok</p>", content_type="text/html"))
    assert not small.has_header("Content-Encoding")
    plain = _compressed(HttpResponse(b"x" * 500, content_type="text/html"), encoding="br")
    assert not plain.has_header("Content-Encoding") and plain.content == b"x" * 500
    assert "Accept-Encoding" in plain["Vary"]
    tagged = HttpResponse(b"y" * 500, content_type="text/html")
    tagged["ETag"] = '"abc"'
    assert _compressed(tagged)["ETag"] == 'W/"abc"'
