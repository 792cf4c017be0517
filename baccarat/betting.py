"""The betting phase of a round at a single-seat table: open, place, take back, rebet.

Bets are stored without moving money; the stake leaves the player's stack only when the
round locks. Each edit locks the round row and checks the state it finds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction

from baccarat import engine
from baccarat.errors import RoundError
from baccarat.models import Bet, Play, PracticeSession, Round, Table
from baccarat.rule_sets import chip_unit, rules_of
from baccarat.selectors import stack_balance

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
    if not table.is_active and table.kind != Table.Kind.PRACTICE:
        raise RoundError("table_closed")
    mine = Round.objects.filter(table=table, plays__player=player)
    with transaction.atomic():
        # Serialises two opens by the same player (double click, two tabs).
        get_user_model().objects.select_for_update().filter(pk=player.pk).exists()
        current = mine.filter(state=Round.State.BETTING).order_by("-pk").first()
        if current is not None:
            return current
        if mine.filter(state=Round.State.LOCKED).exists():
            raise RoundError("round_in_play")
        if table.kind == Table.Kind.PRACTICE:
            session = PracticeSession.objects.filter(table=table).first()
            if session is not None and not session.is_active:
                raise RoundError("session_over")
        round = Round.objects.create(table=table, rules=table.rule_snapshot())
        play = Play.objects.create(round=round, player=player, seat=1)
        stakes = _last_stakes(table=table, player=player) if repeat_last else {}
        if stakes and _still_allowed(round, stakes):
            Bet.objects.bulk_create(Bet(play=play, kind=k, stake=v) for k, v in stakes.items())
            play.stake_total = sum(stakes.values())
            play.save(update_fields=["stake_total"])
            round.repeated = True  # type: ignore[attr-defined]
    return round


def bet_place_on_layout(*, round: Round, player: User, kind: str, amount: int) -> Round:
    """A chip placed by the player: like :func:`bet_place`, except that a chip the last
    round's repeated bets cannot stand beside (player next to banker) replaces them: the
    player clearly chose a new bet."""
    try:
        return bet_place(round=round, player=player, kind=kind, amount=amount)
    except engine.CombinationNotAllowed:
        if not getattr(round, "repeated", False):
            raise
        bets_clear(round=round, player=player)
        return bet_place(round=round, player=player, kind=kind, amount=amount)


def _last_stakes(*, table: Table, player: User) -> Stakes:
    last = (
        Play.objects.filter(player=player, round__table=table, round__state=Round.State.SETTLED)
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


def _check_stakes(*, round: Round, player: User, stakes: Stakes) -> None:
    """Refuse stakes that no lock could accept: rules, maximums, the player's stack."""
    if not stakes:
        return
    engine.validate_bets(rules_of(round), stakes)
    limits = round.rules["limits"]
    for kind, stake in stakes.items():
        if stake > limits[kind][1]:
            raise RoundError("above_max")
    if sum(stakes.values()) > stack_balance(player=player, table=round.table):
        raise RoundError("stack_short")


def write_stakes(*, play: Play, stakes: Stakes) -> None:
    """Make the play's bets exactly ``stakes`` (kind to cents), in as few writes as can be."""
    existing = {bet.kind: bet for bet in play.bets.all()}
    gone = [bet.pk for kind, bet in existing.items() if kind not in stakes]
    if gone:
        Bet.objects.filter(pk__in=gone).delete()
    changed = []
    for kind, stake in stakes.items():
        bet = existing.get(kind)
        if bet is None:
            Bet.objects.create(play=play, kind=kind, stake=stake)
        elif bet.stake != stake:
            bet.stake = stake
            changed.append(bet)
    if changed:
        Bet.objects.bulk_update(changed, ["stake"])
    play.stake_total = sum(stakes.values())
    play.save(update_fields=["stake_total"])


def _edit_stakes(*, round: Round, player: User, edit: Callable[[Round, Stakes], Stakes]) -> Round:
    with transaction.atomic():
        locked, play = _betting_play(round=round, player=player)
        stakes = edit(locked, stakes_of(play))
        stakes = {kind: stake for kind, stake in stakes.items() if stake > 0}
        _check_stakes(round=locked, player=player, stakes=stakes)
        write_stakes(play=play, stakes=stakes)
    return locked


def bet_place(*, round: Round, player: User, kind: str, amount: int) -> Round:
    """Add ``amount`` cents (whole chips) to the player's bet on ``kind``."""
    if type(amount) is not int or amount <= 0 or amount % chip_unit(round.table):
        raise RoundError("not_a_chip")

    def edit(locked: Round, stakes: Stakes) -> Stakes:
        if kind not in rules_of(locked).bet_kinds:
            raise engine.UnknownBetKind(kind)
        stakes[kind] = stakes.get(kind, 0) + amount
        return stakes

    return _edit_stakes(round=round, player=player, edit=edit)


def bet_remove(*, round: Round, player: User, kind: str, amount: int | None = None) -> Round:
    """Take ``amount`` cents (or the whole bet) back from ``kind``."""
    if amount is not None and (type(amount) is not int or amount <= 0):
        raise RoundError("not_a_chip")

    def edit(locked: Round, stakes: Stakes) -> Stakes:
        if kind not in engine.BetKind.__members__.values():
            raise engine.UnknownBetKind(kind)
        if kind in stakes:
            stakes[kind] = 0 if amount is None else max(0, stakes[kind] - amount)
        return stakes

    return _edit_stakes(round=round, player=player, edit=edit)


def bets_clear(*, round: Round, player: User) -> Round:
    """Withdraw every bet of the player in a BETTING round."""
    return _edit_stakes(round=round, player=player, edit=lambda locked, stakes: {})


def bets_rebet(*, round: Round, player: User) -> Round:
    """Replace the player's bets with those of their last settled round at this table."""

    def edit(locked: Round, stakes: Stakes) -> Stakes:
        last = _last_stakes(table=locked.table, player=player)
        if not last:
            raise RoundError("no_previous_bets")
        return last

    return _edit_stakes(round=round, player=player, edit=edit)
