"""The site's icon: a small SVG of our own, linked from every page and at /favicon.ico."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static

pytestmark = pytest.mark.django_db


def test_favicon_ico_redirects_permanently_to_the_svg(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == static("favicon.svg")


def test_pages_link_the_svg_icon(client):
    html = client.get("/").content.decode()
    assert f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml">' in html


def test_the_icon_is_a_small_svg():
    found = finders.find("favicon.svg")
    assert found is not None
    data = Path(found).read_bytes()
    assert data.startswith(b"<svg") and len(data) < 1024
