"""What a finished round must look like after any crash: final once, ledger whole."""

from __future__ import annotations

import itertools
from collections import Counter

from baccarat import engine
from baccarat.integrity.audit import audit_violations as audit_ledger
from baccarat.models import Play, Round
from baccarat.rules import rule_sets
from wallet.models import Account, Entry, Transaction


def expected_coup(round: Round) -> engine.Coup:
    """The coup the undisturbed round gets: its stored shoe at its start position."""
    assert round.shoe is not None and round.start_position is not None
    shoe = engine.Shoe.from_state(round.shoe.state)
    # The stored card order is the one committed to when the shoe was shuffled.
    assert shoe.commitment() == round.shoe.commitment
    shoe.position = round.start_position
    return engine.deal_coup(shoe.draw)


def codes(cards: tuple[engine.Card, ...] | list[engine.Card]) -> str:
    return " ".join(card.code for card in cards)


def assert_final_once(round_id: int, *, completion: str) -> Round:
    """The round is SETTLED exactly once (or VOID with a refund), as the shoe fixed it."""
    round = Round.objects.select_related("shoe", "table").get(pk=round_id)
    assert round.is_final, f"round {round_id} is stuck in {round.state}"
    plays = list(Play.objects.filter(round=round).select_related("player").prefetch_related("bets"))
    assert plays
    transactions = list(
        Transaction.objects.filter(round=round).prefetch_related("entries", "entries__account")
    )
    kinds = Counter(txn.kind for txn in transactions)
    final_kind = Transaction.Kind.SETTLE
    if round.state == Round.State.SETTLED:
        assert round.completion == completion, (round.completion, round.recovery_note)
        assert kinds == {Transaction.Kind.STAKE: len(plays), Transaction.Kind.SETTLE: len(plays)}
        if completion == Round.Completion.SERVER:
            assert round.recovery_note.count("completed by the server") == 1, round.recovery_note
        else:
            assert "completed by the server" not in round.recovery_note
    else:
        assert round.state == Round.State.VOID
        final_kind = Transaction.Kind.REFUND
        assert kinds == {Transaction.Kind.STAKE: len(plays), Transaction.Kind.REFUND: len(plays)}

    assert audit_ledger() == []

    coup = expected_coup(round)
    if round.state == Round.State.SETTLED:
        assert round.player_cards == codes(coup.player_cards)
        assert round.banker_cards == codes(coup.banker_cards)
        assert (round.player_total, round.banker_total) == (coup.player_total, coup.banker_total)
        assert round.outcome == coup.outcome.value
        assert round.natural == coup.natural
    rules = rule_sets.rules_of(round)

    for play in plays:
        by_kind = {txn.kind: txn for txn in transactions if txn.player_id == play.player_id}
        assert set(by_kind) == {Transaction.Kind.STAKE, final_kind}
        stack = Account.objects.get(kind=Account.Kind.STACK, owner=play.player, table=round.table)
        bets = list(play.bets.all())
        assert play.stake_total == sum(bet.stake for bet in bets) > 0

        stake_entries = list(by_kind[Transaction.Kind.STAKE].entries.all())
        [stake_leg] = [entry for entry in stake_entries if entry.account_id == stack.pk]
        assert stake_leg.amount == -play.stake_total
        assert stake_leg.balance_after == play.balance_before - play.stake_total

        final_entries: list[Entry] = list(by_kind[final_kind].entries.all())
        to_stack = sum(entry.amount for entry in final_entries if entry.account_id == stack.pk)
        from_escrow = sum(
            entry.amount for entry in final_entries if entry.account.kind == Account.Kind.ESCROW
        )
        assert from_escrow == -play.stake_total
        if final_kind == Transaction.Kind.REFUND:
            assert to_stack == play.stake_total
            continue

        settlement = engine.settle(rules, coup, {bet.kind: bet.stake for bet in bets})
        for bet in bets:
            line = settlement.line(engine.BetKind(bet.kind))
            assert line is not None
            assert (bet.payout, bet.commission) == (line.payout, line.commission)
        assert play.payout_total == sum(bet.payout for bet in bets) == settlement.payout_total
        assert to_stack == play.payout_total
        assert play.balance_after == play.balance_before - play.stake_total + play.payout_total
        if play.payout_total:
            [leg] = [entry for entry in final_entries if entry.account_id == stack.pk]
            assert leg.balance_after == play.balance_after
    return round


def assert_shoe_advanced_once(round_ids: list[int]) -> None:
    """Consecutive rounds from one shoe continue where the last one stopped."""
    rounds = list(Round.objects.filter(pk__in=round_ids).select_related("shoe").order_by("pk"))
    for before, after in itertools.pairwise(rounds):
        if before.shoe_id != after.shoe_id or before.state != Round.State.SETTLED:
            continue
        dealt = len(expected_coup(before).dealt_order)
        assert after.start_position == before.start_position + dealt, (before.pk, after.pk)
        assert after.hand_number == before.hand_number + 1
    last = rounds[-1]
    if last.state == Round.State.SETTLED:
        assert last.shoe is not None
        assert last.shoe.hands_dealt == last.hand_number
        if not last.shoe.is_finished:
            dealt = len(expected_coup(last).dealt_order)
            assert last.shoe.state["position"] == last.start_position + dealt
