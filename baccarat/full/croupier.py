"""The croupier of a full table (seeds 000/001, "Spielablauf").

A round opens after the previous result, at least ``cycle_seconds`` later. Each seated
player bets and presses Deal (the stake is committed: it goes to escrow) or Pass (the
bets go back). The cards are dealt when every player seated at the round's start has
decided, or when the betting timer (``betting_seconds``) runs out: a player who has not
decided is left out and gets the bets back; three such rounds in a row stand them up.
A new shoe is offered for the cut to the seated players in seat order; when all decline,
or the offered player's time runs out, the croupier cuts at random; then the burn.

The timer lives here, on the server: :func:`table_tick` does whatever is due at a table
(close betting, open the next round, move the cut offer on, stand up who is gone). A
Celery countdown task calls it at each due time, and the recovery sweep calls it for
every full table as a backstop when the worker died. Every change takes its locks in one
order, seats then the table (:mod:`baccarat.events`), so eight Deal presses in the same
instant make one deal, and writes its events in the same transaction. A player's own
press does its work under their seat's lock, beside the others' presses, and holds the
table's lock only for the statement that stores its event, and its commit
(:func:`_own_change`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Value
from django.db.models.functions import Concat
from django.utils import timezone

from baccarat import db, engine
from baccarat.errors import RoundError
from baccarat.events import event_write, events_write, table_change
from baccarat.full.seats import seats_stand_up_all, seats_stand_up_due
from baccarat.integrity import shoes
from baccarat.models import Play, Round, Seat, Shoe, Table
from baccarat.play import betting, rounds
from baccarat.play.faults import fault_point
from baccarat.rules.rule_sets import rules_of
from wallet import protection
from wallet import services as wallet
from wallet.errors import InsufficientFunds
from wallet.models import Account

if TYPE_CHECKING:
    from casino.accounts.models import User

logger = logging.getLogger(__name__)


# Reads ------------------------------------------------------------------------------


def open_round(table: Table) -> Round | None:
    """The full table's round taking bets or being dealt, if there is one (with its shoe,
    the card order not read)."""
    found = db.newest_shared_rounds(
        table_id=table.pk, states=[Round.State.BETTING, Round.State.LOCKED], count=1
    )
    return found[0] if found else None


def _open_shoe(table: Table) -> Shoe | None:
    return Shoe.objects.filter(table=table, player=None, is_finished=False).first()


def _in_round(round: Round, seats: list[Seat]) -> list[Seat]:
    """The seats that play ``round``: taken before it opened (a player who sits down
    during a round waits for the next)."""
    return [seat for seat in seats if seat.sat_at <= round.created_at]


# The tick ---------------------------------------------------------------------------


def table_tick(
    *, table_id: int, now: datetime | None = None, sent_for: datetime | None = None
) -> datetime | None:
    """Do whatever is due at a full table; returns when something is due next.

    Idempotent and safe from any process: the table's row lock orders it with every
    other change at the table.

    The next tick is sent for the moment something is due next, unless one is on its way
    for that moment already (:func:`_plan_tick`): ``sent_for`` is the moment this tick
    was sent for (the task's ETA), ``None`` for a tick nobody planned (the sweep's, a
    Deal's or a cut's at once, the first player's sitting down).

    A tick that finds the round's betting deadline passed counts one attempt on the
    round, committed before it tries (a tick that kills its process still counts). When
    the round's attempts pass ``CASINO_RECOVERY_MAX_ATTEMPTS``, ticks have failed to deal
    it that often: it is voided instead, every escrowed stake back, and marked for
    support, as the recovery sweep does with a LOCKED round it cannot finish
    (:func:`_give_up`). A failed tick adds a line to the round's recovery trail.
    """
    now = now or timezone.now()
    overdue = _count_overdue_attempt(table_id, now)
    if overdue is not None and overdue[1] > settings.CASINO_RECOVERY_MAX_ATTEMPTS:
        _give_up(*overdue)
    try:
        with table_change(table_id, every_seat=True) as table:
            if table.kind != Table.Kind.FULL:
                return None
            due = _tick(table, now)
            _plan_tick(table, due, sent_for)
    except Exception as error:
        if overdue is not None:
            line = f"tick attempt {overdue[1]} failed at {timezone.now().isoformat()}: {error!r}"
            Round.objects.filter(pk=overdue[0]).update(
                recovery_note=Concat(F("recovery_note"), Value("\n" + line[:500]))
            )
        raise
    return due


def _plan_tick(table: Table, due: datetime | None, sent_for: datetime | None) -> None:
    """Send the tick for ``due`` unless one is on its way for that moment already.

    ``Table.tick_due`` holds the moment the last tick was sent for; the tick sent for it
    takes it over when it runs. Without it every unplanned tick (a Deal's, the sweep's
    every few seconds) would start a chain of its own, each sending the next, and a table
    would be ticked a score of times a round. A tick whose task got lost leaves its moment
    here: the sweep's next pass after it does what was due and sends the next one.
    """
    if not settings.CASINO_TABLE_TICKS:
        return
    planned = None if sent_for is not None and sent_for == table.tick_due else table.tick_due
    if due is not None and due != planned:
        schedule_tick(table.pk, due)
        planned = due
    if planned != table.tick_due:
        Table.objects.filter(pk=table.pk).update(tick_due=planned)
        table.tick_due = planned


def _count_overdue_attempt(table_id: int, now: datetime) -> tuple[int, int] | None:
    """One more attempt on the table's round taking bets past its deadline, committed
    now: (the round's id, its attempts). ``None`` when no round is overdue."""
    overdue = Round.objects.filter(
        table_id=table_id, shared=True, state=Round.State.BETTING, deadline__lte=now
    )
    if not overdue.update(recovery_attempts=F("recovery_attempts") + 1):
        return None
    return overdue.values_list("pk", "recovery_attempts").first()


def _give_up(round_id: int, attempt: int) -> None:
    """Void a round that ticks failed to deal ``attempt - 1`` times: stakes back, support
    alerted (``needs_attention``), the players told; the table then goes on."""
    tries = attempt - 1
    line = {"event": "tick", "round": round_id, "attempt": attempt}
    try:
        rounds.round_void(
            round_id=round_id,
            reason=(
                f"The server could not deal this round after {tries} attempts; "
                "every stake was returned."
            ),
            by="croupier",
            attention=True,
            cause=Round.VoidCause.NOT_COMPLETED,
        )
    except RoundError:  # dealt or closed meanwhile: nothing to give up
        return
    except Exception as error:
        failed = {**line, "outcome": "failed", "step": "void", "error": repr(error)}
        logger.warning(json.dumps(failed))
        return
    logger.warning(json.dumps({**line, "outcome": "voided", "step": "void"}))


def _tick(table: Table, now: datetime) -> datetime | None:
    seats_stand_up_due(table, now)
    seats = db.table_seats(table_id=table.pk)  # with their players, by number
    round = open_round(table)
    if round is not None and round.state == Round.State.LOCKED:
        # Left half-done (closing, locking, dealing and settling are one transaction, so
        # only a failure can leave this): the server completes it now.
        _finish(table, round, Round.Completion.SERVER)
        round = None
    if round is not None:
        if (round.deadline is not None and now >= round.deadline) or _everyone_decided(round):
            _close_betting(table, round, seats)
            round = None
        else:
            return round.deadline
    if not table.is_active:
        # Closed: once no round is open, everyone is stood up and cashed out.
        seats_stand_up_all(table, reason="closed")
        return None
    if not seats:
        return None
    shoe, due = _shoe_ready(table, seats, now)
    if shoe is None:
        return due
    last_end = (
        Round.objects.filter(table=table, shared=True)
        .exclude(state__in=[Round.State.BETTING, Round.State.LOCKED])
        .aggregate(at=Max("settled_at"), opened=Max("created_at"))
    )
    ended = last_end["at"] or last_end["opened"]
    starts = ended + timedelta(seconds=table.cycle_seconds) if ended else now
    if now < starts:
        return starts
    round = _open(table, now)
    return round.deadline


def _open(table: Table, now: datetime) -> Round:
    deadline = now + timedelta(seconds=table.betting_seconds)
    round = Round.objects.create(
        table=table, rules=table.rule_snapshot(), shared=True, deadline=deadline
    )
    event_write(
        table,
        "round_open",
        round=round.pk,
        deadline=deadline.isoformat(),
        seconds=table.betting_seconds,
    )
    return round


def _everyone_decided(round: Round) -> bool:
    """Whether every seat that plays ``round`` (:func:`_in_round`) has decided it: one
    query that reads no seat or player. A decision asks it after its commit, so of
    presses deciding at once the last to commit finds everyone decided (and one before it
    may too: a tick more, which finds nothing to do)."""
    playing, undecided = db.round_deciders(round_id=round.pk)
    return bool(playing) and not undecided


# Betting ----------------------------------------------------------------------------


@contextmanager
def _own_change(table: Table, player: User) -> Iterator[Seat]:
    """A change of the player's own part of the round (chips, Deal, Pass): a transaction
    that locks their seat first (``seat.stack``: their stack here), so their presses come
    one after another while the other players' go on beside them. The table's lock comes
    last, taken by the statement that numbers and stores the change's event
    (:func:`baccarat.events.event_write`), and held for its commit alone.

    Whatever may change another player's part or the round's state (the croupier's step,
    a void, standing up) locks the seats before the table (:mod:`baccarat.events`): it
    waits for the presses under way, so the round and the part read here stay as read
    until the commit."""
    with transaction.atomic():
        seat = db.player_seat(table_id=table.pk, player_id=player.pk, lock=True)
        if seat is None:
            raise RoundError("not_seated")
        yield seat


def _betting_round(
    table: Table, seat: Seat, player: User, *, create: bool = True
) -> tuple[Round, Play]:
    """The round taking bets and the player's part in it with its bets (their seat
    locked: nothing of it changes meanwhile). ``create`` False: a part not stored yet is
    left unsaved (no bets, no ``pk``), for a caller that stores it with its bets and
    decision in one write."""
    round = open_round(table)
    if round is None or round.state != Round.State.BETTING:
        raise RoundError("betting_not_open")
    if round.deadline is not None and timezone.now() >= round.deadline:
        raise RoundError("betting_not_open")
    if seat.sat_at > round.created_at:
        raise RoundError("sat_during_round")
    round.table = table  # the rules and chips are read from it: not again
    found = db.round_plays(round_ids=[round.pk], player_id=player.pk)
    if found:
        play = found[0]
    else:  # the seat's lock is held: nobody else creates it meanwhile
        play = Play(round=round, table=table, player=player, seat=seat.number)
        if create:
            play.save()
            db.cache_bets(play, [])
    play.round = round
    if play.decision:
        raise RoundError("already_decided")
    return round, play


@dataclass
class Mine:
    """The acting player's part of the table as their chip or decision left it, read and
    changed under their seat's lock: their seat, the round, their play with its bets and
    their stack. What the answer to them draws, without reading it again."""

    seat: Seat
    round: Round
    play: Play
    stack: int


def _edit(table: Table, player: User, edit: betting.LayoutEdit, token: str = "") -> Mine:
    """Change the player's bets this round and tell the table. ``token``: the press's
    idempotency key; a repeat of a press changes and tells nothing."""
    with _own_change(table, player) as seat:
        round, play = _betting_round(table, seat, player)
        stack = seat.stack or 0  # type: ignore[attr-defined]
        if token and not play.chip_keys and _pressed_last_round(play, token):
            return Mine(seat, round, play, stack)  # a retry that came after its round's deal
        before = play.chip_keys
        stakes = betting.play_edit(
            round=round, play=play, player=player, edit=edit, stack=stack, token=token
        )
        if not token or play.chip_keys != before:
            event_write(table, "bets", round=round.pk, seat=seat.number, stakes=stakes)
        return Mine(seat, round, play, stack)  # a chip moves no money: the stack is as it was


def _pressed_last_round(play: Play, token: str) -> bool:
    """Whether the press ``token`` changed the player's bets of their round before this
    one at the table: a client's retry of a chip that arrives after that round was dealt
    must not land on the next. Looked at before this round's first change only (later,
    the retry would have come long after its answer); one probe of the index
    play_player_table_round."""
    last = (
        Play.objects.filter(player_id=play.player_id, table_id=play.table_id)
        .filter(round_id__lt=play.round_id)
        .order_by("-round_id")
        .values_list("chip_keys", flat=True)
        .first()
    )
    return bool(last) and token in last.split()


def full_bet(
    *,
    table: Table,
    player: User,
    kind: str,
    amount: int | None,
    take_back: bool,
    token: str = "",
) -> Mine:
    """A chip on a spot (or back from it; ``amount`` None: the whole bet) at a full table."""
    if not take_back:
        protection.protection_check(player=player)
    edit = betting.chip_edit(kind=kind, amount=amount, take_back=take_back)
    return _edit(table, player, edit, token)


def full_layout(*, table: Table, player: User, stakes: betting.Stakes, token: str = "") -> Mine:
    """The player's layout as their page laid it out (chips placed in the browser, sent
    after a pause in them so that every seat sees them): their bets this round now."""
    if stakes:
        protection.protection_check(player=player)
    return _edit(table, player, betting.layout_set(stakes), token)


def full_clear(*, table: Table, player: User, token: str = "") -> Mine:
    return _edit(table, player, betting.clear_edit, token)


def full_rebet(*, table: Table, player: User, token: str = "") -> Mine:
    """Gleicher Einsatz (seed 000): the player's bets of their last round here again."""
    protection.protection_check(player=player)
    last = betting.last_stakes(table=table, player=player)  # a settled round: read as is

    def rebet(
        round: Round, stakes: betting.Stakes, repeated: bool, _: betting.Stakes
    ) -> betting.Stakes:
        return betting.rebet_edit(round, stakes, repeated, last)

    return _edit(table, player, rebet, token)


@dataclass
class Decided:
    raised: list[str] = field(default_factory=list)  # stakes raised to the table minimum
    last: bool = False  # the round's last decision: the croupier deals it next
    mine: Mine | None = None  # the player's part of the table after it


def full_decide(
    *,
    table: Table,
    player: User,
    deal: bool,
    token: str = "",
    stakes: betting.Stakes | None = None,
) -> Decided:
    """Deal (commit the stake) or Pass (take the bets back) for this round. ``stakes``:
    the layout the page sent with Deal (laid out in the browser), which becomes the
    player's bets before the stake is committed; None: the bets the server holds.

    When this was the last decision of the round, the croupier deals it at once in a step
    of its own (:func:`table_tick`, a task sent for now; the recovery sweep ticks every
    table as its backstop), so the last Deal answers as fast as any other and nobody's
    request waits for the cards to be dealt and settled.

    ``token``: the press's idempotency key, stored with the decision. A press repeated
    with the key of a decision taken already (a client's retry) decides nothing and moves
    nothing: it is answered with the player's part of the table as it is
    (``Decided.mine`` None), not refused, whatever round the table is at now.
    """
    if deal:
        protection.protection_check(player=player, deal=True)
    try:
        return _decide(table=table, player=player, deal=deal, token=token, stakes=stakes)
    except (RoundError, IntegrityError):
        # Refused (decided already, betting over) or, for a key of an earlier round, the
        # constraint one_deal_per_token: the whole decision undone. A repeat is no error.
        if token and Play.objects.filter(player=player, deal_token=token).exists():
            return Decided()
        raise


def _decide(
    *, table: Table, player: User, deal: bool, token: str, stakes: betting.Stakes | None
) -> Decided:
    raised: list[str] = []
    with _own_change(table, player) as seat:
        round, play = _betting_round(table, seat, player, create=False)
        stack = seat.stack or 0  # type: ignore[attr-defined]
        before = betting.stakes_of(play) if play.pk else {}
        play.deal_token = token
        if deal:
            wanted = before
            if stakes is not None:
                wanted = betting.edited_stakes(
                    round=round,
                    before=before,
                    player=player,
                    edit=betting.layout_set(stakes),
                    stack=stack,
                )
            raised, played, stack = _commit(round, play, player, wanted)
            play.decision = Play.Decision.DEAL
            fields: tuple[str, ...] = ("decision", "balance_before", "deal_token")
        else:
            played = {}
            play.decision = Play.Decision.PASS
            fields = ("decision", "deal_token")
        # The bets as played and the decision: one write (a part not stored yet is
        # inserted with its bets, on PostgreSQL in one statement).
        betting.write_stakes(play=play, stakes=played, also=fields)
        # Stakes the Deal changed (its layout, or raised to the minimum) come with it:
        # every page shows them as they are played, in one event.
        told = {"stakes": played} if raised or (deal and played != before) else {}
        event_write(
            table, "decision", round=round.pk, seat=seat.number, decision=play.decision, **told
        )
    if _everyone_decided(round):
        # Betting is over before its deadline: the tick closes it and deals now. (While
        # others still decide, the tick at the deadline is already on its way.)
        schedule_tick(table.pk, timezone.now())
        return Decided(raised, True, Mine(seat, round, play, stack))
    return Decided(raised, False, Mine(seat, round, play, stack))


def _commit(
    round: Round, play: Play, player: User, stakes: betting.Stakes
) -> tuple[list[str], betting.Stakes, int]:
    """Raise ``stakes`` below the minimum, then move the stake to escrow (DEAL pressed;
    read under the seat's lock, ``play.balance_before`` set, nothing of the play
    written). The spots raised, the stakes played, and the stack after the stake left
    it."""
    if not stakes:
        raise engine.NoBet()
    stakes = dict(stakes)
    limits = round.rules["limits"]
    raised = [kind for kind, stake in stakes.items() if stake < limits[kind][0]]
    for kind in raised:
        stakes[kind] = limits[kind][0]
    engine.validate_bets(rules_of(round), stakes)
    try:
        stake = wallet.wallet_stake(
            player=player,
            table=round.table,
            round=round,
            amount=sum(stakes.values()),
            reference=f"stake:{round.pk}:{play.player_id}",
            # Under the seat's lock with no decision yet: this stake was never posted.
            first=True,
        )
    except InsufficientFunds:
        raise RoundError("stack_short") from None
    leg = next(e for e in stake.posted_entries if e.account.kind == Account.Kind.STACK)  # type: ignore[attr-defined]
    play.balance_before = leg.balance_after - leg.amount  # saved with the decision
    return raised, stakes, leg.balance_after


def _close_betting(table: Table, round: Round, seats: list[Seat]) -> None:
    """No more bets: who did not decide is left out; deal if anyone committed a stake."""
    players = {seat.player_id: seat for seat in _in_round(round, seats)}
    plays = {
        play.player_id: play for play in Play.objects.filter(round=round).prefetch_related("bets")
    }
    timed_out = []
    changed = []
    for player_id, seat in players.items():
        play = plays.get(player_id)
        missed = seat.missed + 1 if play is None or not play.decision else 0
        if missed:
            timed_out.append(seat.number)
        if missed != seat.missed:
            seat.missed = missed
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["missed"])
    for play in plays.values():
        if play.decision != Play.Decision.DEAL:
            if play.bets.all():
                betting.write_stakes(play=play, stakes={})
            if not play.decision:
                play.decision = Play.Decision.TIMED_OUT
                play.save(update_fields=["decision"])
    events: list[tuple[str, dict[str, Any]]] = [
        ("betting_closed", {"round": round.pk, "left_out": timed_out})
    ]
    committed = [p for p in plays.values() if p.decision == Play.Decision.DEAL and p.stake_total]
    if not committed:
        Round.objects.filter(pk=round.pk).update(
            state=Round.State.CLOSED, settled_at=timezone.now()
        )
        events.append(("round_closed", {"round": round.pk}))
        events_write(table, events)
        return
    events_write(table, events)
    # Under every seat's lock and the table's (a void takes them too) the round and the
    # plays just read cannot change: they are locked and settled as read, not read again.
    staked = [play for play in plays.values() if play.bets.all()]
    for play in staked:
        play.round = round
        if play.player_id in players:
            play.player = players[play.player_id].player
    round.table = table
    locked = rounds.lock_betting_round(round, staked, escrowed=True).round
    fault_point("after_stake")
    _finish(table, locked, plays=locked.locked_plays)  # type: ignore[attr-defined]


def _finish(
    table: Table,
    round: Round,
    completion: str = Round.Completion.PLAYED,
    *,
    plays: list[Play] | None = None,
) -> None:
    """Deal and settle a locked round, with its card, result and payout events. The
    settle shows the cards it reserved at its lock. ``plays``: the round was locked in
    this transaction and these are its staked plays as the lock left them."""
    settled = rounds.round_settle(
        round_id=round.pk,
        completion=completion,
        plays=plays,
        locked=round if plays is not None else None,
    )
    coup = engine.deal_cards(engine.cards_from_codes(settled.reserved_cards))
    player_n = len(coup.player_cards)
    cards = []
    for step, card in enumerate(coup.dealt_order):
        hand = "player" if step in (0, 2) or (step == 4 and player_n == 3) else "banker"
        cards.append(("card", {"round": round.pk, "step": step, "hand": hand, "card": card.code}))
    settled_plays = getattr(settled, "settled_plays", [])
    _notify_the_absent(table, settled_plays)
    payouts = {
        str(play.seat): {"stake": play.stake_total, "paid": play.payout_total}
        for play in settled_plays
    }
    events_write(
        table,
        [
            *cards,
            (
                "result",
                {
                    "round": round.pk,
                    "outcome": settled.outcome,
                    "player": settled.player_total,
                    "banker": settled.banker_total,
                },
            ),
            ("payouts", {"round": round.pk, "seats": payouts}),
        ],
    )


# A player whose page has not been connected this long when their round is dealt hears
# about it on their next visit (the result is in their protocol anyway).
ABSENT_SECONDS = 30


def _notify_the_absent(table: Table, plays: list[Play]) -> None:
    present_since = timezone.now() - timedelta(seconds=ABSENT_SECONDS)
    here = set(
        Seat.objects.filter(table=table, last_seen__gte=present_since).values_list(
            "player_id", flat=True
        )
    )
    absent = [play.pk for play in plays if play.player_id not in here]
    if absent:
        Play.objects.filter(pk__in=absent).update(server_notice=True)


# The shoe ritual --------------------------------------------------------------------


def _shoe_ready(
    table: Table, seats: list[Seat], now: datetime
) -> tuple[Shoe | None, datetime | None]:
    """The open shoe if it is cut and burned; else move the cut offer on.

    Returns the shoe (or ``None`` while the cut is still offered) and, when it waits,
    when its offer runs out.
    """
    shoe = _open_shoe(table)
    if shoe is None or shoe.state["decks"] != table.decks:
        shoe = shoes.shoe_open(table=table, player=None, lock=True)
    else:
        shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)
    if shoe.cut_position is not None:
        return shoe, None
    seated = [seat.number for seat in seats]
    if shoe.cut_offer_seat is None:
        event_write(table, "shoe_new", shoe=shoe.pk, number=shoe.number, commitment=shoe.commitment)
        return None, _offer(table, shoe, seated[0], now)
    if shoe.cut_offer_seat not in seated:  # the offered player has left
        following = [n for n in seated if n > shoe.cut_offer_seat]
        if following:
            return None, _offer(table, shoe, following[0], now)
        _cut(table, shoe, None, None)
        return shoe, None
    if shoe.cut_offer_until is not None and now >= shoe.cut_offer_until:
        _cut(table, shoe, None, None)  # the offered player's time ran out: the croupier cuts
        return shoe, None
    return None, shoe.cut_offer_until


def _offer(table: Table, shoe: Shoe, seat: int, now: datetime) -> datetime:
    until = now + timedelta(seconds=table.betting_seconds)
    shoe.cut_offer_seat = seat
    shoe.cut_offer_until = until
    shoe.save(update_fields=["cut_offer_seat", "cut_offer_until"])
    event_write(table, "cut_offer", shoe=shoe.pk, seat=seat, until=until.isoformat())
    return until


def _cut(table: Table, shoe: Shoe, position: int | None, seat: Seat | None) -> None:
    dealer = shoes.shoe_cut(shoe=shoe, position=position, by=seat.player if seat else None)
    burn = dealer.burned[0].code if dealer.burned else ""
    events_write(
        table,
        [
            (
                "cut",
                {
                    "shoe": shoe.pk,
                    "seat": seat.number if seat else None,
                    "position": dealer.cut_position,
                },
            ),
            ("burn", {"shoe": shoe.pk, "card": burn, "count": dealer.burned_count}),
        ],
    )


def cut_decide(*, table: Table, player: User, accept: bool, position: int | None = None) -> None:
    """The offered player cuts (``accept`` with a position) or passes the shoe on."""
    with table_change(table.pk) as table:
        seat = Seat.objects.filter(table=table, player=player).select_related("player").first()
        shoe = _open_shoe(table)
        if (
            seat is None
            or shoe is None
            or shoe.cut_position is not None
            or shoe.cut_offer_seat != seat.number
            or (shoe.cut_offer_until is not None and timezone.now() >= shoe.cut_offer_until)
        ):
            raise RoundError("not_your_cut")
        shoe = Shoe.objects.select_for_update().get(pk=shoe.pk)
        if accept:
            size = len(shoe.state["order"]) // 2
            low, high = engine.cut_range(size)
            if position is None or not low <= position <= high:
                raise RoundError("cut_outside")
            _cut(table, shoe, position, seat)
        else:
            event_write(table, "cut_declined", shoe=shoe.pk, seat=seat.number)
            later = list(
                Seat.objects.filter(table=table, number__gt=seat.number)
                .order_by("number")
                .values_list("number", flat=True)
            )
            if later:
                _offer(table, shoe, later[0], timezone.now())
            else:
                _cut(table, shoe, None, None)  # all declined: the croupier cuts
        schedule_tick(table.pk, timezone.now())


def shared_round_recover(*, round_id: int) -> None:
    """Complete a full table's LOCKED round for the recovery sweep, with its events."""
    table_id = Round.objects.values_list("table_id", flat=True).get(pk=round_id)
    with table_change(table_id, every_seat=True) as table:
        round = Round.objects.get(pk=round_id)
        if round.state == Round.State.LOCKED:
            _finish(table, round, Round.Completion.SERVER)


# Scheduling -------------------------------------------------------------------------

TICK_TASK = "baccarat.tasks.table_tick"


# After a send failed (the broker refused, or did not answer within its timeouts), this
# process sends no tick for REDIS_RETRY_SECONDS: each would hold its request as long
# again, and no worker could take it meanwhile; the sweep ticks every table after.
_broker_failed_until = [0.0]


def schedule_tick(table_id: int, at: datetime) -> None:
    """Have :func:`table_tick` run at ``at`` (after this transaction commits)."""
    if not settings.CASINO_TABLE_TICKS:
        return

    def send() -> None:
        if time.monotonic() < _broker_failed_until[0]:
            return
        # By the task's name: baccarat.tasks sits above the croupier and calls it. A tick
        # due now goes without an ETA, straight to the next free worker.
        later = {"eta": at} if at > timezone.now() else {}
        try:
            current_app.send_task(
                TICK_TASK, args=(table_id,), kwargs={"at": at.isoformat()}, **later
            )
        except Exception:  # the recovery sweep ticks every table anyway
            _broker_failed_until[0] = time.monotonic() + settings.REDIS_RETRY_SECONDS
            logger.warning("could not schedule the tick of table %s", table_id, exc_info=True)

    transaction.on_commit(send)


def tables_tick() -> int:
    """Tick every full table that has players or a round open (the sweep's backstop)."""
    busy = set(Seat.objects.values_list("table_id", flat=True)) | set(
        Round.objects.filter(
            shared=True, state__in=[Round.State.BETTING, Round.State.LOCKED]
        ).values_list("table_id", flat=True)
    )
    for table_id in sorted(busy):
        try:
            table_tick(table_id=table_id)
        except Exception:
            logger.exception("tick of table %s failed", table_id)
    return len(busy)
