"""casino.runtime.serve: a web process loads the application and its URLs before it
serves."""

from __future__ import annotations

import sys

from django.urls import get_resolver

from casino.runtime import serve


def test_a_web_process_loads_the_application_and_its_urls_before_serving() -> None:
    serve.load()
    assert "casino.asgi" in sys.modules
    resolver = get_resolver()
    assert resolver._populated  # the URL patterns imported and indexed
    assert "baccarat" in resolver.namespace_dict
