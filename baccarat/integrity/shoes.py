"""Shoes: shuffling and cutting, the cards each round reserves, and the reveal.

A card of a shoe is dealt to one round, once. Locking a round draws its whole coup
here, under the shoe's row lock, and moves the shoe past it in the same transaction;
one ``DealtCard`` row per position taken (unique per shoe) is the database's own guard.
Nothing random is left after a round locks, and nothing ever moves a shoe backwards.

There is always a shoe ready before the next bet, so its commitment is shown before the
player chooses anything: the first when the player first sees the table, each next one
in the transaction that finishes the one before (a table that reshuffles every coup
finishes its shoe after each coup; a cut-card table when the cut card comes out).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from baccarat import engine
from baccarat.db import Statement, insert_statement, row_where, save_statements
from baccarat.models import DealtCard, Round, Shoe, Table
from baccarat.rules.rule_sets import reshuffles_every_coup, rule_set_from_snapshot

if TYPE_CHECKING:
    from casino.accounts.models import User

OPEN_ROUND_STATES = (Round.State.BETTING, Round.State.LOCKED)


def shoe_owner(table: Table, player: User | None) -> User | None:
    """Whose shoe a round at ``table`` is dealt from: the player's own at a table with
    one seat (single-player and practice tables), the table's shared shoe otherwise."""
    return player if table.seats == 1 else None


def _shuffled(rules: dict[str, Any]) -> engine.Shoe:
    """A new shoe under ``rules``: shuffled, cut by the croupier at random, burned."""
    rule_set = rule_set_from_snapshot(rules)
    return engine.Shoe.shuffled(
        rule_set.decks,
        rng=secrets.SystemRandom(),
        penetration_permille=rule_set.penetration_permille,
        burn=rule_set.burn,
    )


def _start(*, table: Table, owner_id: int | None, rules: dict[str, Any], number: int) -> Shoe:
    """Insert a new open shoe and the positions its burn takes. Raises ``IntegrityError``
    when another process opened one first (the caller is in a savepoint).

    A full table's shoe is stored shuffled but uncut: the croupier offers the cut to the
    seated players (:mod:`baccarat.full.croupier`), then cuts and burns with :func:`shoe_cut`.
    """
    shoe = _new_shoe(table=table, owner_id=owner_id, rules=rules, number=number)
    shoe.save(force_insert=True)
    _take_burned(shoe)
    return shoe


def _new_shoe(*, table: Table, owner_id: int | None, rules: dict[str, Any], number: int) -> Shoe:
    """A new open shoe, shuffled (and at a single-seat table cut and burned), not stored."""
    if table.kind == Table.Kind.FULL:
        rule_set = rule_set_from_snapshot(rules)
        dealer = engine.Shoe.prepared(
            rule_set.decks,
            rng=secrets.SystemRandom(),
            penetration_permille=rule_set.penetration_permille,
            burn=rule_set.burn,
        )
    else:
        dealer = _shuffled(rules)
    return Shoe(
        table=table,
        player_id=owner_id,
        number=number,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=dealer.cut_position,
        burn_card=dealer.burned[0].code if dealer.burned else "",
        burned_count=dealer.burned_count,
    )


def _take_burned(shoe: Shoe) -> None:
    """Store the positions a new shoe's burn took (stored itself)."""
    if shoe.burned_count:
        DealtCard.objects.bulk_create(_taken(shoe, range(shoe.burned_count), None))


def _taken(shoe: Shoe, positions: range, round: Round | None) -> list[DealtCard]:
    return [DealtCard(shoe=shoe, position=position, round=round) for position in positions]


def _fits(shoe: Shoe, decks: int) -> bool:
    """Whether an open shoe holds the number of decks the rules ask for.

    A change of burn or penetration applies from the next shoe, as at a real table;
    a change of decks cannot wait: that shoe is finished.
    """
    return bool(shoe.state["decks"] == decks)


def is_open_shoe(shoe: Shoe | None, table: Table) -> bool:
    """Whether ``shoe`` (the player's last round's, read with it) is still the one
    :func:`shoe_open` would give at ``table``: a page shows it without asking again."""
    return shoe is not None and not shoe.is_finished and _fits(shoe, table.decks)


def _finish(shoe: Shoe) -> None:
    shoe.is_finished = True
    shoe.finished_at = shoe.finished_at or timezone.now()


def shoe_open(
    *, table: Table, player: User | None, rules: dict[str, Any] | None = None, lock: bool = False
) -> Shoe:
    """The open shoe the next round at ``table`` is dealt from; started if there is none.

    ``player`` owns it at a single-seat table (see :func:`shoe_owner`). ``rules`` default
    to the table's configuration. ``lock`` takes the shoe's row lock for the rest of the
    caller's transaction (the lock does). An open shoe with another number of decks than
    the rules is finished and replaced.
    """
    rules = rules or table.rule_snapshot()
    owner = shoe_owner(table, player)
    for _attempt in range(3):
        shoes = Shoe.objects.filter(table=table, player=owner, is_finished=False)
        shoe = (shoes.select_for_update() if lock else shoes).first()
        if shoe is not None and _fits(shoe, rules["decks"]):
            return shoe
        with transaction.atomic():  # a savepoint: another process may open one first
            if shoe is not None:
                _finish(shoe)
                shoe.save(update_fields=["is_finished", "finished_at"])
                shoe_reveal_if_done(shoe_id=shoe.pk)
            last = Shoe.objects.filter(table=table, player=owner).aggregate(n=Max("number"))
            owner_id = owner.pk if owner is not None else None
            try:
                with transaction.atomic():
                    return _start(
                        table=table, owner_id=owner_id, rules=rules, number=(last["n"] or 0) + 1
                    )
            except IntegrityError:
                continue
    raise RuntimeError(f"no open shoe could be had at table {table.pk}")


def _locked(known: Shoe, rules: dict[str, Any]) -> Shoe | None:
    """``known``'s row, locked and read again, if it is still open and fits ``rules``."""
    shoe = row_where(Shoe, "id", known.pk, lock=True)
    if shoe is None or shoe.is_finished or not _fits(shoe, rules["decks"]):
        return None
    return shoe


def shoe_deal_coup(
    *,
    round: Round,
    player: User | None,
    known: Shoe | None = None,
    writes: list[Statement] | None = None,
) -> engine.Coup:
    """Draw a locking round's coup and move its shoe past it, in the caller's transaction.

    Sets the round's shoe, positions, hand number and reserved cards (the caller saves
    the round) and writes one ``DealtCard`` per card taken. When the shoe ends with this
    coup (the cut card came out, or the table reshuffles every coup) the coup completes,
    the shoe is finished and the next one is shuffled at once, its commitment ready
    before the next bet.

    ``known``: the open shoe the caller read (a single-seat table's layout brings it), so
    it is locked by its id, read again under the lock; still open and fitting, it is the
    one :func:`shoe_open` would find. Otherwise :func:`shoe_open` looks it up. A shoe the
    caller read under its lock (``known.locked``, :func:`baccarat.db.player_plays`) is
    not read again.

    ``writes``: the positions taken, the shoe's new state and, when it ended, the next
    shoe (shuffled here) are added to it as statements for the caller to run with its own
    (``baccarat.db.write_together``, in order: one open shoe per table and owner); the
    caller then hands the ids they answered to :func:`shoe_follow`.
    """
    if known is not None and getattr(known, "locked", False):
        shoe: Shoe | None = (
            known if not known.is_finished and _fits(known, round.rules["decks"]) else None
        )
    else:
        shoe = _locked(known, round.rules) if known is not None else None
    if shoe is None:
        shoe = shoe_open(table=round.table, player=player, rules=round.rules, lock=True)
    dealer = engine.Shoe.from_state(shoe.state)
    start = dealer.position
    coup = engine.deal_coup(dealer.draw)
    taken = _taken(shoe, range(start, dealer.position), round)
    shoe.state = dealer.to_state()
    shoe.hands_dealt += 1
    fields = ["state", "hands_dealt"]
    if dealer.needs_reshuffle or reshuffles_every_coup(round.rules):
        _finish(shoe)
        fields += ["is_finished", "finished_at"]
    round.shoe = shoe
    round.start_position = start
    round.end_position = dealer.position
    round.hand_number = shoe.hands_dealt
    round.reserved_cards = engine.codes_of(coup.dealt_order)
    # When the shoe ends with this coup the next one is shuffled and stored at once, its
    # commitment ready before the next bet.
    following = (
        _new_shoe(
            table=round.table,
            owner_id=shoe.player_id,
            rules=round.table.rule_snapshot(),
            number=shoe.number + 1,
        )
        if shoe.is_finished
        else None
    )
    # The shoe the next round is dealt from, for a page rendered after this one settles.
    round.next_shoe = following or shoe  # type: ignore[attr-defined]
    if writes is not None:
        writes += [insert_statement(taken), *save_statements([shoe], fields)]
        if following is not None:
            round.next_shoe_write = len(writes)  # type: ignore[attr-defined]
            writes.append(insert_statement([following]))
        return coup
    DealtCard.objects.bulk_create(taken)
    shoe.save(update_fields=fields)
    if following is not None:
        following.save(force_insert=True)
        _take_burned(following)
    return coup


def shoe_follow(round: Round, changed: list[list[int]]) -> None:
    """After the writes of :func:`shoe_deal_coup` ran (``changed``: the ids each wrote), the
    next shoe it stored takes its id, and the positions of its burn are stored."""
    index = getattr(round, "next_shoe_write", None)
    if index is None:
        return
    following = round.next_shoe  # type: ignore[attr-defined]
    (following.pk,) = changed[index]
    following._state.adding = False
    following._state.db = round._state.db
    _take_burned(following)


def shoe_cut(*, shoe: Shoe, position: int | None, by: User | None) -> engine.Shoe:
    """Cut a full table's new shoe (locked by the caller) and burn.

    ``position``: where the player placed the yellow card, within
    :func:`baccarat.engine.shoe.cut_range`; ``None``: the croupier cuts at random. The
    burned cards are recorded with the shoe and their positions taken, never dealt.
    """
    dealer = engine.Shoe.from_state(shoe.state)
    if position is None:
        low, high = engine.cut_range(dealer.size)
        position = low + secrets.SystemRandom().randrange(high - low + 1)
    dealer.cut(position)
    shoe.state = dealer.to_state()
    shoe.cut_position = dealer.cut_position
    shoe.cut_by = by
    shoe.cut_offer_seat = None
    shoe.cut_offer_until = None
    shoe.burn_card = dealer.burned[0].code if dealer.burned else ""
    shoe.burned_count = dealer.burned_count
    shoe.save(
        update_fields=[
            "state",
            "cut_position",
            "cut_by",
            "cut_offer_seat",
            "cut_offer_until",
            "burn_card",
            "burned_count",
        ]
    )
    if dealer.burned_count:
        DealtCard.objects.bulk_create(_taken(shoe, range(dealer.burned_count), None))
    return dealer


def shoe_reveal_if_done(*, shoe_id: int) -> bool:
    """Reveal a finished shoe's order once every round dealt from it is final.

    Called by the transaction that makes a round final (after writing it) and by the
    recovery sweep as a backstop. The shoe's row lock orders two rounds finishing at
    once, so the last of them sees the other final and reveals.
    """
    shoe = (
        Shoe.objects.select_for_update()
        .filter(pk=shoe_id, is_finished=True, revealed_at__isnull=True)
        .first()
    )
    if shoe is None:
        return False
    if Round.objects.filter(shoe=shoe, state__in=OPEN_ROUND_STATES).exists():
        return False
    shoe.revealed_at = timezone.now()
    shoe.save(update_fields=["revealed_at"])
    return True


def shoes_reveal_done() -> int:
    """Reveal every finished shoe whose rounds are all final (the sweep's backstop)."""
    waiting = Shoe.objects.filter(is_finished=True, revealed_at__isnull=True).exclude(
        rounds__state__in=OPEN_ROUND_STATES
    )
    revealed = 0
    for shoe_id in waiting.values_list("pk", flat=True)[:500]:
        with transaction.atomic():
            revealed += shoe_reveal_if_done(shoe_id=shoe_id)
    return revealed
