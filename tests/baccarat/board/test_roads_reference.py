"""Every road of whole shoes against a reference written from the rules again
(``roads_reference``, issue 39): shoes dealt by the engine to their cut card, a whole shoe
played at a single-seat 8-deck table and at a full table as their panels show it, and a
player's sequence at a table that reshuffles before every coup."""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat import engine
from baccarat.board.selectors import shared_shoe_results, shoe_results
from baccarat.board.statistics import LETTER, shoe_board
from baccarat.engine.shoe import Shoe as EngineShoe
from baccarat.full import croupier
from baccarat.models import Round, Shoe, Table
from baccarat.play import betting, rounds
from tests.baccarat.board import roads_reference as reference
from tests.baccarat.conftest import ready, sit
from wallet import services as wallet

DERIVED = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


def assert_roads_match(coups: list[Any]) -> None:
    """The panel's five roads of ``coups`` (oldest first) are the reference's."""
    outcomes = [LETTER[c.outcome] for c in coups]
    board = shoe_board(coups)
    assert [tuple(cell[:3]) for cell in board.road("bead").cells] == reference.bead_plate(outcomes)
    big = board.road("big").cells
    assert [(c.column, c.row, c.value, c.ties) for c in big] == reference.big_road(outcomes)
    for name, k in DERIVED.items():
        shown = [(c.column, c.row, c.value) for c in board.road(name).cells]
        assert shown == reference.derived(outcomes, k), name
    counts = board.stats
    assert (counts.player, counts.banker, counts.tie) == tuple(
        outcomes.count(side) for side in "PBT"
    )
    assert counts.coups == len(coups)


def engine_shoe(seed: int) -> list[Any]:
    """An 8-deck shoe dealt by the engine to its cut card, as the panel reads coups."""
    shoe = EngineShoe.shuffled(8, rng=random.Random(seed))
    coups = []
    while not shoe.needs_reshuffle:
        coup = engine.deal_coup(shoe.draw)
        if coup.player_total == coup.banker_total:
            outcome = "tie"
        else:
            outcome = "player" if coup.player_total > coup.banker_total else "banker"
        coups.append(
            SimpleNamespace(
                pk=len(coups) + 1,
                outcome=outcome,
                natural=coup.natural,
                player_cards=" ".join(c.code for c in coup.player_cards),
                banker_cards=" ".join(c.code for c in coup.banker_cards),
            )
        )
    return coups


@pytest.mark.parametrize("seed", range(12))
def test_whole_engine_shoes_match_the_reference(seed: int) -> None:
    coups = engine_shoe(seed)
    assert len(coups) > 60
    assert_roads_match(coups)


@pytest.mark.django_db
def test_a_whole_single_seat_shoe_matches_the_reference(
    client: Any, seated: Any, cut_table: Table
) -> None:
    """Every coup of the first shoe, played to its cut card, as its panel shows it."""
    wallet.wallet_rebuy(player=seated, table=cut_table, amount=500_00, reference="whole")
    first = None
    for _ in range(120):
        round = betting.round_open(table=cut_table, player=seated)
        betting.bet_place(round=round, player=seated, kind="banker", amount=100)
        rounds.round_play(round_id=round.pk)
        first = first or Round.objects.values_list("shoe_id", flat=True).get(pk=round.pk)
        if Shoe.objects.filter(pk=first, is_finished=True).exists():
            break
    played = list(Round.objects.filter(shoe_id=first, state=Round.State.SETTLED).order_by("pk"))
    assert len(played) > 60
    shown = shoe_results(table=cut_table, player=seated)
    assert [r.pk for r in shown] == [r.pk for r in played]
    assert_roads_match(shown)
    client.force_login(seated)
    page = client.get(reverse("baccarat:table", args=[cut_table.slug])).content.decode()
    assert f"<dt>Coups</dt><dd>{len(played)}</dd>" in page


@pytest.mark.django_db
def test_a_whole_full_table_shoe_matches_the_reference(salon: Table) -> None:
    # Enough chips for 120 lost bets: however the shoe falls, she never runs short.
    anna = sit(salon, "anna", 1, buy_in=120 * 500)
    ready(salon)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    for _ in range(120):
        croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
        croupier.full_decide(table=salon, player=anna, deal=True)
        croupier.table_tick(table_id=salon.pk)  # dealt and settled
        if Shoe.objects.get(pk=shoe.pk).is_finished:
            break
        croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
        assert Round.objects.filter(table=salon, state=Round.State.BETTING).exists()
    shown = shared_shoe_results(salon, shoe_id=shoe.pk)
    assert len(shown) > 60
    assert_roads_match(shown)


@pytest.mark.django_db
def test_a_players_sequence_at_a_table_that_reshuffles_matches_the_reference(
    seated: Any, table: Table
) -> None:
    for _ in range(70):
        round = betting.round_open(table=table, player=seated)
        betting.bet_place(round=round, player=seated, kind="player", amount=100)
        rounds.round_play(round_id=round.pk)
    shown = shoe_results(table=table, player=seated)[-60:]
    assert len(shown) == 60
    assert_roads_match(shown)
