"""Reads for the table page and the protocol, each a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table
from baccarat.shoes import shoe_open
from wallet.models import Account, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User

STATS_LENGTH = 60


def table_for_player(*, slug: str, player: User) -> Table:
    """A table the player may sit at: an open public table or their own practice table."""
    table = Table.objects.filter(slug=slug).select_related("practice").first()
    if table is None:
        raise Http404
    if table.kind == Table.Kind.PRACTICE:
        if table.owner_id != player.pk:
            raise Http404
    elif not table.is_active or table.kind != Table.Kind.SINGLE:
        raise Http404
    return table


def table_name(table: Table) -> str:
    """A table's name for people: practice tables are stored under a neutral name and
    read as "Practice" in each player's (and support's) own language."""
    if table.kind == Table.Kind.PRACTICE:
        return str(_("Practice"))
    return table.name


def practice_of(table: Table) -> PracticeSession | None:
    try:
        return table.practice
    except PracticeSession.DoesNotExist:
        return None


def stack_balance(*, player: User, table: Table) -> int:
    balance = (
        Account.objects.filter(kind=Account.Kind.STACK, owner=player, table=table)
        .values_list("balance", flat=True)
        .first()
    )
    return balance or 0


@dataclass
class TableState:
    table: Table
    stack: int
    play: Play | None  # the player's part in the BETTING round
    stakes: dict[str, int]
    last: Play | None  # the player's last finished round here
    in_play: Round | None  # a LOCKED round being completed
    stats: list[Round] = field(default_factory=list)
    shoe: Shoe | None = None  # the shoe the next round is dealt from, its commitment shown

    @property
    def total_stake(self) -> int:
        return sum(self.stakes.values())

    @property
    def round(self) -> Round | None:
        return self.play.round if self.play else None


def table_state(*, table: Table, player: User, settled: Play | None = None) -> TableState:
    """Everything the table page shows, in four queries.

    ``settled``: the player's play this request has just settled (with its round and
    bets loaded). Settling it closed the player's only open round here, so it is the
    last finished one and nothing else is open: two queries fewer.
    """
    if settled is not None:
        plays = [settled]
    else:
        plays = list(
            Play.objects.filter(player=player, round__table=table)
            .exclude(round__state=Round.State.VOID)
            .select_related("round", "round__shoe")
            .prefetch_related("bets")
            .order_by("-round_id")[:2]
        )
    current = next((p for p in plays if p.round.state == Round.State.BETTING), None)
    in_play = next((p.round for p in plays if p.round.state == Round.State.LOCKED), None)
    last = next((p for p in plays if p.round.state == Round.State.SETTLED), None)
    stakes = {bet.kind: bet.stake for bet in current.bets.all()} if current else {}
    stats_rounds = Round.objects.filter(table=table, state=Round.State.SETTLED)
    if table.reshuffle == Table.Reshuffle.CUT_CARD and last is not None:
        stats_rounds = stats_rounds.filter(shoe_id=last.round.shoe_id)
    else:
        stats_rounds = stats_rounds.filter(plays__player=player)
    stats = list(
        stats_rounds.only("pk", "outcome", "player_total", "banker_total", "hand_number").order_by(
            "-pk"
        )[:STATS_LENGTH]
    )
    stats.reverse()
    return TableState(
        table=table,
        stack=stack_balance(player=player, table=table),
        play=current,
        stakes=stakes,
        last=last,
        in_play=in_play,
        stats=stats,
        shoe=shoe_open(table=table, player=player),
    )


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_LABELS = {"T": "10"}


@dataclass(frozen=True)
class CardView:
    code: str
    rank: str
    suit: str
    red: bool
    order: int  # position in deal order, for the card-by-card animation


def hand_cards(round: Round) -> tuple[list[CardView], list[CardView]]:
    """The two hands of a dealt round, each card with its place in the deal order."""
    player = round.player_cards.split()
    banker = round.banker_cards.split()
    # Deal order: P1 B1 P2 B2, then the player's third card, then the banker's.
    orders_p = [0, 2, 4][: len(player)]
    orders_b = [1, 3, 4 + (len(player) == 3)][: len(banker)]

    def view(code: str, order: int) -> CardView:
        return CardView(
            code=code,
            rank=RANK_LABELS.get(code[0], code[0]),
            suit=SUIT_SYMBOLS[code[1]],
            red=code[1] in "HD",
            order=order,
        )

    return (
        [view(c, o) for c, o in zip(player, orders_p, strict=True)],
        [view(c, o) for c, o in zip(banker, orders_b, strict=True)],
    )


def play_lines(play: Play) -> list[Bet]:
    """The bets of a play in layout order."""
    order = {kind: i for i, kind in enumerate(Bet.Kind.values)}
    return sorted(play.bets.all(), key=lambda bet: order[bet.kind])


def protocol_plays(
    *,
    player: User,
    table: Table | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    outcome: str = "",
) -> QuerySet[Play]:
    """The player's own finished rounds, newest first, ready for a page of the list."""
    plays = (
        Play.objects.filter(player=player)
        .exclude(round__state=Round.State.BETTING)
        .select_related("round", "round__table", "round__shoe")
        .prefetch_related("bets")
        .order_by("-round_id")
    )
    if table is not None:
        plays = plays.filter(round__table=table)
    if date_from is not None:
        plays = plays.filter(round__created_at__date__gte=date_from)
    if date_to is not None:
        plays = plays.filter(round__created_at__date__lte=date_to)
    if outcome in Round.Outcome.values:
        plays = plays.filter(round__outcome=outcome)
    elif outcome == Round.State.VOID:
        plays = plays.filter(round__state=Round.State.VOID)
    return plays


def protocol_play(*, player: User, round_id: int) -> Play:
    """One of the player's own rounds; another player's is a 404."""
    play = protocol_plays(player=player).filter(round_id=round_id).first()
    if play is None:
        raise Http404
    return play


def player_has_round_in_play(player: User) -> bool:
    """Whether the player has money in play: a locked round of theirs (being dealt), or
    a stake escrowed in a round still taking bets."""
    if Round.objects.filter(plays__player=player, state=Round.State.LOCKED).exists():
        return True
    return Transaction.objects.filter(
        player=player, kind=Transaction.Kind.STAKE, round__state=Round.State.BETTING
    ).exists()
