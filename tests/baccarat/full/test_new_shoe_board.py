"""A new shoe clears the felt (issue 39): from the moment it starts, every board shows no
cards of the shoe before it and empty statistics, until the new shoe's first coup."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.board.selectors import shared_shoe_results
from baccarat.full import croupier
from baccarat.models import Round, Shoe, Table
from tests.baccarat.conftest import ready, sit

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_new_shoe_shows_neither_the_old_cards_nor_the_old_statistics(
    salon: Table, client: Any
) -> None:
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.table_tick(table_id=salon.pk)
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    client.force_login(anna)
    url = reverse("baccarat:table", args=[salon.slug])
    page = client.get(url).content.decode()
    assert "playing-card" in page and 'class="bead bead-' in page
    # The croupier reaches the cut card: the shoe is done, a new one is offered for the cut.
    Shoe.objects.filter(pk=round.shoe_id).update(is_finished=True)
    croupier.table_tick(table_id=salon.pk)
    new = Shoe.objects.get(table=salon, is_finished=False)
    assert new.pk != round.shoe_id
    assert shared_shoe_results(salon) == []
    for answer in (client.get(url), client.get(url, **HTMX)):
        html = answer.content.decode()
        assert "playing-card" not in html
        assert 'id="shoe-stats"' in html and 'class="bead bead-' not in html
    # The board that deals the old shoe's last coup still shows it and its statistics.
    dealt = client.get(url, {"dealt": round.pk}, **HTMX).content.decode()
    assert "playing-card" in dealt and 'class="bead bead-' in dealt


def test_the_board_of_a_coup_just_dealt_leaves_the_panel_before_it_to_the_page(
    salon: Table, client: Any
) -> None:
    """Until the cards have turned the page shows the statistics from before the coup:
    the panel it holds (table.js copies it into the empty ``data-previous``), which the
    board does not draw and send again to each of the eight browsers."""
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    for number in range(2):
        if number:  # the next round opens once the pause between two has passed
            croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
            round = Round.objects.filter(table=salon).latest("pk")
        croupier.full_bet(table=salon, player=anna, kind="banker", amount=1500, take_back=False)
        croupier.full_decide(table=salon, player=anna, deal=True)
        croupier.table_tick(table_id=salon.pk)
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED and round.hand_number == 2
    client.force_login(anna)
    url = reverse("baccarat:table", args=[salon.slug])
    dealt = client.get(url, {"dealt": round.pk}, **HTMX).content.decode()
    stats = dealt.split('id="shoe-stats"', 1)[1]
    assert '<div class="before" data-previous></div>' in stats
    page = client.get(url).content.decode().split('id="shoe-stats"', 1)[1]
    assert "data-previous" not in page
    # The board after the coup, once: its five roads, as the page draws them.
    assert stats.count('<svg role="img"') == page.count('<svg role="img"') == 5
    assert stats.count('class="bead bead-') == page.count('class="bead bead-') > 0
