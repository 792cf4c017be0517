"""Lock, deal, settle and void: the steps that move a round to its end.

``BETTING -> LOCKED -> SETTLED``, and ``VOID`` from any state that is not final. Each
step locks the round row and checks the state it finds, so calling it twice (a retry,
a second process, the recovery sweep) is harmless. Money moves only through the wallet
services, whose references make their retries harmless too.

Locking escrows the stakes and draws the coup from the shoe (:mod:`baccarat.integrity.shoes`):
from then on the cards are fixed and hidden; the deal shows them, the settlement pays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from baccarat import engine
from baccarat.board.selectors import recent_plays
from baccarat.db import (
    Statement,
    cache_bets,
    open_shoe_of,
    save_all,
    save_statements,
    update_row,
    write_together,
)
from baccarat.errors import RoundError
from baccarat.events import event_write, locked_seats, locked_table
from baccarat.integrity import reversals, shoes
from baccarat.models import Bet, Play, Reversal, Round, Shoe, StatisticsMark, Table
from baccarat.play import betting
from baccarat.play.betting import locked_round, stakes_of, write_stakes
from baccarat.play.faults import fault_point
from baccarat.play.practice import practice_record
from baccarat.rules.rule_sets import rules_of
from wallet import protection
from wallet import services as wallet
from wallet.errors import InsufficientFunds
from wallet.models import Account


@dataclass
class LockResult:
    round: Round
    # Bet kinds whose stake was raised to the table minimum.
    raised: list[str] = field(default_factory=list)
    # A single seat's DEAL: the player's wallet and stack after the round, as read under
    # its locks (the wallet by the seat lock: a round does not move it; the stack by the
    # settle's locking read, with the payout).
    balances: tuple[int, int] | None = None
    # A DEAL repeated with the key of one that dealt this round: nothing was dealt now.
    repeated: bool = False


def staked_plays(round: Round) -> list[Play]:
    """The round's plays that hold bets, with their players and bets, in one query.

    Read after the round row is locked, so it sees every bet committed before.
    """
    plays: dict[int, Play] = {}
    bets: dict[int, list[Bet]] = {}
    rows = Bet.objects.filter(play__round=round).select_related("play__player")
    for bet in rows.order_by("play_id", "pk"):
        play = plays.setdefault(bet.play_id, bet.play)
        play.round = round
        bet.play = play
        bets.setdefault(play.pk, []).append(bet)
    for play in plays.values():
        cache_bets(play, bets[play.pk])
    return list(plays.values())


def _note(round: Round, line: str) -> None:
    round.recovery_note = (round.recovery_note + "\n" if round.recovery_note else "") + line


# Lock -------------------------------------------------------------------------------


def round_lock(*, round_id: int) -> LockResult:
    """Close betting: validate and escrow the stakes and reserve the cards (LOCKED).

    A stake below the table minimum is raised to the minimum (``LockResult.raised``);
    one above the maximum is refused. Already locked or settled: nothing happens.
    """
    with transaction.atomic():
        round = locked_round(round_id)
        if round.state == Round.State.VOID:
            raise RoundError("round_void")
        if round.state != Round.State.BETTING:
            return LockResult(round)
        result = lock_betting_round(round, staked_plays(round), escrowed=True)
    fault_point("after_stake")
    return result


def lock_betting_round(
    round: Round,
    plays: list[Play],
    *,
    escrowed: bool,
    shoe: Shoe | None = None,
    stack: int | None = None,
) -> LockResult:
    """Lock ``round``, BETTING, whose ``plays`` (bets loaded) the caller read under a lock
    no bet can pass: the round's row, or at a single-seat table the player's
    (:func:`baccarat.play.betting.seat_lock`). Inside the caller's transaction.

    ``escrowed``: a stake may be escrowed already (a full table's DEAL escrows each
    player's at once), so it is found by its reference, not posted twice. At a single-seat
    table nothing is escrowed before the lock, and that lookup is saved. ``shoe``: the
    open shoe the caller read with the plays, locked by its id
    (:func:`baccarat.integrity.shoes.shoe_deal_coup`). ``stack``: a single seat's stack as the
    caller read it under the seat lock, the play's stack before the stake unless the
    ledger's lock finds another.

    The positions taken, the shoe's and the round's new state, the play's stack before
    and the locking read of the stake's accounts go to the database together
    (:func:`baccarat.db.write_together`: one statement on PostgreSQL); the stake's
    posting follows, the last statement before the commit."""
    raised: list[str] = []
    rules = rules_of(round)
    limits = round.rules["limits"]
    plays = [play for play in plays if play.bets.all()]
    if not plays:
        raise engine.NoBet()
    # At a full table each stake went to escrow with the player's DEAL, and the stack
    # before it is on the play: read back at once, not posted again one by one.
    escrowed_now = wallet.escrowed_stakes(round=round) if escrowed else {}
    to_post: list[Play] = []
    for play in plays:
        stakes = stakes_of(play)
        for bet in play.bets.all():
            minimum, maximum = limits[bet.kind]
            if bet.stake > maximum:
                raise RoundError("above_max")
            if bet.stake < minimum:
                raised.append(bet.kind)
                stakes[bet.kind] = minimum
        engine.validate_bets(rules, stakes)
        if raised:
            write_stakes(play=play, stakes=stakes)
        elif (
            escrowed_now.get(play.player_id) == play.stake_total and play.balance_before is not None
        ):
            continue
        to_post.append(play)
    player = plays[0].player if len(plays) == 1 else None
    writes: list[Statement] = []
    shoes.shoe_deal_coup(round=round, player=player, known=shoe, writes=writes)
    round.state = Round.State.LOCKED
    round.locked_at = timezone.now()
    fields = ["shoe_id", "start_position", "end_position", "reserved_cards", "hand_number"]
    # Conditional: a void by support (which takes only the round's row) since the caller
    # read the round leaves it as it is, and this lock is undone.
    lock_write = len(writes)
    writes.append(
        update_row(
            Round,
            round.pk,
            {
                "state": Round.State.LOCKED,
                "locked_at": round.locked_at,
                **{name: getattr(round, name) for name in fields},
            },
            where={"state": Round.State.BETTING},
        )
    )
    if stack is not None:
        for play in to_post:
            play.balance_before = stack
        # With the DEAL's key (:func:`layout_deal`): a repeat of it finds this play.
        writes += save_statements(to_post, ["balance_before", "deal_token"])
    # The stakes go to escrow last: the ledger's row locks (each player's own stack and
    # escrow) are held from here to the commit only, not while the cards are drawn (and,
    # at a table that reshuffles every coup, the next shoe shuffled). One stake's
    # accounts are locked with the writes above (the rows read under the lock serve one
    # posting); several stakes lock their own.
    accounts = None
    if len(to_post) == 1:
        accounts = wallet.accounts_lock(table=round.table, players=[to_post[0].player], house=False)
    changed, locked_rows = write_together(round._state.db or "default", writes, accounts)
    if not changed[lock_write]:
        raise RoundError("round_void")
    shoes.shoe_follow(round, changed)
    # A stack too short undoes the whole lock, cards and all.
    corrected = []
    for play in to_post:
        try:
            stake = wallet.wallet_stake(
                player=play.player,
                table=round.table,
                round=round,
                amount=play.stake_total,
                reference=f"stake:{round.pk}:{play.player_id}",
                first=not escrowed,
                locked=locked_rows if accounts is not None else None,
            )
        except InsufficientFunds:
            # The seeds' "lower the bet or REBUY"; the transaction is undone.
            raise RoundError("stack_short") from None
        # The stack as it was just before the stake, read under the ledger's lock.
        entry = next(
            entry
            for entry in stake.posted_entries  # type: ignore[attr-defined]
            if entry.account.kind == Account.Kind.STACK
        )
        before = entry.balance_after - entry.amount
        if stack is None or before != play.balance_before:
            play.balance_before = before
            corrected.append(play)
    save_all(corrected, ["balance_before"])
    round.locked_plays = plays  # type: ignore[attr-defined]
    return LockResult(round, raised)


# Deal -------------------------------------------------------------------------------

DEALT_FIELDS = (
    "player_cards",
    "banker_cards",
    "player_total",
    "banker_total",
    "outcome",
    "natural",
    "dealt_at",
)


def _show_cards(round: Round) -> engine.Coup:
    """Turn the round's reserved cards face up (not saved)."""
    coup = engine.deal_cards(engine.cards_from_codes(round.reserved_cards))
    round.player_cards = " ".join(card.code for card in coup.player_cards)
    round.banker_cards = " ".join(card.code for card in coup.banker_cards)
    round.player_total = coup.player_total
    round.banker_total = coup.banker_total
    round.outcome = coup.outcome.value
    round.natural = coup.natural
    round.dealt_at = timezone.now()
    return coup


def round_deal(*, round_id: int) -> Round:
    """Show a LOCKED round's reserved cards; it stays LOCKED.

    One conditional ``UPDATE``, committed on its own. The condition (still LOCKED, not
    dealt) makes a second or concurrent deal write nothing, and the row lock the
    ``UPDATE`` takes orders it with settle and void.
    """
    round = Round.objects.select_related("table", "shoe").get(pk=round_id)
    if round.state != Round.State.LOCKED or round.dealt_at is not None:
        return round
    _show_cards(round)
    dealt = Round.objects.filter(
        pk=round.pk, state=Round.State.LOCKED, dealt_at__isnull=True
    ).update(**{name: getattr(round, name) for name in DEALT_FIELDS})
    if not dealt:  # dealt, settled or voided meanwhile: nothing was written
        return Round.objects.select_related("table", "shoe").get(pk=round_id)
    fault_point("after_deal")
    return round


# Settle -----------------------------------------------------------------------------


def round_settle(
    *,
    round_id: int,
    completion: str = Round.Completion.PLAYED,
    plays: list[Play] | None = None,
    locked: Round | None = None,
) -> Round:
    """Settle a LOCKED round: deal it if it was not dealt yet (with the cards it reserved
    at its lock), pay every bet, state SETTLED, in one transaction.

    ``plays``: the round's staked plays with their bets, as its lock left them (a LOCKED
    round's bets cannot change), so they are not read again. ``locked``: the round as
    its lock left it (table and shoe loaded), used when its row is still that: then the
    round's, the bets' and the plays' new state, the shoe's reveal and the locking read
    of the ledger's accounts go to the database together (one statement on
    PostgreSQL), the round's conditional on its row being still as its lock left it.
    """
    if locked is not None and locked.state == Round.State.LOCKED and locked.dealt_at is None:
        try:
            return _settle(round_id, completion, plays, locked)
        except _RowChanged:  # voided or completed meanwhile: nothing was written
            pass
    return _settle(round_id, completion, plays, None)


class _RowChanged(Exception):
    """The round's row is no longer as its lock left it: the settle starts again."""


def _settle(
    round_id: int, completion: str, plays: list[Play] | None, locked: Round | None
) -> Round:
    with transaction.atomic():
        writes: list[Statement] = []
        fields: list[str] = []  # to save, unless the claim saved them
        round = locked
        if round is not None:
            writes.append(_claim(round, completion))
        else:
            round = locked_round(round_id)
            if round.state in (Round.State.SETTLED, Round.State.VOID):
                return round
            if round.state != Round.State.LOCKED:
                raise RoundError("betting_closed")
            fields = _mark_settled(round, completion)
        coup = engine.coup_from_hands(round.player_cards.split(), round.banker_cards.split())
        rules = rules_of(round)
        if plays is None:
            plays = staked_plays(round)
        plays = [play for play in plays if play.stake_total]
        for play in plays:
            play.round = round  # the settled row, as the result is rendered from it
        bets: list[Bet] = []
        for play in plays:
            settlement = engine.settle(rules, coup, stakes_of(play))
            for bet in play.bets.all():
                line = settlement.line(engine.BetKind(bet.kind))
                assert line is not None
                bet.payout = line.payout
                bet.commission = line.commission
                bets.append(bet)
            play.payout_total = settlement.payout_total
            play.commission_total = settlement.commission_total
            play.balance_after = (play.balance_before or 0) - play.stake_total + play.payout_total
            # The player hears about a round the server finished on their next visit.
            play.server_notice = completion == Round.Completion.SERVER
        writes += save_statements(bets, ["payout", "commission"])
        writes += save_statements(
            plays, ["payout_total", "commission_total", "balance_after", "server_notice"]
        )
        if fields:
            writes += save_statements([round], fields)
        reveal = _reveal_statement(round)
        if reveal is not None:
            writes.append(reveal)
        # The round was LOCKED when this transaction took its row: never settled before,
        # every reference new. Posted last, as the lock's stakes are: the players' stacks,
        # escrows and houses are locked from here to the commit only (at a practice
        # table also by the session's end, which returns the stack's chips).
        accounts = (
            wallet.accounts_lock(
                table=round.table, players=[play.player for play in plays], house=True
            )
            if plays
            else None
        )
        changed, locked_rows = write_together(round._state.db or "default", writes, accounts)
        if locked is not None and not changed[0]:
            raise _RowChanged()
        stacks = {
            row["owner_id"]: row["balance"]
            for row in locked_rows
            if row["kind"] == Account.Kind.STACK
        }
        # Each player's stack once the settlement is posted.
        round.stacks_after = {  # type: ignore[attr-defined]
            play.player_id: stacks[play.player_id] + play.payout_total
            for play in plays
            if play.player_id in stacks
        }
        if reveal is None:
            _reveal_shoe(round)
        wallet.wallet_settle_all(
            locked=locked_rows,
            table=round.table,
            round=round,
            settlements=[
                wallet.Settlement(
                    player=play.player,
                    stake=play.stake_total,
                    payout=play.payout_total,
                    reference=f"settle:{round.pk}:{play.player_id}",
                )
                for play in plays
            ],
        )
        if round.table.kind == Table.Kind.PRACTICE:
            # After the payout: a session that ends here returns the stack as it is now.
            practice_record(round, plays)
            round.stacks_after = {}  # type: ignore[attr-defined]  # (it may have moved: read)
        fault_point("before_commit")
    fault_point("after_commit")
    # The settled plays with their bets, for a caller that shows the result at once.
    round.settled_plays = plays  # type: ignore[attr-defined]
    return round


def _mark_settled(round: Round, completion: str) -> list[str]:
    """Set what settling changes on ``round`` (not saved): its cards turned face up if they
    were not yet (the ones it reserved at its lock), state SETTLED. The fields set."""
    fields = ["state", "completion", "settled_at"]
    if round.dealt_at is None:
        _show_cards(round)
        fields += DEALT_FIELDS
    round.state = Round.State.SETTLED
    round.completion = completion
    round.settled_at = timezone.now()
    if completion == Round.Completion.SERVER:
        _note(round, f"completed by the server at {round.settled_at.isoformat()}")
        fields.append("recovery_note")
    return fields


def _claim(locked: Round, completion: str) -> Statement:
    """``locked`` (what this process's lock committed: table and shoe loaded) settled in its
    row by one conditional ``UPDATE`` (built, not run), if the row is still LOCKED and
    undealt, so nothing of it can have changed; that ``UPDATE`` takes the row's lock for
    the rest of the settle. It changes no row when the row changed meanwhile (voided,
    completed by the server): the caller starts again from the row."""
    fields = _mark_settled(locked, completion)
    return update_row(
        Round,
        locked.pk,
        {name: getattr(locked, name) for name in fields},
        where={"state": Round.State.LOCKED, "dealt_at": None},
    )


def _reveal_statement(round: Round) -> Statement | None:
    """The reveal of the round's shoe when it served this round alone (a table that
    reshuffles every coup): one conditional update, built, not run."""
    shoe = round.shoe
    if shoe is None or not shoe.is_finished or shoe.revealed_at is not None:
        return None
    if shoe.hands_dealt != 1:
        return None
    return update_row(Shoe, shoe.pk, {"revealed_at": timezone.now()}, where={"revealed_at": None})


def _reveal_shoe(round: Round) -> None:
    """Reveal the round's shoe if this round was the last open one of an ended shoe.

    A shoe that ended after one hand (a table that reshuffles every coup) served this
    round alone: one conditional update reveals it. Otherwise the shoe's lock decides
    (and a cut-card shoe missed here is revealed by the recovery sweep).
    """
    shoe = round.shoe
    if shoe is None or not shoe.is_finished or shoe.revealed_at is not None:
        return
    reveal = _reveal_statement(round)
    if reveal is not None:
        write_together(round._state.db or "default", [reveal])
    else:
        shoes.shoe_reveal_if_done(shoe_id=shoe.pk)


def round_play(*, round_id: int) -> LockResult:
    """The DEAL button: lock, then deal and settle, in two committed steps.

    The lock's commit is the step recovery relies on: the stakes are escrowed and the
    cards fixed, so whatever happens next the round ends with those cards (the server
    finishes it). Dealing and settling commit together: a dealt round that is not
    settled would only be a second state to recover from the same cards.
    """
    result = round_lock(round_id=round_id)
    result.round = round_settle(
        round_id=round_id,
        completion=Round.Completion.PLAYED,
        plays=getattr(result.round, "locked_plays", None),
        locked=result.round,
    )
    return result


def layout_deal(
    *,
    table: Table,
    player: Any,
    round_id: int | None,
    after: int | None,
    stakes: betting.Stakes | None = None,
    token: str = "",
) -> LockResult | None:
    """DEAL at a single-seat table, as the page asks it: ``round_id`` names the BETTING
    round the layout shows; ``after``, the last dealt round when the layout shows its
    bets again (seed 002's repeat: this DEAL opens a round with them). ``stakes``: the
    layout the page laid out in the browser and sends with DEAL; it becomes the round's
    bets in the lock's transaction (:func:`~baccarat.play.betting.place_layout`), so a round
    is one request. ``None`` when the round was dealt already (a double press). Lock and
    settle commit apart (:func:`round_play`); the lock runs under the player's seat lock,
    reading the layout once.

    ``token``: the press's idempotency key, stored on the play with the lock. A DEAL with
    the key of one that dealt already deals nothing and moves nothing, whatever its other
    fields say (:func:`_deal_repeated`). The seat lock orders repeats; the key is found
    on the player's latest plays, read under it anyway, and an older one is refused by
    the constraint ``one_deal_per_token`` (the whole lock undone)."""
    protection.protection_check(player=player, deal=True)
    keyed: Play | None = None
    result: LockResult | None = None
    try:
        with transaction.atomic():
            stack, wallet_balance = betting.seat_lock(table=table, player=player)
            plays = recent_plays(table=table, player=player, lock_shoe=True)
            keyed = next((p for p in plays if token and p.deal_token == token), None)
            if keyed is None:
                result = _layout_lock(
                    table, player, plays, round_id, after, stakes, token, stack=stack
                )
    except IntegrityError:
        keyed = Play.objects.filter(player=player, deal_token=token).first() if token else None
        if keyed is None:
            raise
        return _deal_repeated(keyed, player=player, latest=False)
    if keyed is not None:
        return _deal_repeated(keyed, player=player, latest=keyed is plays[0])
    if result is None:
        return None
    fault_point("after_stake")
    result.round = round_settle(
        round_id=result.round.pk,
        completion=Round.Completion.PLAYED,
        plays=getattr(result.round, "locked_plays", None),
        locked=result.round,
    )
    if not hasattr(result.round, "settled_plays"):
        # A repeat of this DEAL settled the round first (:func:`_deal_repeated`): the
        # answer still shows it dealt, from the play read back.
        _read_settled_play(result.round, player)
    stack_after = getattr(result.round, "stacks_after", {}).get(player.pk)
    if stack_after is not None:
        result.balances = (wallet_balance, stack_after)
    return result


def _layout_lock(
    table: Table,
    player: Any,
    plays: list[Play],
    round_id: int | None,
    after: int | None,
    stakes: betting.Stakes | None,
    token: str,
    *,
    stack: int,
) -> LockResult | None:
    """:func:`layout_deal`'s lock, under the seat lock: the round the page names (or a
    new one) locked with ``stakes`` and the press's ``token``; None when it was dealt."""
    current = next((p for p in plays if p.round.state == Round.State.BETTING), None)
    if round_id is not None:
        if current is None or current.round_id != round_id:
            dealt = Round.objects.filter(pk=round_id, plays__player=player).first()
            if dealt is None:
                raise RoundError("round_unknown")
            if dealt.state in (Round.State.SETTLED, Round.State.LOCKED):
                return None
            raise RoundError("betting_closed")
    elif current is None:
        if after is not None and any(
            p.round_id > after and p.round.state != Round.State.BETTING for p in plays
        ):
            return None
        current = betting.open_from_layout(
            table=table, player=player, plays=plays, save=stakes is None
        )
    current.player = player
    current.round.table = table
    if stakes is not None:
        betting.place_layout(play=current, player=player, stakes=stakes, stack=stack)
    current.deal_token = token  # written with the play's stack before the stake
    return lock_betting_round(
        current.round, [current], escrowed=False, shoe=open_shoe_of(plays), stack=stack
    )


def _deal_repeated(play: Play, *, player: Any, latest: bool) -> LockResult | None:
    """The answer to a DEAL repeated with the key of the one that dealt ``play``'s round:
    that round, settled (a repeat that comes while the first DEAL settles waits for it;
    one whose first DEAL's settle was cut short completes it, with the cards its lock
    reserved, as the recovery sweep would), as the first DEAL answered it, while it is
    still the player's last round here; else None (the table as it is now). Nothing is
    dealt or staked."""
    round = round_settle(round_id=play.round_id, completion=Round.Completion.PLAYED)
    if not latest:
        return None
    _read_settled_play(round, player)
    return LockResult(round, repeated=True)


def _read_settled_play(round: Round, player: Any) -> None:
    """The player's play in ``round``, with its bets, as ``round.settled_plays`` (what a
    settle leaves there for the answer) when the round is settled."""
    if round.state != Round.State.SETTLED:
        return
    settled = Play.objects.prefetch_related("bets").get(round=round, player=player)
    settled.round, settled.player = round, player
    round.settled_plays = [settled]  # type: ignore[attr-defined]


# Void -------------------------------------------------------------------------------


def round_void(
    *,
    round_id: int,
    reason: str,
    by: Any,
    attention: bool = False,
    cause: str = "",
    record: Callable[[Round, list[Reversal]], object] | None = None,
) -> Round:
    """Void a round: its money goes back as it was before the round
    (:mod:`baccarat.integrity.reversals`).

    A round not yet settled gives every escrowed stake back; its reserved cards are never
    dealt to anyone. A settled round can be voided only for a malfunction (``cause``,
    seed 002): stakes are refunded and payouts taken back by new transactions. A closed
    round, or a settled one for any other cause, is refused (``round_final``).

    Every player who had a stake hears about it (on their next page, or at once at a
    full table, whose browsers get a ``round_void`` event). ``attention`` marks a void
    the server made on its own (a round it could not complete), for support to look at.
    ``record`` is called with the round and its :class:`~baccarat.models.Reversal` rows
    inside the void's transaction, only when this call voided the round: the caller's
    record of who did it commits with the void or not at all. A second call finds the
    round void and does nothing.
    """
    table_id, shared = Round.objects.values_list("table_id", "shared").get(pk=round_id)
    with transaction.atomic():
        # A full table's seats, then its row: the croupier's order (baccarat.events).
        if shared:
            locked_seats(table_id)
        table = locked_table(table_id) if shared else None
        round = locked_round(round_id)
        if round.state == Round.State.VOID:
            return round
        settled = round.state == Round.State.SETTLED
        if round.state == Round.State.CLOSED or (settled and cause != Round.VoidCause.MALFUNCTION):
            raise RoundError("round_final")
        if settled:
            made = reversals.round_reverse_settled(round=round)
            # Its players' statistics count it no more: their hours are summed again.
            StatisticsMark.forget(Play.objects.filter(round=round, stake_total__gt=0))
        else:
            made = reversals.round_refund_stakes(round=round)
        Play.objects.filter(round=round, stake_total__gt=0).update(server_notice=True)
        round.state = Round.State.VOID
        round.completion = Round.Completion.VOID
        round.void_reason = reason or "void"
        round.void_cause = cause
        round.needs_attention = round.needs_attention or attention
        _note(
            round,
            f"voided by {by} at {timezone.now().isoformat()}"
            + (" after its settlement: stakes refunded, payouts taken back" if settled else ""),
        )
        round.save(
            update_fields=[
                "state",
                "completion",
                "void_reason",
                "void_cause",
                "needs_attention",
                "recovery_note",
            ]
        )
        _reveal_shoe(round)
        if table is not None:
            event_write(table, "round_void", round=round.pk)
        if record is not None:
            record(round, made)
    return round
