"""The burn as seeds 000/001 tell it: the croupier turns the first card and puts as many
cards aside, unseen, as its value (an ace one, a ten or a court card ten)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from baccarat.board.card_names import card_name
from baccarat.models import Shoe, Table
from tests.baccarat.conftest import ready, sit

pytestmark = pytest.mark.django_db

VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def test_the_burn_puts_aside_the_first_cards_value(salon: Table, client: Any) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    rank = shoe.burn_card[0]
    value = VALUES.get(rank) or int(rank)
    assert shoe.burned_count == value + 1  # the card turned, and those put aside
    client.force_login(anna)
    page = client.get(reverse("baccarat:table", args=[salon.slug])).content.decode()
    cards = "card was" if value == 1 else "cards were"
    expected = f"The first card turned was the {card_name(shoe.burn_card)}: {value} {cards}"
    assert f"{expected} put aside unseen." in page
