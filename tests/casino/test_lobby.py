from __future__ import annotations

import re

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
    # Session, user, tables, notices; and each table's big road (one query per table).
    with django_assert_max_num_queries(5):
        assert client.get(reverse("lobby")).status_code == 200


def test_htmx_served_from_our_static_files(client):
    html = client.get(reverse("lobby")).content.decode()
    assert "/static/django_htmx/htmx.min.js" in html or "/static/" in html
    # Every address the page loads or links: none on a CDN. (Not the page's whole text: its
    # CSRF token, random letters, once held "cdn".)
    addresses = re.findall(r'(?:src|href|hx-[a-z]+)="([^"]*)"', html)
    assert addresses
    assert not [a for a in addresses if "unpkg" in a.lower() or "cdn" in a.lower()]


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


def test_the_lobby_shows_a_full_table_live(client, alice, bob):
    from datetime import timedelta

    from baccarat.full import croupier, seats
    from baccarat.models import Shoe, Table

    salon = Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )
    for number, player in ((1, alice), (5, bob)):
        seats.seat_take(
            table=salon, player=player, number=number, buy_in=50_00, reference=f"{number}"
        )
    croupier.table_tick(table_id=salon.pk)
    shoe = Shoe.objects.get(table=salon)
    croupier.table_tick(table_id=salon.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
    client.force_login(alice)
    html = client.get("/").content.decode()
    card = html.split("Salon</h2>", 1)[1].split("</article>", 1)[0]
    assert "2/8 seats taken" in card and "A round is running" in card
    assert "Shoe #1: 0% dealt" in card
    assert 'href="/tables/salon/#sit"' in card and "Watch" in card
