"""Round lifecycle: every write to tables, shoes, rounds and bets.

Each transition locks the ``Round`` row with ``select_for_update`` and checks the state
it finds, so calling it twice (a retry, a second process, the recovery task) is
harmless. Money moves only through the wallet services, whose references make their
retries harmless too.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from baccarat import engine
from baccarat.faults import fault_point
from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table
from baccarat.selectors import stack_balance
from wallet import services as wallet
from wallet.models import Account, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User

logger = logging.getLogger(__name__)

RECOVERY_GRACE_SECONDS = 5


class RoundError(Exception):
    """A refused round action; ``message`` is translated and safe to show."""

    messages: dict[str, Any] = {
        "round_in_play": _("Your previous round is still being completed. Please wait a moment."),
        "betting_closed": _("No more bets: this round is already dealt."),
        "round_void": _("This round was voided."),
        "round_final": _("This round is already finished."),
        "above_max": _("This bet is above the table maximum."),
        "stack_short": _(
            "Your stack at the table is too small for this bet. Rebuy or lower the bet."
        ),
        "not_a_chip": _("Stakes must be whole chips."),
        "no_previous_bets": _("There is no previous round to repeat."),
        "table_closed": _("This table is closed."),
        "session_over": _("This practice session is over."),
        "round_unknown": _("This round does not exist at this table."),
    }

    def __init__(self, code: str) -> None:
        self.code = code
        self.message = self.messages.get(code, _("This action is not possible right now."))
        super().__init__(code)


@dataclass
class LockResult:
    round: Round
    # Bet kinds whose stake was raised to the table minimum.
    raised: list[str] = field(default_factory=list)


# Helpers ----------------------------------------------------------------------------


def rules_of(round: Round) -> engine.RuleSet:
    """The engine rule set of a round's rule snapshot."""
    return rule_set_from_snapshot(round.rules)


def rule_set_from_snapshot(rules: dict[str, Any]) -> engine.RuleSet:
    """The engine rule set of a rule snapshot (``Table.rule_snapshot()``)."""
    return engine.RuleSet(
        decks=rules["decks"],
        commission=engine.CommissionMode(rules["commission"]),
        tie_pays=rules["tie_pays"],
        pairs_enabled=rules["pairs_enabled"],
        allow_player_and_banker=rules["allow_player_and_banker"],
        penetration_permille=rules["penetration_percent"] * 10,
        burn=engine.BurnMode(rules["burn"]),
    )


def chip_unit(table: Table) -> int:
    """The smallest chip in cents: every stake is a whole number of it."""
    return min(table.chip_values or [100])


def _locked_round(round_id: int) -> Round:
    # ``of=self``: PostgreSQL cannot lock the nullable side of the shoe join.
    rounds = Round.objects.select_for_update(of=("self",)).select_related("table", "shoe")
    return rounds.get(pk=round_id)


def _plays_with_bets(round: Round) -> list[Play]:
    return list(Play.objects.filter(round=round).select_related("player").prefetch_related("bets"))


def _staked_plays(round: Round) -> list[Play]:
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
        # What ``prefetch_related("bets")`` would leave, without its second query.
        cached = play.bets.all()
        cached._result_cache = bets[play.pk]
        cached._prefetch_done = True  # type: ignore[attr-defined]
        play._prefetched_objects_cache = {"bets": cached}  # type: ignore[attr-defined]
    return list(plays.values())


def _new_shoe(*, table: Table, round: Round, number: int, finished: bool) -> Shoe:
    rules = rules_of(round)
    shoe = engine.Shoe.shuffled(
        rules.decks,
        rng=secrets.SystemRandom(),
        penetration_permille=rules.penetration_permille,
        burn=rules.burn,
    )
    return Shoe.objects.create(
        table=table,
        number=number,
        state=shoe.to_state(),
        commitment=shoe.commitment(),
        is_finished=finished,
    )


def _shoe_for_round(round: Round) -> Shoe:
    """The shoe a locking round is dealt from.

    Reshuffle-every-coup tables get a fresh shoe per round. It is stored already marked
    finished (it serves exactly this coup), so several players at the same single-player
    table never collide on the one-open-shoe constraint; its number is the round id,
    unique without a race. Cut-card tables keep one open shoe until the cut card came out.
    """
    table = round.table
    if round.rules["reshuffle"] == Table.Reshuffle.EVERY_COUP or round.rules["decks"] == 1:
        return _new_shoe(table=table, round=round, number=round.pk, finished=True)
    shoe = Shoe.objects.select_for_update().filter(table=table, is_finished=False).first()
    if shoe is not None:
        return shoe
    last = Shoe.objects.filter(table=table).order_by("-number").values_list("number", flat=True)
    return _new_shoe(table=table, round=round, number=(last.first() or 0) + 1, finished=False)


def _stakes_of(play: Play) -> dict[str, int]:
    return {bet.kind: bet.stake for bet in play.bets.all()}


# Opening and betting ----------------------------------------------------------------


def round_open(*, table: Table, player: User) -> Round:
    """The player's BETTING round at a single-seat table, opened if there is none."""
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
        Play.objects.create(round=round, player=player, seat=1)
    return round


def _betting_play(*, round: Round, player: User) -> tuple[Round, Play]:
    locked = _locked_round(round.pk)
    if locked.state == Round.State.VOID:
        raise RoundError("round_void")
    if locked.state != Round.State.BETTING:
        raise RoundError("betting_closed")
    play = Play.objects.prefetch_related("bets").get(round=locked, player=player)
    return locked, play


def _check_stakes(*, round: Round, player: User, stakes: dict[str, int]) -> None:
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


def _write_stakes(*, play: Play, stakes: dict[str, int]) -> None:
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


def _edit_stakes(*, round: Round, player: User, edit: Any) -> Round:
    with transaction.atomic():
        locked, play = _betting_play(round=round, player=player)
        stakes = edit(locked, _stakes_of(play))
        stakes = {kind: stake for kind, stake in stakes.items() if stake > 0}
        _check_stakes(round=locked, player=player, stakes=stakes)
        _write_stakes(play=play, stakes=stakes)
    return locked


def bet_place(*, round: Round, player: User, kind: str, amount: int) -> Round:
    """Add ``amount`` cents (whole chips) to the player's bet on ``kind``."""
    if type(amount) is not int or amount <= 0 or amount % chip_unit(round.table):
        raise RoundError("not_a_chip")

    def edit(locked: Round, stakes: dict[str, int]) -> dict[str, int]:
        if kind not in rules_of(locked).bet_kinds:
            raise engine.UnknownBetKind(kind)
        stakes[kind] = stakes.get(kind, 0) + amount
        return stakes

    return _edit_stakes(round=round, player=player, edit=edit)


def bet_remove(*, round: Round, player: User, kind: str, amount: int | None = None) -> Round:
    """Take ``amount`` cents (or the whole bet) back from ``kind``."""
    if amount is not None and (type(amount) is not int or amount <= 0):
        raise RoundError("not_a_chip")

    def edit(locked: Round, stakes: dict[str, int]) -> dict[str, int]:
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

    def edit(locked: Round, stakes: dict[str, int]) -> dict[str, int]:
        last = (
            Play.objects.filter(
                player=player, round__table=locked.table, round__state=Round.State.SETTLED
            )
            .order_by("-round_id")
            .prefetch_related("bets")
            .first()
        )
        if last is None or not last.bets.all():
            raise RoundError("no_previous_bets")
        return _stakes_of(last)

    return _edit_stakes(round=round, player=player, edit=edit)


# Lock, deal, settle -----------------------------------------------------------------


def round_lock(*, round_id: int) -> LockResult:
    """Close betting: validate and escrow the stakes and fix the cards (state LOCKED).

    A stake below the table minimum is raised to the minimum (``LockResult.raised``);
    one above the maximum is refused. Already locked or settled: nothing happens.
    """
    raised: list[str] = []
    with transaction.atomic():
        round = _locked_round(round_id)
        if round.state == Round.State.VOID:
            raise RoundError("round_void")
        if round.state != Round.State.BETTING:
            return LockResult(round)
        rules = rules_of(round)
        limits = round.rules["limits"]
        plays = _staked_plays(round)
        if not plays:
            raise engine.NoBet()
        for play in plays:
            stakes = _stakes_of(play)
            for bet in play.bets.all():
                minimum, maximum = limits[bet.kind]
                if bet.stake > maximum:
                    raise RoundError("above_max")
                if bet.stake < minimum:
                    raised.append(bet.kind)
                    stakes[bet.kind] = minimum
            engine.validate_bets(rules, stakes)
            if raised:
                _write_stakes(play=play, stakes=stakes)
            stake = wallet.wallet_stake(
                player=play.player,
                table=round.table,
                round=round,
                amount=play.stake_total,
                reference=f"stake:{round.pk}:{play.player_id}",
            )
            # The stack as it was just before the stake, read under the ledger's lock.
            stack = next(
                entry
                for entry in stake.posted_entries  # type: ignore[attr-defined]
                if entry.account.kind == Account.Kind.STACK
            )
            play.balance_before = stack.balance_after - stack.amount
        Play.objects.bulk_update(plays, ["balance_before"])
        shoe = _shoe_for_round(round)
        round.shoe = shoe
        round.start_position = shoe.state["position"]
        round.hand_number = shoe.hands_dealt + 1
        round.state = Round.State.LOCKED
        round.locked_at = timezone.now()
        round.save(update_fields=["shoe", "start_position", "hand_number", "state", "locked_at"])
    fault_point("after_stake")
    return LockResult(round, raised)


DEALT_FIELDS = (
    "player_cards",
    "banker_cards",
    "player_total",
    "banker_total",
    "outcome",
    "natural",
    "dealt_at",
)


def _draw(round: Round) -> engine.Coup:
    """Set the round's cards from its shoe at its start position (not saved)."""
    assert round.shoe is not None and round.start_position is not None
    shoe = engine.Shoe.from_state(round.shoe.state)
    shoe.position = round.start_position
    coup = engine.deal_coup(shoe.draw)
    round.player_cards = " ".join(card.code for card in coup.player_cards)
    round.banker_cards = " ".join(card.code for card in coup.banker_cards)
    round.player_total = coup.player_total
    round.banker_total = coup.banker_total
    round.outcome = coup.outcome.value
    round.natural = coup.natural
    round.dealt_at = timezone.now()
    return coup


def _deal(round: Round) -> engine.Coup:
    coup = _draw(round)
    round.save(update_fields=list(DEALT_FIELDS))
    return coup


def round_deal(*, round_id: int) -> Round:
    """Deal a LOCKED round from its shoe at its start position; it stays LOCKED.

    One conditional ``UPDATE``, committed on its own. The cards need no lock to be
    read: the shoe's stored order and the round's start position were fixed when it
    locked. The condition (still LOCKED, not dealt) makes a second or concurrent deal
    write nothing, and the row lock the ``UPDATE`` takes orders it with settle and void.
    """
    round = Round.objects.select_related("table", "shoe").get(pk=round_id)
    if round.state != Round.State.LOCKED or round.dealt_at is not None:
        return round
    _draw(round)
    dealt = Round.objects.filter(
        pk=round.pk, state=Round.State.LOCKED, dealt_at__isnull=True
    ).update(**{name: getattr(round, name) for name in DEALT_FIELDS})
    if not dealt:  # dealt, settled or voided meanwhile: nothing was written
        return Round.objects.select_related("table", "shoe").get(pk=round_id)
    fault_point("after_deal")
    return round


def round_settle(*, round_id: int, completion: str = Round.Completion.PLAYED) -> Round:
    """Settle a LOCKED round: pay every bet, advance the shoe, state SETTLED.

    An undealt round is dealt first (recovery), from the same shoe position.
    """
    with transaction.atomic():
        round = _locked_round(round_id)
        if round.state in (Round.State.SETTLED, Round.State.VOID):
            return round
        if round.state != Round.State.LOCKED:
            raise RoundError("betting_closed")
        if round.dealt_at is None:
            coup = _deal(round)
        else:
            coup = engine.coup_from_hands(round.player_cards.split(), round.banker_cards.split())
        rules = rules_of(round)
        plays = [play for play in _staked_plays(round) if play.stake_total]
        bets: list[Bet] = []
        for play in plays:
            settlement = engine.settle(rules, coup, _stakes_of(play))
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
            wallet.wallet_settle(
                player=play.player,
                table=round.table,
                round=round,
                stake=play.stake_total,
                payout=play.payout_total,
                reference=f"settle:{round.pk}:{play.player_id}",
            )
        Bet.objects.bulk_update(bets, ["payout", "commission"])
        Play.objects.bulk_update(
            plays, ["payout_total", "commission_total", "balance_after", "server_notice"]
        )
        _advance_shoe(round, coup)
        round.state = Round.State.SETTLED
        round.completion = completion
        round.settled_at = timezone.now()
        fields = ["state", "completion", "settled_at"]
        if completion == Round.Completion.SERVER:
            round.recovery_note = (round.recovery_note + "\n" if round.recovery_note else "") + (
                f"completed by the server at {round.settled_at.isoformat()}"
            )
            fields.append("recovery_note")
        round.save(update_fields=fields)
        if round.table.kind == Table.Kind.PRACTICE:
            _practice_record(round, plays)
        fault_point("before_commit")
    fault_point("after_commit")
    # The settled plays with their bets, for a caller that shows the result at once.
    round.settled_plays = plays  # type: ignore[attr-defined]
    return round


def _advance_shoe(round: Round, coup: engine.Coup) -> None:
    row = round.shoe
    assert row is not None and round.start_position is not None
    shoe = engine.Shoe.from_state(row.state)
    shoe.position = round.start_position + len(coup.dealt_order)
    row.state = shoe.to_state()
    row.hands_dealt = round.hand_number
    fields = ["state", "hands_dealt"]
    if row.is_finished or shoe.needs_reshuffle:
        row.is_finished = True
        row.finished_at = timezone.now()
        fields += ["is_finished", "finished_at"]
    row.save(update_fields=fields)


def round_play(*, round_id: int) -> LockResult:
    """The DEAL button: lock, deal and settle in three committed steps."""
    result = round_lock(round_id=round_id)
    round_deal(round_id=round_id)
    result.round = round_settle(round_id=round_id, completion=Round.Completion.PLAYED)
    return result


def round_void(*, round_id: int, reason: str, by: object) -> Round:
    """Void a round that is not final: every escrowed stake goes back."""
    with transaction.atomic():
        round = _locked_round(round_id)
        if round.state == Round.State.VOID:
            return round
        if round.state == Round.State.SETTLED:
            raise RoundError("round_final")
        escrowed = set(
            Transaction.objects.filter(round=round, kind=Transaction.Kind.STAKE).values_list(
                "player_id", flat=True
            )
        )
        for play in _plays_with_bets(round):
            if play.player_id in escrowed and play.stake_total:
                wallet.wallet_refund(
                    player=play.player,
                    table=round.table,
                    round=round,
                    stake=play.stake_total,
                    reference=f"refund:{round.pk}:{play.player_id}",
                )
        round.state = Round.State.VOID
        round.completion = Round.Completion.VOID
        round.void_reason = reason or "void"
        round.recovery_note = (round.recovery_note + "\n" if round.recovery_note else "") + (
            f"voided by {by} at {timezone.now().isoformat()}"
        )
        round.save(update_fields=["state", "completion", "void_reason", "recovery_note"])
    return round


def recover_rounds(*, grace_seconds: int | None = None) -> list[int]:
    """Finish rounds a crash or disconnect left behind, with completion "server".

    LOCKED rounds older than ``grace_seconds`` (default: ``CASINO_RECOVERY_GRACE_SECONDS``)
    and BETTING rounds past their deadline with escrowed stakes are settled with the cards
    their shoe position fixed.
    """
    if grace_seconds is None:
        grace_seconds = getattr(settings, "CASINO_RECOVERY_GRACE_SECONDS", RECOVERY_GRACE_SECONDS)
    now = timezone.now()
    cutoff = now - timedelta(seconds=grace_seconds)
    stuck = Round.objects.filter(
        Q(state=Round.State.LOCKED, locked_at__lt=cutoff)
        | Q(
            state=Round.State.BETTING,
            deadline__lt=now,
            ledger_transactions__kind=Transaction.Kind.STAKE,
        )
    ).distinct()
    done: list[int] = []
    for round_id, state in stuck.values_list("pk", "state"):
        try:
            if state == Round.State.BETTING:
                round_lock(round_id=round_id)
            round_settle(round_id=round_id, completion=Round.Completion.SERVER)
        except Exception:  # one broken round must not stop the others
            logger.exception("recovery of round %s failed", round_id)
            continue
        done.append(round_id)
    return done


# Table money ------------------------------------------------------------------------


def table_rebuy(*, player: User, table: Table, amount: int, reference: str) -> None:
    """Move ``amount`` cents from the wallet to the player's stack at ``table``."""
    if table.kind == Table.Kind.PRACTICE:
        raise RoundError("session_over")
    wallet.wallet_rebuy(player=player, table=table, amount=amount, reference=reference)


def table_exit(*, player: User, table: Table) -> None:
    """Leave the table: withdraw open bets and cash the stack out (practice: end it)."""
    mine = Round.objects.filter(table=table, plays__player=player)
    if mine.filter(state=Round.State.LOCKED).exists():
        raise RoundError("round_in_play")
    for round in mine.filter(state=Round.State.BETTING):
        bets_clear(round=round, player=player)
    if table.kind == Table.Kind.PRACTICE:
        session = PracticeSession.objects.filter(table=table, player=player).first()
        if session is not None:
            practice_finish(session_id=session.pk)
        return
    count = Transaction.objects.filter(player=player, kind=Transaction.Kind.CASH_OUT).count()
    wallet.wallet_cash_out(
        player=player, table=table, reference=f"cashout:{table.pk}:{player.pk}:{count}"
    )


# Practice ---------------------------------------------------------------------------


def practice_start(
    *,
    player: User,
    decks: int,
    starting_chips: int,
    hands: int,
    tie_pays: int,
    pairs_enabled: bool,
    commission: str,
) -> PracticeSession:
    """Open a practice table of the player's own with issued chips; the wallet is untouched."""
    with transaction.atomic():
        table = Table.objects.create(
            name=str(_("Practice")),
            slug=f"practice-{secrets.token_hex(8)}",
            kind=Table.Kind.PRACTICE,
            owner=player,
            decks=decks,
            reshuffle=Table.Reshuffle.CUT_CARD,
            penetration_percent=89,
            burn=Table.Burn.FIRST_CARD,
            commission=commission,
            tie_pays=tie_pays,
            pairs_enabled=pairs_enabled,
            is_active=False,
        )
        session = PracticeSession.objects.create(
            player=player, table=table, starting_chips=starting_chips, hands=hands
        )
        wallet.wallet_practice_fund(
            player=player,
            table=table,
            amount=starting_chips,
            reference=f"practice:{session.pk}:fund",
        )
    return session


def _practice_record(round: Round, plays: list[Play]) -> None:
    session = PracticeSession.objects.select_for_update().filter(table=round.table).first()
    if session is None or not session.is_active:
        return
    for play in plays:
        net = play.payout_total - play.stake_total
        session.hands_played += 1
        session.net += net
        if net > 0:
            session.hands_won += 1
            session.biggest_win = max(session.biggest_win, net)
        elif net < 0:
            session.hands_lost += 1
        else:
            session.hands_pushed += 1
    session.save()
    stack = (plays[0].balance_after if plays else None) or 0
    if session.hands_played >= session.hands or stack < chip_unit(round.table):
        practice_finish(session_id=session.pk)


def practice_finish(*, session_id: int) -> PracticeSession:
    """End a practice session: chips go back to the issuer, the summary is final."""
    with transaction.atomic():
        session = (
            PracticeSession.objects.select_for_update()
            .select_related("table", "player")
            .get(pk=session_id)
        )
        if not session.is_active:
            return session
        session.final_chips = stack_balance(player=session.player, table=session.table)
        wallet.wallet_practice_return(
            player=session.player, table=session.table, reference=f"practice:{session.pk}:return"
        )
        session.state = PracticeSession.State.FINISHED
        session.finished_at = timezone.now()
        session.save(update_fields=["final_chips", "state", "finished_at"])
    return session
