from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from baccarat.integrity.audit import audit_violations as audit_ledger
from baccarat.models import Bet, Play, Round
from tests.wallet.conftest import CARDS, add_play, new_round
from wallet.models import Account, Entry
from wallet.services import (
    wallet_account,
    wallet_rebuy,
    wallet_refund,
    wallet_settle,
    wallet_stake,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(single_table):
    return single_table


@pytest.fixture
def played(alice, bob, table) -> Round:
    """A settled round (alice won, bob lost) and a void round, all money squared."""
    wallet_rebuy(player=alice, table=table, amount=100_00, reference="a-rebuy")
    wallet_rebuy(player=bob, table=table, amount=100_00, reference="b-rebuy")
    round = new_round(table)
    add_play(round, alice, stake=10_00, payout=20_00)
    add_play(round, bob, stake=5_00, payout=0)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference="a-stake")
    wallet_stake(player=bob, table=table, round=round, amount=5_00, reference="b-stake")
    wallet_settle(
        player=alice, table=table, round=round, stake=10_00, payout=20_00, reference="a-s"
    )
    wallet_settle(player=bob, table=table, round=round, stake=5_00, payout=0, reference="b-s")
    Round.objects.filter(pk=round.pk).update(state=Round.State.SETTLED, reserved_cards=CARDS)

    void = new_round(table)
    add_play(void, alice, stake=3_00)
    wallet_stake(player=alice, table=table, round=void, amount=3_00, reference="v-stake")
    wallet_refund(player=alice, table=table, round=void, stake=3_00, reference="v-refund")
    Round.objects.filter(pk=void.pk).update(state=Round.State.VOID, void_reason="test")
    return round


def test_clean_ledger_has_no_violations(played):
    assert audit_ledger() == []


def test_command_passes_on_clean_ledger(played, capsys):
    call_command("audit_ledger")
    out = capsys.readouterr().out
    assert "Checked 10 transactions" in out
    assert "2 finished rounds" in out
    assert "Ledger is balanced" in out


def test_command_reports_tampered_balance(played, alice, capsys):
    Account.objects.filter(pk=wallet_account(player=alice).pk).update(balance=999_999_00)
    with pytest.raises(CommandError):
        call_command("audit_ledger")
    assert "cached balance 99999900" in capsys.readouterr().err


def test_unbalanced_transaction_is_reported(played):
    entry = Entry.objects.filter(account__kind="wallet").first()
    Entry.objects.filter(pk=entry.pk).update(amount=entry.amount + 1)
    assert any("sum to 1, not 0" in line for line in audit_ledger())


def test_broken_running_balance_is_reported(played):
    entry = Entry.objects.order_by("pk").first()
    Entry.objects.filter(pk=entry.pk).update(balance_after=entry.balance_after + 5)
    assert any(f"entry {entry.pk} on account" in line for line in audit_ledger())


def test_money_left_in_escrow_of_finished_round_is_reported(alice, table):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference="r")
    round = new_round(table)
    add_play(round, alice, stake=10_00)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference="s")
    assert audit_ledger() == []  # still betting: escrow may hold it
    Round.objects.filter(pk=round.pk).update(state=Round.State.VOID, void_reason="test")
    assert any("left in escrow" in line for line in audit_ledger())


def test_settlement_not_matching_bets_is_reported(played, alice):
    Bet.objects.filter(play__round=played, play__player=alice).update(payout=25_00)
    violations = audit_ledger()
    assert any("bets say 2500" in line for line in violations)


def test_stake_not_matching_play_is_reported(played, bob):
    Play.objects.filter(round=played, player=bob).update(stake_total=6_00)
    assert any("play says 600" in line for line in audit_ledger())


def test_a_play_naming_another_table_than_its_rounds_is_reported(played, bob):
    from baccarat.models import Table

    elsewhere = Table.objects.create(name="Elsewhere", slug="elsewhere")
    Play.objects.filter(round=played, player=bob).update(table=elsewhere)
    assert [line for line in audit_ledger() if "names table" in line] == [
        f"round {played.pk}, player {bob.pk}: the play names table {elsewhere.pk}, "
        f"the round table {played.table_id}"
    ]
