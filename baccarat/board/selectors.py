"""Reads for a table's page (either kind): the table, the player's stack, the layout,
the cards as drawn and the shoe's results, each a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from baccarat import engine
from baccarat.board.card_names import card_name
from baccarat.db import (
    open_shoe_of,
    player_coups,
    player_plays,
    row_where,
)
from baccarat.engine.bets import COMMISSION_STAKE_STEP
from baccarat.integrity.shoes import is_open_shoe, shoe_open
from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table
from wallet.models import Account, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User

STATS_LENGTH = 60
# What the statistics panel reads of a round: its roads, counts and the table of coups
# with their cards. Read as named rows (``coups``), not models: some sixty of them with
# each coup, at half the CPU.
STATS_FIELDS = (
    "pk",
    "outcome",
    "player_total",
    "banker_total",
    "hand_number",
    "player_cards",
    "banker_cards",
    "natural",
    "shoe_id",
)


def table_for_player(*, slug: str, player: User) -> Table:
    """A table the player may open: an open public table (single-player or full) or their
    own practice table."""
    table = row_where(Table, "slug", slug)  # its practice session read only at one
    if table is None:
        raise Http404
    if table.kind == Table.Kind.PRACTICE:
        if table.owner_id != player.pk:
            raise Http404
    elif not table.is_active:
        raise Http404
    return table


def full_table_for_player(*, slug: str, player: User) -> Table:
    """An open full table (anyone signed in may watch it)."""
    table = table_for_player(slug=slug, player=player)
    if table.kind != Table.Kind.FULL:
        raise Http404
    return table


def table_name(table: Table) -> str:
    """A table's name for people: practice tables are stored under a neutral name and
    read as "Practice" in each player's (and support's) own language."""
    return table_label(table.name, table.kind)


def table_label(name: str, kind: str) -> str:
    return str(_("Practice")) if kind == Table.Kind.PRACTICE else name


def practice_of(table: Table) -> PracticeSession | None:
    if table.kind != Table.Kind.PRACTICE:
        return None
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


def balances_select(*, player_id: int, table_id: int) -> tuple[str, list[Any]]:
    """Two columns of a ``SELECT`` and their parameters: the player's stack at the table
    and their wallet (``NULL`` where there is no account yet), one index probe each (the
    accounts are unique per owner, kind and table, ``wallet.models.Account``). Written
    out: the ORM spent about 0.4 ms of CPU building the ``OR`` of the two."""
    accounts = connection.ops.quote_name(Account._meta.db_table)
    sql = (
        f"(SELECT balance FROM {accounts} WHERE owner_id = %s AND kind = %s"  # noqa: S608
        f" AND table_id = %s), (SELECT balance FROM {accounts} WHERE owner_id = %s"
        " AND kind = %s)"
    )
    return sql, [
        player_id,
        Account.Kind.STACK.value,
        table_id,
        player_id,
        Account.Kind.WALLET.value,
    ]


def balances(*, player: User, table: Table) -> tuple[int, int]:
    """The player's wallet and their stack at ``table``, in cents, in one query."""
    columns, params = balances_select(player_id=player.pk, table_id=table.pk)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns}", params)
        stack, wallet = cursor.fetchone()
    return wallet or 0, stack or 0


BUY_IN_MULTIPLES = (20, 50, 100, 200)


@dataclass
class TableState:
    """Everything a player's view of a single-seat table shows."""

    table: Table
    stack: int
    wallet: int
    play: Play | None  # the player's part in the BETTING round
    stakes: dict[str, int]  # the chips on the layout
    carried: bool  # the layout shows the last round's bets, which DEAL plays again
    last: Play | None  # the player's last finished round here
    in_play: Round | None  # a LOCKED round being completed
    shoe: Shoe | None = None  # the shoe the next round is dealt from, its commitment shown

    @property
    def total_stake(self) -> int:
        return sum(self.stakes.values())

    @property
    def staked(self) -> int:
        """The chips staked in the round the player is betting on: the last round's bets
        shown again (``carried``, which DEAL alone plays again) are not staked."""
        return 0 if self.carried else self.total_stake

    @property
    def last_stakes(self) -> dict[str, int]:
        """The bets of the player's last finished round here (what REBET lays again)."""
        return {bet.kind: bet.stake for bet in self.last.bets.all()} if self.last else {}

    @property
    def available(self) -> int:
        """The stack less the chips on the layout (the seeds' "Saldo")."""
        return max(0, self.stack - self.total_stake)

    @property
    def round(self) -> Round | None:
        return self.play.round if self.play else None

    @property
    def minimum(self) -> int:
        """The smallest stake the table takes on any spot."""
        return min(low for low, _high in self.table.limits().values())

    @property
    def buy_ins(self) -> list[tuple[int, bool]]:
        """Preset buy-in amounts (multiples of the table minimum) and whether the wallet
        covers each."""
        amounts = [-(-self.minimum * n // 100) * 100 for n in BUY_IN_MULTIPLES]  # whole units
        return [(amount, amount <= self.wallet) for amount in amounts]

    @property
    def needs_chips(self) -> bool:
        """Nothing to bet with: the buy-in panel is open. The last round's bets shown
        again (seed 002's repeat) do not count: with the stack below the minimum DEAL
        could not play them."""
        return self.stack < self.minimum and (self.total_stake == 0 or self.carried)


def recent_plays(*, table: Table, player: User, lock_shoe: bool = False) -> list[Play]:
    """The player's two latest plays at a single-seat ``table`` (void rounds aside), newest
    first, with their rounds and bets (the open round, the one in play, the last dealt)
    and the player's open shoe there, in one query (:func:`baccarat.db.player_plays`;
    ``lock_shoe``: with the shoe's row lock)."""
    plays = player_plays(table=table, player_id=player.pk, count=2, lock_shoe=lock_shoe)
    for play in plays:
        play.round.table = table  # the rules and chips are read from it: not again
        play.player = player
    return plays


def table_state(
    *,
    table: Table,
    player: User,
    settled: Play | None = None,
    known_balances: tuple[int, int] | None = None,
) -> TableState:
    """The player's view of a single-seat table, in at most three queries.

    ``settled``: the player's play this request has just settled (with its round and
    bets loaded). Settling it closed the player's only open round here, so it is the
    last finished one and nothing else is open: one query fewer, two when its lock left
    the next shoe on the round. The player's open shoe is read with the plays; it is
    looked up apart only when there is none yet (a first visit) or it holds other decks
    than the table's now. ``known_balances``: the wallet and stack as the DEAL that settled it
    read them under its locks (not read again).
    """
    plays = [settled] if settled is not None else recent_plays(table=table, player=player)
    current = next((p for p in plays if p.round.state == Round.State.BETTING), None)
    in_play = next((p.round for p in plays if p.round.state == Round.State.LOCKED), None)
    last = next((p for p in plays if p.round.state == Round.State.SETTLED), None)
    if current is not None:
        stakes, carried = {bet.kind: bet.stake for bet in current.bets.all()}, False
    elif last is not None and in_play is None:
        # Seed 002: the previous bet stays on the layout; DEAL alone plays it again.
        stakes, carried = {bet.kind: bet.stake for bet in last.bets.all()}, True
    else:
        stakes, carried = {}, False
    wallet, stack = known_balances or balances(player=player, table=table)
    # The lock of the round just settled left the shoe that comes next on it; else the
    # player's open shoe, read with the plays.
    known = getattr(settled.round, "next_shoe", None) if settled else open_shoe_of(plays)
    return TableState(
        table=table,
        stack=stack,
        wallet=wallet,
        play=current,
        stakes=stakes,
        carried=carried,
        last=last,
        in_play=in_play,
        shoe=_next_shoe(known, table=table, player=player),
    )


def layout_state(*, table: Table, player: User, layout: Any) -> TableState:
    """The view after an edit of the layout (:class:`baccarat.play.betting.Layout`), from what
    the edit read: only the shoe may need a query, when the player has no open shoe here
    yet (their first visit) or it holds other decks than the table's now."""
    return TableState(
        table=table,
        stack=layout.stack,
        wallet=layout.wallet,
        play=layout.play,
        stakes={bet.kind: bet.stake for bet in layout.play.bets.all()},
        carried=False,
        last=layout.last,
        in_play=None,
        shoe=_next_shoe(layout.shoe, table=table, player=player),
    )


def _next_shoe(known: Shoe | None, *, table: Table, player: User) -> Shoe:
    """The shoe the player's next round at ``table`` is dealt from: ``known`` (what the
    request read already) while it is still that shoe, else looked up (or started)."""
    return (
        known
        if known is not None and is_open_shoe(known, table)
        else shoe_open(table=table, player=player)
    )


def whole_shoe(table: Table) -> bool:
    """Whether the statistics at ``table`` are those of a whole shoe: a cut-card shoe of
    several decks. At a table that reshuffles every coup they are the player's own recent
    coups there, at most ``STATS_LENGTH``."""
    return table.reshuffle == Table.Reshuffle.CUT_CARD and table.decks > 1


def stats_window(table: Table) -> int | None:
    """How many of the coups read the panel shows: all of a whole shoe, else the last
    ``STATS_LENGTH``."""
    return None if whole_shoe(table) else STATS_LENGTH


def shoe_results(*, table: Table, player: User) -> list[Any]:
    """The statistics of the shoe in play: its settled rounds, oldest first.

    At a cut-card table every coup of the player's current shoe (the one their last round
    came from), however many; at a table that reshuffles every coup, the player's recent
    rounds there: ``STATS_LENGTH`` shown and one more read (the first of the previous
    panel).
    """
    shoe = whole_shoe(table)
    # A shoe deals at most a coup per four cards: the bound is never reached.
    count = table.decks * 52 // 4 + 1 if shoe else STATS_LENGTH + 1
    results = player_coups(
        table=table, player_id=player.pk, names=STATS_FIELDS, count=count, last_shoe=shoe
    )
    results.reverse()
    return results


def coups(rounds: QuerySet[Round]) -> list[Any]:
    """``rounds`` as the statistics read them: named rows of :data:`STATS_FIELDS`."""
    return list(rounds.values_list(*STATS_FIELDS, named=True))


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_LABELS = {"T": "10"}


@dataclass(frozen=True)
class CardView:
    code: str
    rank: str
    suit: str
    red: bool
    name: str  # in words, in the active language: "Ten of hearts"
    step: int  # its place in the deal order, for the card-by-card reveal


@dataclass(frozen=True)
class HandView:
    cards: list[CardView]
    # The hand's total as each of its cards turns: (deal step, total so far).
    totals: list[tuple[int, int]]

    @property
    def total(self) -> int:
        return self.totals[-1][1]


@dataclass(frozen=True)
class DealView:
    player: HandView
    banker: HandView

    @property
    def steps(self) -> int:
        """How many cards were dealt: the outcome shows after the last of them."""
        return len(self.player.cards) + len(self.banker.cards)

    @property
    def sides(self) -> list[tuple[str, HandView, str]]:
        """Player's hand and banker's hand, as they lie on the felt, with their titles."""
        return [
            ("player", self.player, str(_("Player"))),
            ("banker", self.banker, str(_("Banker"))),
        ]


def _card(code: str, step: int) -> CardView:
    return CardView(
        code=code,
        rank=RANK_LABELS.get(code[0], code[0]),
        suit=SUIT_SYMBOLS[code[1]],
        red=code[1] in "HD",
        name=card_name(code),
        step=step,
    )


def _hand(codes: list[str], steps: list[int]) -> HandView:
    cards = [_card(code, step) for code, step in zip(codes, steps, strict=True)]
    points = engine.cards_from_codes("".join(codes))
    totals = [(step, engine.hand_total(points[: i + 1])) for i, step in enumerate(steps)]
    return HandView(cards=cards, totals=totals)


def deal_view(round: Round) -> DealView:
    """The two hands of a dealt round, card by card in deal order with running totals.

    Deal order: player, banker, player, banker, then the player's third card, then the
    banker's.
    """
    player = round.player_cards.split()
    banker = round.banker_cards.split()
    player_steps = [0, 2, 4][: len(player)]
    banker_steps = [1, 3, 4 + (len(player) == 3)][: len(banker)]
    return DealView(player=_hand(player, player_steps), banker=_hand(banker, banker_steps))


@dataclass(frozen=True)
class SpotView:
    """A betting spot on the layout, with the chips on it and, just after a deal, what
    became of the bet that stood there."""

    kind: str
    label: str
    key: int  # its number key (1 player, 2 banker, 3 tie; pairs 4 and 5)
    odds: str
    stake: int
    result: str = ""  # "win", "lose" or "push" for the round just dealt
    paid: int = 0
    maximum: int = 0  # the table's maximum on it (the page checks a chip against it)
    step: int = 0  # a stake here must be a multiple of it (Banker, with commission)

    @property
    def letter(self) -> str:
        return SPOT_LETTERS[self.kind]


SPOT_LETTERS = {"player": "P", "banker": "B", "tie": "T", "player_pair": "PP", "banker_pair": "BP"}
SPOT_ORDER = ["player_pair", "player", "tie", "banker", "banker_pair"]  # as on the felt
SPOT_KEYS = {"player": 1, "banker": 2, "tie": 3, "player_pair": 4, "banker_pair": 5}


def layout_spots(state: TableState, *, just_dealt: bool) -> list[SpotView]:
    """The table's spots in felt order, each with its stake and, after a deal, its result."""
    dealt: dict[str, Bet] = {}
    if just_dealt and state.last is not None:
        dealt = {bet.kind: bet for bet in state.last.bets.all()}
    return table_spots(state.table, state.stakes, dealt)


def table_spots(
    table: Table, stakes: dict[str, int], dealt: dict[str, Bet] | None = None
) -> list[SpotView]:
    """A table's spots in felt order with ``stakes`` on them and what became of the
    ``dealt`` bets (a round just dealt), with what the page checks a chip against."""
    labels = dict(Bet.Kind.choices)
    odds = {
        "player": "1:1",
        "banker": "1:1 −5%" if table.commission == Table.Commission.FIVE_PERCENT else "1:1",
        "tie": f"{table.tie_pays}:1",
        "player_pair": "11:1",
        "banker_pair": "11:1",
    }
    limits = table.limits()
    commission = table.commission == Table.Commission.FIVE_PERCENT
    step = COMMISSION_STAKE_STEP if commission else 0
    dealt = dealt or {}
    spots = []
    for kind in SPOT_ORDER:
        if kind not in limits:
            continue
        bet = dealt.get(kind)
        result = ""
        if bet is not None:
            result = (
                "win" if bet.payout > bet.stake else "push" if bet.payout == bet.stake else "lose"
            )
        spots.append(
            SpotView(
                kind=kind,
                label=str(labels[kind]),
                key=SPOT_KEYS[kind],
                odds=odds[kind],
                stake=stakes.get(kind, 0),
                result=result,
                paid=bet.payout if bet is not None else 0,
                maximum=limits[kind][1],
                step=step if kind == "banker" else 0,
            )
        )
    return spots


def player_has_round_in_play(player: User) -> bool:
    """Whether the player has money in play: a locked round of theirs (being dealt), or
    a stake escrowed in a round still taking bets."""
    if Round.objects.filter(plays__player=player, state=Round.State.LOCKED).exists():
        return True
    return Transaction.objects.filter(
        player=player, kind=Transaction.Kind.STAKE, round__state=Round.State.BETTING
    ).exists()


def shared_shoe_results(table: Table, *, shoe_id: int | None = None) -> list[Any]:
    """The statistics of a full table's shoe ``shoe_id``, by default its current one: the
    open shoe (empty from the moment it starts), else the shoe of its last dealt round."""
    if shoe_id is None:
        shoe_id = (
            Shoe.objects.filter(table=table, player=None, is_finished=False)
            .values_list("pk", flat=True)
            .first()
        )
    if shoe_id is None:
        shoe_id = (
            Round.objects.filter(table=table, shared=True, state=Round.State.SETTLED)
            .order_by("-pk")
            .values_list("shoe_id", flat=True)
            .first()
        )
    if shoe_id is None:
        return []
    return coups(Round.objects.filter(shoe_id=shoe_id, state=Round.State.SETTLED).order_by("pk"))
