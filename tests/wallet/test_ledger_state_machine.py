"""Random sequences of every money move keep the ledger whole after each step."""

from __future__ import annotations

import uuid

import pytest
from django.db.models import Sum
from django.test import override_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from baccarat.integrity.audit import audit_violations as audit_ledger
from baccarat.models import Bet, Play, Round, Table
from casino.accounts.models import User
from wallet.cashier import cashier_deposit
from wallet.errors import DepositLimitReached, InsufficientFunds, RoundInPlay
from wallet.models import Account
from wallet.services import (
    stack_account,
    wallet_account,
    wallet_cash_out,
    wallet_open_for_new_player,
    wallet_rebuy,
    wallet_refund,
    wallet_settle,
    wallet_stake,
)

PLAYERS = st.sampled_from([0, 1])
AMOUNTS = st.sampled_from([1_00, 5_00, 25_00, 100_00, 999_00, 4_000_00])
CAP = 10_000_00


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        tag = uuid.uuid4().hex[:12]
        self.players = [User.objects.create_user(username=f"p{i}-{tag}") for i in range(2)]
        self.table = Table.objects.create(name=f"T {tag}", slug=f"t-{tag}")
        self.wallet = {}
        self.stack = {}
        self.deposited = {}
        for player in self.players:
            wallet_open_for_new_player(player=player)
            self.wallet[player.pk] = 1_000_00
            self.stack[player.pk] = 0
            self.deposited[player.pk] = 0
        self.round: Round | None = None
        self.staked: dict[int, int] = {}

    def ref(self) -> str:
        return f"sm:{uuid.uuid4()}"

    @rule(who=PLAYERS, amount=AMOUNTS)
    def deposit(self, who: int, amount: int) -> None:
        player = self.players[who]
        try:
            cashier_deposit(player=player, amount=amount, reference=self.ref())
        except RoundInPlay:
            assert player.pk in self.staked
        except DepositLimitReached:
            assert self.deposited[player.pk] + amount > CAP
        else:
            assert player.pk not in self.staked
            assert self.deposited[player.pk] + amount <= CAP
            self.wallet[player.pk] += amount
            self.deposited[player.pk] += amount

    @rule(who=PLAYERS, amount=AMOUNTS)
    def rebuy(self, who: int, amount: int) -> None:
        player = self.players[who]
        try:
            wallet_rebuy(player=player, table=self.table, amount=amount, reference=self.ref())
        except InsufficientFunds:
            assert self.wallet[player.pk] < amount
        else:
            self.wallet[player.pk] -= amount
            self.stack[player.pk] += amount

    @rule(who=PLAYERS, amount=st.none() | AMOUNTS)
    def cash_out(self, who: int, amount: int | None) -> None:
        player = self.players[who]
        try:
            wallet_cash_out(player=player, table=self.table, amount=amount, reference=self.ref())
        except InsufficientFunds:
            assert amount is not None and self.stack[player.pk] < amount
        else:
            moved = self.stack[player.pk] if amount is None else amount
            self.stack[player.pk] -= moved
            self.wallet[player.pk] += moved

    @rule(who=PLAYERS, amount=AMOUNTS)
    def stake(self, who: int, amount: int) -> None:
        player = self.players[who]
        if player.pk in self.staked:
            return
        if self.round is None:
            self.round = Round.objects.create(table=self.table, rules={})
        try:
            wallet_stake(
                player=player,
                table=self.table,
                round=self.round,
                amount=amount,
                reference=self.ref(),
            )
        except InsufficientFunds:
            assert self.stack[player.pk] < amount
        else:
            self.stack[player.pk] -= amount
            self.staked[player.pk] = amount

    @precondition(lambda self: self.round is not None)
    @rule(outcome=st.sampled_from(["lose", "push", "win", "banker"]))
    def settle(self, outcome: str) -> None:
        assert self.round is not None
        for player in self.players:
            stake = self.staked.get(player.pk)
            if stake is None:
                continue
            payout = {
                "lose": 0,
                "push": stake,
                "win": 2 * stake,
                "banker": stake + stake * 95 // 100,
            }[outcome]
            play = Play.objects.create(
                round=self.round,
                table=self.table,
                player=player,
                stake_total=stake,
                payout_total=payout,
            )
            Bet.objects.create(play=play, kind=Bet.Kind.BANKER, stake=stake, payout=payout)
            wallet_settle(
                player=player,
                table=self.table,
                round=self.round,
                stake=stake,
                payout=payout,
                reference=self.ref(),
            )
            self.stack[player.pk] += payout
        self._finish(Round.State.SETTLED)

    @precondition(lambda self: self.round is not None)
    @rule()
    def refund(self) -> None:
        assert self.round is not None
        for player in self.players:
            stake = self.staked.get(player.pk)
            if stake is None:
                continue
            wallet_refund(
                player=player, table=self.table, round=self.round, stake=stake, reference=self.ref()
            )
            self.stack[player.pk] += stake
        self._finish(Round.State.VOID)

    def _finish(self, state: str) -> None:
        assert self.round is not None
        Round.objects.filter(pk=self.round.pk).update(
            state=state, void_reason="test", reserved_cards="9S8HKDQC"
        )
        self.round = None
        self.staked = {}

    @invariant()
    def ledger_is_whole(self) -> None:
        assert audit_ledger() == []

    @invariant()
    def balances_match_the_model_and_never_go_negative(self) -> None:
        for player in self.players:
            assert wallet_account(player=player).balance == self.wallet[player.pk] >= 0
            assert stack_account(player=player, table=self.table).balance == self.stack[player.pk]
            assert self.stack[player.pk] >= 0

    @invariant()
    def all_money_sums_to_zero(self) -> None:
        assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0


@pytest.mark.django_db
@override_settings(CASINO_DEPOSIT_CAP_PER_DAY=CAP)
def test_ledger_state_machine() -> None:
    # Every example makes its own players and table; the ledger they share stays
    # whole, so the global invariants hold across examples too.
    LedgerMachine.TestCase.settings = settings(
        max_examples=15,
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    LedgerMachine.TestCase().runTest()
