from __future__ import annotations

import pytest
from django.urls import reverse

from baccarat.models import Table

pytestmark = pytest.mark.django_db


def test_lobby_lists_open_tables_with_limits(client, single_table, alice):
    Table.objects.create(name="Closed", slug="closed", is_active=False)
    Table.objects.create(name="Practice", slug="p-1", kind=Table.Kind.PRACTICE, owner=alice)
    html = client.get(reverse("lobby")).content.decode()
    assert "Golden Baccarat" in html
    assert "€500.00" in html  # player maximum
    assert "Closed" not in html
    assert "Practice</h2>" not in html


def test_lobby_in_german_formats_money(client, single_table):
    client.cookies["django_language"] = "de"
    html = client.get(reverse("lobby")).content.decode()
    assert "500,00\u00a0€" in html
    assert "Spieler" in html


def test_lobby_query_budget(client, single_table, alice, django_assert_max_num_queries):
    client.force_login(alice)
    with django_assert_max_num_queries(4):
        assert client.get(reverse("lobby")).status_code == 200


def test_htmx_served_from_our_static_files(client):
    html = client.get(reverse("lobby")).content.decode()
    assert "/static/django_htmx/htmx.min.js" in html or "/static/" in html
    assert "unpkg" not in html and "cdn" not in html.lower()


def test_health_live(client):
    assert client.get(reverse("health_live")).json() == {"status": "ok"}


def test_an_htmx_action_after_the_session_ended_loads_the_login_page(client, single_table):
    response = client.post(
        f"/tables/{single_table.slug}/bet/",
        {"kind": "player", "amount": 100},
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver/tables/{single_table.slug}/",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Ftables%2F{single_table.slug}%2F"
