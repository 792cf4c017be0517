from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_preferences_saved(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:preferences"),
        {"language": "nl", "reduced_motion": "on", "sound_enabled": ""},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.language, alice.reduced_motion, alice.sound_enabled) == ("nl", True, False)


def test_unknown_language_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("accounts:preferences"), {"language": "klingon"})
    assert response.status_code == 200
    assert response.context["form"].errors["language"]
    alice.refresh_from_db()
    assert alice.language == "en"


def test_preferences_need_login(client):
    response = client.get(reverse("accounts:preferences"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_reduced_motion_reaches_the_page(client, alice):
    alice.reduced_motion = True
    alice.save()
    client.force_login(alice)
    assert 'class="reduced-motion"' in client.get(reverse("lobby")).content.decode()


def test_language_switch_keeps_the_page_and_saves_preference(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:set_language"), {"language": "it", "next": "/accounts/preferences/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/preferences/"
    alice.refresh_from_db()
    assert alice.language == "it"
    page = client.get("/accounts/preferences/")
    assert page["Content-Language"] == "it"


def test_language_switch_for_anonymous_sets_cookie(client):
    response = client.post(reverse("accounts:set_language"), {"language": "de", "next": "/"})
    assert response.cookies["django_language"].value == "de"
    assert client.get("/")["Content-Language"] == "de"


def test_unknown_language_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("accounts:set_language"), {"language": "xx", "next": "/"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.language == "en"
    assert "django_language" not in response.cookies


def test_offsite_next_is_ignored(client):
    response = client.post(
        reverse("accounts:set_language"), {"language": "de", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_preference_wins_over_cookie(client, alice):
    alice.language = "nl"
    alice.save()
    client.force_login(alice)
    client.cookies["django_language"] = "de"
    assert client.get("/")["Content-Language"] == "nl"


def test_csrf_is_required_for_language_switch(alice):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(alice)
    response = csrf_client.post(reverse("accounts:set_language"), {"language": "de"})
    assert response.status_code == 403
    alice.refresh_from_db()
    assert alice.language == "en"
