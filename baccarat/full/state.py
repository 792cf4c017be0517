"""Reads for a full table: what a seated player or a spectator sees, in a few queries."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from django.utils import timezone

from baccarat import engine
from baccarat.board.selectors import (
    BUY_IN_MULTIPLES,
    SPOT_LETTERS,
    SPOT_ORDER,
    balances,
)
from baccarat.db import newest_shared_rounds, player_seat, round_plays, table_seats
from baccarat.models import Play, Round, Seat, Shoe, Table

if TYPE_CHECKING:
    from casino.accounts.models import User


@dataclass
class SeatView:
    number: int
    player: str = ""
    is_me: bool = False
    # The bets on the layout this round, in felt order: (spot letter, cents).
    stakes: list[tuple[str, int]] = field(default_factory=list)
    decision: str = ""  # "deal", "pass", "timeout" or "" (still deciding)
    in_round: bool = False  # seated when the round opened (a newcomer waits)
    net: int | None = None  # what the seat won or lost in the round just dealt
    offered_cut: bool = False
    holds_shoe: bool = False  # cut the shoe: the bank for the hand after the cut

    @property
    def free(self) -> bool:
        return not self.player

    @property
    def total(self) -> int:
        return sum(amount for _letter, amount in self.stakes)


@dataclass
class FullTableState:
    table: Table
    seats: list[SeatView]
    me: Seat | None
    round: Round | None  # the round taking bets or being dealt
    my_play: Play | None
    stakes: dict[str, int]  # the viewer's bets this round
    stack: int
    wallet: int
    last_round: Round | None  # the last round dealt at this table
    my_last: Play | None  # the viewer's part in it
    shoe: Shoe | None
    cut_range: tuple[int, int] | None = None  # where the viewer may cut, when offered
    # Seeds 000/001: who cut holds the shoe (is the bank) for the hand after the cut; the
    # seat, while that hand is played and shown. ``shoe_hand_over``: it has been dealt.
    shoe_holder: SeatView | None = None
    shoe_hand_over: bool = False

    @property
    def total_stake(self) -> int:
        return sum(self.stakes.values())

    @property
    def committed(self) -> bool:
        return bool(self.my_play and self.my_play.decision == Play.Decision.DEAL)

    @property
    def available(self) -> int:
        return self.stack if self.committed else max(0, self.stack - self.total_stake)

    @property
    def minimum(self) -> int:
        return min(low for low, _high in self.table.limits().values())

    @property
    def buy_ins(self) -> list[tuple[int, bool]]:
        amounts = [-(-self.minimum * n // 100) * 100 for n in BUY_IN_MULTIPLES]
        return [(amount, amount <= self.wallet) for amount in amounts]

    @property
    def needs_chips(self) -> bool:
        return self.stack < self.minimum and not self.total_stake

    @property
    def betting(self) -> bool:
        return self.round is not None and self.round.state == Round.State.BETTING

    @property
    def deadline(self) -> datetime | None:
        return self.round.deadline if self.betting and self.round else None

    @property
    def seconds_left(self) -> int:
        """The whole seconds left to bet, rounded up as the page counts them down: what
        the timer shows before the page's script draws it (never the table's full time)."""
        deadline = self.deadline
        if deadline is None:
            return 0
        return max(0, math.ceil((deadline - timezone.now()).total_seconds()))

    @property
    def can_bet(self) -> bool:
        """The viewer may bet now: seated since before the round, not decided yet."""
        if self.me is None or not self.betting or self.round is None:
            return False
        return self.me.sat_at <= self.round.created_at and not (
            self.my_play and self.my_play.decision
        )

    @property
    def cut_middle(self) -> int | None:
        return (self.cut_range[0] + self.cut_range[1]) // 2 if self.cut_range else None

    @property
    def cut_offered_to_me(self) -> bool:
        return bool(
            self.me
            and self.shoe
            and self.shoe.cut_position is None
            and self.shoe.cut_offer_seat == self.me.number
        )


OPEN_STATES = (Round.State.BETTING, Round.State.LOCKED)
SHOWN_STATES = (*OPEN_STATES, Round.State.SETTLED)


def full_table_state(*, table: Table, viewer: User) -> FullTableState:
    """The table as ``viewer`` sees it: seats with their bets and decisions, the round,
    the viewer's own money and bets, the last deal and the shoe."""
    # Read on every live event by every browser at the table: written out (baccarat.db).
    taken = {seat.number: seat for seat in table_seats(table_id=table.pk)}
    me = next((seat for seat in taken.values() if seat.player_id == viewer.pk), None)
    # The round taking bets or being dealt, and the last one dealt, in one read: at most
    # one round of a full table is open, and it is the newest of these.
    newest = newest_shared_rounds(table_id=table.pk, states=SHOWN_STATES, count=2)
    for round in newest:
        round.table = table
    open_round = newest[0] if newest and newest[0].state in OPEN_STATES else None
    last_round = next((r for r in newest if r.state == Round.State.SETTLED), None)
    plays = round_plays(round_ids=[round.pk for round in newest])
    now_plays = {p.player_id: p for p in plays if open_round and p.round_id == open_round.pk}
    last_plays = {p.player_id: p for p in plays if last_round and p.round_id == last_round.pk}
    # The open shoe: the newest round's while it is unfinished (a table has one open
    # shoe), else looked up (a new shoe waiting for its cut). The card order (its largest
    # field) is read only when the viewer is offered the cut.
    dealt_from = next((r.shoe for r in newest if r.shoe is not None), None)
    if dealt_from is not None and not dealt_from.is_finished:
        shoe: Shoe | None = dealt_from
    else:
        shoe = (
            Shoe.objects.filter(table=table, player=None, is_finished=False).defer("state").first()
        )

    seats = []
    for number in Seat.NUMBERS:
        seat = taken.get(number)
        view = SeatView(number=number)
        if seat is not None:
            view.player = seat.player.username
            view.is_me = seat.player_id == viewer.pk
            view.in_round = open_round is not None and seat.sat_at <= open_round.created_at
            play = now_plays.get(seat.player_id)
            if play is not None:
                order = {kind: i for i, kind in enumerate(SPOT_ORDER)}
                bets = sorted(play.bets.all(), key=lambda bet: order[bet.kind])
                view.stakes = [(SPOT_LETTERS[bet.kind], bet.stake) for bet in bets]
                view.decision = play.decision
            last = last_plays.get(seat.player_id)
            if last is not None and last.stake_total:
                view.net = last.payout_total - last.stake_total
            view.offered_cut = bool(
                shoe and shoe.cut_position is None and shoe.cut_offer_seat == number
            )
        seats.append(view)

    my_play = now_plays.get(viewer.pk)
    stakes = {bet.kind: bet.stake for bet in my_play.bets.all()} if my_play else {}
    wallet, stack = balances(player=viewer, table=table)
    state = FullTableState(
        table=table,
        seats=seats,
        me=me,
        round=open_round,
        my_play=my_play,
        stakes=stakes,
        stack=stack,
        wallet=wallet,
        last_round=last_round,
        my_last=last_plays.get(viewer.pk),
        shoe=shoe,
    )
    if state.cut_offered_to_me and shoe is not None:
        state.cut_range = engine.cut_range(len(shoe.state["order"]) // 2)
    _find_shoe_holder(state, taken, open_round)
    return state


def _find_shoe_holder(
    state: FullTableState, taken: dict[int, Seat], open_round: Round | None
) -> None:
    """The seat holding the shoe: its player cut it, and the shoe's first hand is still to
    be dealt, or is the last one dealt while no other round has opened."""
    shoe, last = state.shoe, state.last_round
    if shoe is None or shoe.cut_by_id is None or shoe.cut_position is None:
        return
    if shoe.hands_dealt == 0:
        state.shoe_hand_over = False
    elif (
        open_round is None
        and last is not None
        and last.shoe_id == shoe.pk
        and last.hand_number == 1
    ):
        state.shoe_hand_over = True
    else:
        return
    for view in state.seats:
        seat = taken.get(view.number)
        if seat is not None and seat.player_id == shoe.cut_by_id:
            view.holds_shoe = True
            state.shoe_holder = view


def viewer_state(*, table: Table, viewer: User) -> FullTableState | None:
    """The seated viewer's own part of the table, or ``None`` when they have no seat:
    their seat and stack, the open round, their play and bets in it (what their status,
    spots and buttons show), in three queries. The seats, the last deal and the shoe are
    left out (empty): the answer to the viewer's own chip or decision does not draw them.
    """
    me = player_seat(table_id=table.pk, player_id=viewer.pk)
    if me is None:
        return None
    newest = newest_shared_rounds(table_id=table.pk, states=OPEN_STATES, count=1)
    open_round = newest[0] if newest else None
    my_play = None
    if open_round is not None:
        open_round.table = table
        plays = round_plays(round_ids=[open_round.pk], player_id=viewer.pk)
        my_play = plays[0] if plays else None
    return mine_state(table=table, seat=me, round=open_round, play=my_play, stack=me.stack)  # type: ignore[attr-defined]


def mine_state(
    *, table: Table, seat: Seat, round: Round | None, play: Play | None, stack: int
) -> FullTableState:
    """The viewer's own part of the table from what is at hand (their seat, the open
    round, their play with its bets cached, their stack), as :func:`viewer_state` reads it;
    the answer to their own chip or decision has it from the change itself."""
    return FullTableState(
        table=table,
        seats=[],
        me=seat,
        round=round,
        my_play=play,
        stakes={bet.kind: bet.stake for bet in play.bets.all()} if play else {},
        stack=stack,
        wallet=0,
        last_round=None,
        my_last=None,
        shoe=None,
    )


@dataclass
class LobbyInfo:
    seats_taken: int
    running: bool
    shoe_number: int | None = None
    shoe_percent: int | None = None  # how far the shoe is dealt, toward its cut card


def lobby_full_tables(tables: list[Table]) -> dict[int, LobbyInfo]:
    """Per full table: seats taken, a round running, how far its shoe is dealt."""
    ids = [table.pk for table in tables if table.kind == Table.Kind.FULL]
    if not ids:
        return {}
    taken: dict[int, int] = {}
    for table_id in Seat.objects.filter(table_id__in=ids).values_list("table_id", flat=True):
        taken[table_id] = taken.get(table_id, 0) + 1
    running = set(
        Round.objects.filter(
            table_id__in=ids, shared=True, state__in=[Round.State.BETTING, Round.State.LOCKED]
        ).values_list("table_id", flat=True)
    )
    info = {pk: LobbyInfo(seats_taken=taken.get(pk, 0), running=pk in running) for pk in ids}
    for shoe in Shoe.objects.filter(table_id__in=ids, player=None, is_finished=False):
        state = shoe.state
        if state.get("cut") is None:
            percent = 0
        else:
            span = max(1, state["cut_card_index"] - state["burned"])
            percent = min(100, max(0, (state["position"] - state["burned"]) * 100 // span))
        info[shoe.table_id].shoe_number = shoe.number
        info[shoe.table_id].shoe_percent = percent
    return info
