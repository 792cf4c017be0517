"""A practice start carries a key issued with its form (it names the practice table): one
key, one session and one stack of practice chips, however often the start is sent (a
retry, a double submit); raced on PostgreSQL in
tests/baccarat/single/test_layout_concurrency.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from baccarat.models import PracticeSession
from wallet.models import Transaction

pytestmark = pytest.mark.django_db

START = {
    "decks": 8,
    "starting_chips": 1000,
    "hands": 20,
    "tie_pays": 8,
    "commission": "five_percent",
}


def test_a_repeated_start_opens_one_session(client: Any, alice: Any) -> None:
    client.force_login(alice)
    page = client.get(reverse("baccarat:practice_new")).content.decode()
    token = re.search(r'name="token" value="([0-9a-f]{16})"', page)
    assert token is not None
    data = {**START, "token": token.group(1)}
    first = client.post(reverse("baccarat:practice_new"), data)
    again = client.post(reverse("baccarat:practice_new"), {**data, "hands": 50})
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    session = PracticeSession.objects.get()
    assert session.hands == 20 and session.table.slug == f"practice-{token.group(1)}"
    assert Transaction.objects.filter(kind=Transaction.Kind.PRACTICE_FUND).count() == 1
    fresh = client.get(reverse("baccarat:practice_new")).content.decode()
    following = re.search(r'name="token" value="([0-9a-f]{16})"', fresh)
    assert following is not None and following.group(1) != token.group(1)  # the next key
    client.post(reverse("baccarat:practice_new"), {**START, "token": "0123456789abcdef"})
    assert PracticeSession.objects.count() == 2


def test_a_start_without_a_usable_key_opens_its_own_session(client: Any, alice: Any) -> None:
    client.force_login(alice)
    for token in ("", "not-a-key", "PRACTICE-GOLDEN", "0" * 40):
        response = client.post(reverse("baccarat:practice_new"), {**START, "token": token})
        assert response.status_code == 302
    assert PracticeSession.objects.count() == 4
    assert all(
        re.fullmatch(r"practice-[0-9a-f]{16}", s.table.slug)
        for s in PracticeSession.objects.select_related("table")
    )
