"""Random interleavings of open, bet, lock, deal, settle, recover and void on one shared
shoe: after every step no card position is used twice, the shoe only moves forward, and
every round's cards are a replay of the stored order."""

from __future__ import annotations

import contextlib
import random
import uuid
from datetime import timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from baccarat import engine, recovery
from baccarat.errors import RoundError
from baccarat.integrity import shoes
from baccarat.integrity.audit import audit_violations
from baccarat.models import DealtCard, Round, Shoe, Table
from baccarat.play import betting, rounds
from casino.accounts.models import User
from wallet import services as wallet
from wallet.models import Account

PLAYERS = st.integers(min_value=0, max_value=3)
KINDS = st.sampled_from(["player", "banker", "tie"])


class ShoeMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        tag = uuid.uuid4().hex[:10]
        self.table = Table.objects.create(
            name=f"SM {tag}",
            slug=f"sm-{tag}",
            kind=Table.Kind.FULL,
            seats=8,
            decks=6,
            reshuffle=Table.Reshuffle.CUT_CARD,
            burn=Table.Burn.FIRST_CARD,
            penetration_percent=50,
        )
        # The first shoe's cut card lies early, so its end and reveal are tried too.
        order = engine.Shoe.shuffled(6, rng=random.Random(tag), burn=engine.BurnMode.NONE)
        early = engine.Shoe.from_cards(order.dealing_order, cut_card_index=24, decks=6)
        Shoe.objects.create(
            table=self.table,
            number=1,
            state=early.to_state(),
            commitment=early.commitment(),
            cut_position=0,
        )
        self.players = []
        for i in range(4):
            player = User.objects.create_user(username=f"sm{i}-{tag}")
            wallet.wallet_open_for_new_player(player=player)
            wallet.wallet_rebuy(
                player=player, table=self.table, amount=500_00, reference=tag + str(i)
            )
            self.players.append(player)
        self.positions: dict[int, int] = {}  # shoe id -> highest position seen

    def _round_of(self, who: int) -> Round | None:
        return (
            Round.objects.filter(table=self.table, plays__player=self.players[who])
            .exclude(state__in=[Round.State.SETTLED, Round.State.VOID])
            .order_by("-pk")
            .first()
        )

    @rule(who=PLAYERS, kind=KINDS)
    def bet(self, who: int, kind: str) -> None:
        player = self.players[who]
        try:
            round = betting.round_open(table=self.table, player=player)
            betting.bet_place(round=round, player=player, kind=kind, amount=500)
        except RoundError:
            pass  # a round of theirs is being dealt
        except engine.EngineError:
            pass  # player and banker together

    @rule(who=PLAYERS, kind=KINDS)
    def play_a_whole_round(self, who: int, kind: str) -> None:
        self.bet(who, kind)
        round = self._round_of(who)
        if round is not None and round.state == Round.State.BETTING:
            with contextlib.suppress(engine.NoBet, engine.ShoeError):
                rounds.round_play(round_id=round.pk)

    @rule(who=PLAYERS)
    def lock(self, who: int) -> None:
        round = self._round_of(who)
        if round is not None and round.state == Round.State.BETTING:
            with contextlib.suppress(engine.NoBet, engine.ShoeError):
                rounds.round_lock(round_id=round.pk)  # a shoe not cut yet refuses

    @rule(who=PLAYERS)
    def deal(self, who: int) -> None:
        round = self._round_of(who)
        if round is not None:
            rounds.round_deal(round_id=round.pk)

    @rule(who=PLAYERS)
    def settle(self, who: int) -> None:
        round = self._round_of(who)
        if round is not None and round.state == Round.State.LOCKED:
            rounds.round_settle(round_id=round.pk)

    @rule(who=PLAYERS)
    def crash_and_recover(self, who: int) -> None:
        round = self._round_of(who)
        if round is not None and round.state == Round.State.LOCKED:
            Round.objects.filter(pk=round.pk).update(
                locked_at=timezone.now() - timedelta(minutes=1)
            )
        recovery.recover_rounds()

    @rule(who=PLAYERS)
    def void(self, who: int) -> None:
        round = self._round_of(who)
        if round is not None:
            rounds.round_void(round_id=round.pk, reason="state machine", by="test")

    @rule()
    def look_at_the_table_and_cut(self) -> None:
        shoe = shoes.shoe_open(table=self.table, player=None)
        if shoe.cut_position is None:  # a full table's new shoe: the croupier cuts
            shoes.shoe_cut(shoe=shoe, position=None, by=None)

    @invariant()
    def every_card_once_and_as_the_order_says(self) -> None:
        for shoe in Shoe.objects.filter(table=self.table):
            dealer = engine.Shoe.from_state(shoe.state)
            position = dealer.position
            assert position >= self.positions.get(shoe.pk, 0), "a shoe moved back"
            self.positions[shoe.pk] = position
            taken = dict(DealtCard.objects.filter(shoe=shoe).values_list("position", "round_id"))
            assert sorted(taken) == list(range(position))  # taken exactly up to the position
            for round in Round.objects.filter(shoe=shoe):
                assert round.start_position is not None and round.end_position is not None
                cards = dealer.dealing_order[round.start_position : round.end_position]
                assert round.reserved_cards == engine.codes_of(cards)
                assert all(
                    taken[p] == round.pk for p in range(round.start_position, round.end_position)
                )
                if round.dealt_at is not None:
                    coup = engine.deal_cards(cards)
                    assert round.player_cards == " ".join(c.code for c in coup.player_cards)
                    assert round.outcome == coup.outcome.value
            if shoe.revealed_at is not None:
                assert not Round.objects.filter(
                    shoe=shoe, state__in=[Round.State.BETTING, Round.State.LOCKED]
                ).exists()
        assert Shoe.objects.filter(table=self.table, is_finished=False).count() <= 1

    @invariant()
    def money_is_whole(self) -> None:
        assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0

    def teardown(self) -> None:
        assert audit_violations() == []


@pytest.mark.django_db
def test_round_lifecycle_state_machine() -> None:
    ShoeMachine.TestCase.settings = settings(
        max_examples=25,
        stateful_step_count=50,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    ShoeMachine.TestCase().runTest()
