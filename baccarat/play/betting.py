"""The betting phase of a round at a single-seat table: open, place, take back, rebet.

Bets are stored without moving money; the stake leaves the player's stack only when the
round locks. Each edit locks the round row and checks the state it finds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from baccarat import engine
from baccarat.board.selectors import balances_select, recent_plays, stack_balance
from baccarat.db import cache_bets, insert_play, open_shoe_of, save_all
from baccarat.errors import RoundError
from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table
from baccarat.rules.rule_sets import chip_unit, rules_of

if TYPE_CHECKING:
    from casino.accounts.models import User

Stakes = dict[str, int]


def locked_round(round_id: int) -> Round:
    """The round row, locked until the end of the transaction, with table and shoe."""
    # ``of=self``: PostgreSQL cannot lock the nullable side of the shoe join.
    rounds = Round.objects.select_for_update(of=("self",)).select_related("table", "shoe")
    return rounds.get(pk=round_id)


def stakes_of(play: Play) -> Stakes:
    return {bet.kind: bet.stake for bet in play.bets.all()}


def round_open(*, table: Table, player: User, repeat_last: bool = False) -> Round:
    """The player's BETTING round at a single-seat table, opened if there is none.

    ``repeat_last``: a new round starts with the bets of the player's last round at this
    table on the layout (seed 002: the previous bet stays; DEAL alone plays it again,
    CLEAR takes it away), as long as the table's rules still take them.
    """
    layout = layout_edit(table=table, player=player, repeat_last=repeat_last)
    assert layout is not None  # only a repeated key finds nothing to do
    return layout.round


def last_stakes(*, table: Table, player: User) -> Stakes:
    last = (
        Play.objects.filter(player=player, table=table, round__state=Round.State.SETTLED)
        .order_by("-round_id")
        .prefetch_related("bets")
        .first()
    )
    return stakes_of(last) if last is not None else {}


def _still_allowed(round: Round, stakes: Stakes) -> bool:
    """Whether the rules the round is played under take these stakes (a table admin may
    have changed them since)."""
    limits = round.rules["limits"]
    try:
        engine.validate_bets(rules_of(round), stakes)
    except engine.EngineError:
        return False
    return all(kind in limits and stake <= limits[kind][1] for kind, stake in stakes.items())


def _betting_play(*, round: Round, player: User) -> tuple[Round, Play]:
    locked = locked_round(round.pk)
    if locked.state == Round.State.VOID:
        raise RoundError("round_void")
    if locked.state != Round.State.BETTING:
        raise RoundError("betting_closed")
    play = Play.objects.prefetch_related("bets").get(round=locked, player=player)
    return locked, play


def _check_stakes(*, round: Round, player: User, stakes: Stakes, stack: int | None = None) -> None:
    """Refuse stakes that no lock could accept: rules, maximums, the player's stack
    (``stack``: read already, under the caller's lock)."""
    if not stakes:
        return
    engine.validate_bets(rules_of(round), stakes)
    limits = round.rules["limits"]
    for kind, stake in stakes.items():
        if stake > limits[kind][1]:
            raise RoundError("above_max")
    if stack is None:
        stack = stack_balance(player=player, table=round.table)
    if sum(stakes.values()) > stack:
        raise RoundError("stack_short")


def write_stakes(*, play: Play, stakes: Stakes, also: Sequence[str] = ()) -> None:
    """Make the play's bets exactly ``stakes`` (kind to cents), in as few writes as can be;
    the play's cached bets follow, so the page renders them without reading again.
    ``also``: more of the play's fields, changed by the caller, saved in the same write."""
    existing = {bet.kind: bet for bet in play.bets.all()} if play.pk else {}
    gone = [bet.pk for kind, bet in existing.items() if kind not in stakes]
    if gone:
        Bet.objects.filter(pk__in=gone).delete()
    total = sum(stakes.values())
    new, changed, kept = [], [], []
    for kind, stake in stakes.items():
        bet = existing.get(kind)
        if bet is None:
            new.append(Bet(play=play, kind=kind, stake=stake))
        else:
            kept.append(bet)
            if bet.stake != stake:
                bet.stake = stake
                changed.append(bet)
    if play.pk is None:
        play.stake_total = total
        new = insert_play(play, new)  # with its bets: one statement on PostgreSQL
    else:
        fields = list(also)
        if play.stake_total != total:
            play.stake_total = total
            fields.append("stake_total")
        if fields:
            play.save(update_fields=fields)
        if new:
            new = Bet.objects.bulk_create(new)
    if changed:
        save_all(changed, ["stake"])
    cache_bets(play, kept + new)


def _edit_stakes(*, round: Round, player: User, edit: Callable[[Round, Stakes], Stakes]) -> Round:
    with transaction.atomic():
        locked, play = _betting_play(round=round, player=player)
        stakes = edit(locked, stakes_of(play))
        stakes = {kind: stake for kind, stake in stakes.items() if stake > 0}
        _check_stakes(round=locked, player=player, stakes=stakes)
        write_stakes(play=play, stakes=stakes)
    return locked


# The layout of a single-seat table ---------------------------------------------------


@dataclass
class Layout:
    """The player's layout after an edit, with what was read to make it, so the board is
    rendered without reading any of it again."""

    round: Round  # the BETTING round (opened by this edit if there was none)
    play: Play  # its play, bets cached
    stack: int  # the stack and the wallet as read under the lock (no money moved since)
    wallet: int
    last: Play | None  # the last settled play at this table (what the board shows dealt)
    repeated: bool = False  # opened with the last round's bets (seed 002)
    shoe: Shoe | None = None  # the player's open shoe here, read with the plays


def seat_lock(*, table: Table, player: User) -> tuple[int, int]:
    """Lock the player's row and read their stack at ``table`` and their wallet in the same
    statement. Every change of a player's single-seat rounds (a chip, CLEAR, DEAL) takes
    this lock first, so two presses at once run one after the other.

    Written out rather than built by the ORM: its two correlated subqueries took some
    2.5 ms of CPU to compile on every chip and DEAL, the statement itself 0.15 ms
    (:func:`~baccarat.board.selectors.balances_select`)."""
    balances, params = balances_select(player_id=player.pk, table_id=table.pk)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    users = connection.ops.quote_name(get_user_model()._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {balances} FROM {users} WHERE id = %s{lock}",  # noqa: S608
            [*params, player.pk],
        )
        row = cursor.fetchone()
    if row is None:
        raise get_user_model().DoesNotExist
    stack, wallet = row
    return stack or 0, wallet or 0


# (the round, its stakes now, whether they repeat the last round's, the last round's)
LayoutEdit = Callable[[Round, Stakes, bool, Stakes], Stakes]


def layout_edit(
    *,
    table: Table,
    player: User,
    edit: LayoutEdit | None = None,
    repeat_last: bool = True,
    token: str = "",
) -> Layout | None:
    """Change the player's bets at a single-seat table in one transaction: the BETTING
    round is found (or opened, with the last round's bets on it: seed 002's repeat), the
    ``edit`` applied (see :data:`LayoutEdit`), checked and written.

    ``token``: the press's idempotency key (:func:`key_seen`). ``None`` when a press with
    it changed the layout already (of this round or the last): nothing is done, and the
    caller answers the table as it is."""
    if not table.is_active and table.kind != Table.Kind.PRACTICE:
        raise RoundError("table_closed")
    with transaction.atomic():
        stack, wallet = seat_lock(table=table, player=player)
        plays = recent_plays(table=table, player=player)
        if key_seen(plays, token):
            return None
        last = next((p for p in plays if p.round.state == Round.State.SETTLED), None)
        current = next((p for p in plays if p.round.state == Round.State.BETTING), None)
        if current is None:
            play = open_from_layout(
                table=table, player=player, plays=plays, repeat_last=repeat_last, save=False
            )
            before = play.repeat_stakes  # type: ignore[attr-defined]
        else:
            play, before = current, stakes_of(current)
        round, repeated = play.round, bool(getattr(play, "repeat_stakes", None))
        last_bets = stakes_of(last) if last is not None else {}
        stakes = edit(round, dict(before), repeated, last_bets) if edit is not None else before
        stakes = {kind: stake for kind, stake in stakes.items() if stake > 0}
        if stakes != before or play.pk is None:
            _check_stakes(round=round, player=player, stakes=stakes, stack=stack)
            write_stakes(play=play, stakes=stakes, also=remember_key(play, token))
    round.repeated = repeated  # type: ignore[attr-defined]
    return Layout(
        round=round,
        play=play,
        stack=stack,
        wallet=wallet,
        last=last,
        repeated=repeated,
        shoe=open_shoe_of(plays),
    )


def open_from_layout(
    *,
    table: Table,
    player: User,
    plays: list[Play],
    repeat_last: bool = True,
    save: bool = True,
) -> Play:
    """Open the player's next round at a single-seat table (their seat lock held and
    ``plays``, their :func:`~baccarat.board.selectors.recent_plays`, read under it). With
    ``repeat_last`` the last round's bets go on it, as long as the rules still take them
    (``play.repeat_stakes``).
    ``save=False`` leaves the round, the play and its bets to the caller's one write
    (:func:`write_stakes`)."""
    if any(p.round.state == Round.State.LOCKED for p in plays):
        raise RoundError("round_in_play")
    if not table.is_active and table.kind != Table.Kind.PRACTICE:
        raise RoundError("table_closed")
    if table.kind == Table.Kind.PRACTICE:
        session = PracticeSession.objects.filter(table=table).first()
        if session is not None and not session.is_active:
            raise RoundError("session_over")
    last = next((p for p in plays if p.round.state == Round.State.SETTLED), None)
    # Stored with the play and its bets (one statement on PostgreSQL).
    round = Round(table=table, rules=table.rule_snapshot())
    play = Play(round=round, table=table, player=player, seat=1)
    stakes = stakes_of(last) if repeat_last and last is not None else {}
    if stakes and not _still_allowed(round, stakes):
        stakes = {}
    play.repeat_stakes = stakes  # type: ignore[attr-defined]
    if save:
        write_stakes(play=play, stakes=stakes)
    return play


def place_layout(*, play: Play, player: User, stakes: Stakes, stack: int) -> None:
    """The layout the page sends with DEAL (chips laid out in the browser) becomes the
    play's bets, checked as a chip is (whole chips, the spots, the rules, the maximums and
    the stack, ``stack`` read under the seat lock); nothing is written when it is what
    the server holds already."""
    if not stakes:
        raise engine.NoBet()
    round = play.round
    _check_chips(round, stakes)
    if play.pk is not None and stakes == stakes_of(play):
        return
    _check_stakes(round=round, player=player, stakes=stakes, stack=stack)
    write_stakes(play=play, stakes=stakes)


def _check_chips(round: Round, stakes: Stakes) -> None:
    """Whole chips of the table, on spots of the round's rules."""
    unit = chip_unit(round.table)
    if any(type(stake) is not int or stake <= 0 or stake % unit for stake in stakes.values()):
        raise RoundError("not_a_chip")
    if any(kind not in round.rules["limits"] for kind in stakes):
        raise engine.UnknownBetKind(next(k for k in stakes if k not in round.rules["limits"]))


def layout_set(stakes: Stakes) -> LayoutEdit:
    """The layout a full table's page laid out (:func:`place_layout` is the single
    seat's): it replaces the player's bets; empty, it takes them all back."""

    def edit(round: Round, _stakes: Stakes, repeated: bool, last: Stakes) -> Stakes:
        _check_chips(round, stakes)
        return dict(stakes)

    return edit


def chip_edit(*, kind: str, amount: int | None, take_back: bool) -> LayoutEdit:
    """A chip on a spot, or back from it (no amount: the whole bet). A chip that cannot
    stand beside the last round's repeated bets replaces them: the player chose anew."""

    def edit(round: Round, stakes: Stakes, repeated: bool, last: Stakes) -> Stakes:
        if take_back:
            if amount is not None and (type(amount) is not int or amount <= 0):
                raise RoundError("not_a_chip")
            if kind not in engine.BetKind.__members__.values():
                raise engine.UnknownBetKind(kind)
            if kind in stakes:
                stakes[kind] = 0 if amount is None else max(0, stakes[kind] - amount)
            return stakes
        if type(amount) is not int or amount <= 0 or amount % chip_unit(round.table):
            raise RoundError("not_a_chip")
        if kind not in rules_of(round).bet_kinds:
            raise engine.UnknownBetKind(kind)
        placed = dict(stakes)
        placed[kind] = placed.get(kind, 0) + amount
        if repeated:
            try:
                engine.validate_bets(rules_of(round), placed)
            except engine.CombinationNotAllowed:
                return {kind: amount}
        return placed

    return edit


def clear_edit(round: Round, stakes: Stakes, repeated: bool, last: Stakes) -> Stakes:
    return {}


def rebet_edit(round: Round, stakes: Stakes, repeated: bool, last: Stakes) -> Stakes:
    if not last:
        raise RoundError("no_previous_bets")
    return dict(last)


def play_edit(
    *, round: Round, play: Play, player: User, edit: LayoutEdit, stack: int, token: str = ""
) -> Stakes:
    """Apply ``edit`` to ``play`` (its bets cached) in a round the caller has locked (a full
    table's row lock orders every change there), check and write; the stakes now.
    ``stack``: the player's stack, read under that lock. ``token``: the press's
    idempotency key: a press with it changed this play already, so nothing is done."""
    before = stakes_of(play)
    if key_seen([play], token):
        return before
    stakes = edited_stakes(round=round, before=before, player=player, edit=edit, stack=stack)
    if stakes != before:
        write_stakes(play=play, stakes=stakes, also=remember_key(play, token))
    return stakes


def edited_stakes(
    *, round: Round, before: Stakes, player: User, edit: LayoutEdit, stack: int
) -> Stakes:
    """What ``edit`` makes of the bets ``before``, checked as :func:`play_edit` checks
    them, and not written: for a caller that writes them with more of the play."""
    stakes = edit(round, dict(before), False, {})
    stakes = {kind: stake for kind, stake in stakes.items() if stake > 0}
    if stakes != before:
        _check_stakes(round=round, player=player, stakes=stakes, stack=stack)
    return stakes


# The latest keys kept per play: a client retries its last few presses, not older ones.
CHIP_KEYS_KEPT = 10


def key_seen(plays: Iterable[Play], token: str) -> bool:
    """Whether a chip, Clear or Same bet with the idempotency key ``token`` changed one of
    ``plays`` (``Play.chip_keys``): its repeat (a client's retry, a double submit) must
    change nothing, whatever its other fields say."""
    return bool(token) and any(token in play.chip_keys.split() for play in plays)


def remember_key(play: Play, token: str) -> tuple[str, ...]:
    """Note ``token`` on the play whose bets it is changing; the fields to save with them."""
    if not token:
        return ()
    play.chip_keys = " ".join([*play.chip_keys.split(), token][-CHIP_KEYS_KEPT:])
    return ("chip_keys",)


def _round_edit(edit: LayoutEdit) -> Callable[[Round, Stakes], Stakes]:
    """A layout edit for a round that repeats nothing (a full table's)."""
    return lambda locked, stakes: edit(locked, stakes, False, {})


def bet_place(*, round: Round, player: User, kind: str, amount: int) -> Round:
    """Add ``amount`` cents (whole chips) to the player's bet on ``kind``."""
    edit = chip_edit(kind=kind, amount=amount, take_back=False)
    return _edit_stakes(round=round, player=player, edit=_round_edit(edit))


def bet_remove(*, round: Round, player: User, kind: str, amount: int | None = None) -> Round:
    """Take ``amount`` cents (or the whole bet) back from ``kind``."""
    edit = chip_edit(kind=kind, amount=amount, take_back=True)
    return _edit_stakes(round=round, player=player, edit=_round_edit(edit))


def bets_clear(*, round: Round, player: User) -> Round:
    """Withdraw every bet of the player in a BETTING round."""
    return _edit_stakes(round=round, player=player, edit=_round_edit(clear_edit))
