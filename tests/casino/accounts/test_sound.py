"""The table's sound button (accounts:sound): it stores the player's choice, answers htmx
with the button as stored and a form without JavaScript with its page; bad input, a
missing CSRF token or a signed-out visitor change nothing."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

URL = reverse("accounts:sound")


def test_the_button_turns_the_sound_on_and_answers_htmx_with_itself(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"sound": "on", "next": "/tables/golden/"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.sound_enabled is True
    html = response.content.decode()
    assert 'aria-pressed="true"' in html
    assert 'name="sound" value="off"' in html  # the next press turns it off
    assert 'name="next" value="/tables/golden/"' in html


def test_the_button_turns_the_sound_off(client, alice):
    alice.sound_enabled = True
    alice.save()
    client.force_login(alice)
    response = client.post(URL, {"sound": "off"}, HTTP_HX_REQUEST="true")
    assert 'aria-pressed="false"' in response.content.decode()
    alice.refresh_from_db()
    assert alice.sound_enabled is False


def test_without_javascript_the_form_goes_back_to_its_page(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"sound": "on", "next": "/tables/golden/"})
    assert response.status_code == 302
    assert response["Location"] == "/tables/golden/"
    alice.refresh_from_db()
    assert alice.sound_enabled is True


def test_an_offsite_next_is_ignored(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"sound": "on", "next": "https://evil.example/"})
    assert response["Location"] == "/"


@pytest.mark.parametrize("value", ["", "yes", "1", "ON", "true"])
def test_bad_input_changes_nothing(client, alice, value):
    alice.sound_enabled = True
    alice.save()
    client.force_login(alice)
    response = client.post(URL, {"sound": value}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert 'aria-pressed="true"' in response.content.decode()  # as stored
    alice.refresh_from_db()
    assert alice.sound_enabled is True


def test_bad_input_without_javascript_says_so_and_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"next": "/tables/golden/"})
    assert response.status_code == 302
    assert response["Location"] == "/tables/golden/"
    alice.refresh_from_db()
    assert alice.sound_enabled is False
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said == ["The sound could not be changed. Please try again."]


def test_the_sound_needs_a_player(client):
    response = client.post(URL, {"sound": "on"})
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_the_sound_needs_a_post(client, alice):
    client.force_login(alice)
    assert client.get(URL).status_code == 405


def test_the_sound_needs_the_csrf_token(alice):
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(alice)
    response = csrf_client.post(URL, {"sound": "on"})
    assert response.status_code == 403
    alice.refresh_from_db()
    assert alice.sound_enabled is False


def test_the_table_shows_the_button_as_stored(client, alice, single_table):
    alice.sound_enabled = True
    alice.save()
    client.force_login(alice)
    html = client.get(reverse("baccarat:table", args=[single_table.slug])).content.decode()
    assert 'data-sound="on"' in html
    assert 'class="sound-toggle" aria-pressed="true"' in html
