"""Shoes: shuffling and cutting, the cards each round reserves, and the reveal.

A card of a shoe is dealt to one round, once. Locking a round draws its whole coup
here, under the shoe's row lock, and moves the shoe past it in the same transaction;
one ``DealtCard`` row per position taken (unique per shoe) is the database's own guard.
Nothing random is left after a round locks, and nothing ever moves a shoe backwards.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from baccarat import engine
from baccarat.models import DealtCard, Round, Shoe, Table
from baccarat.rule_sets import reshuffles_every_coup, rules_of

if TYPE_CHECKING:
    from casino.accounts.models import User

OPEN_ROUND_STATES = (Round.State.BETTING, Round.State.LOCKED)


def shoe_owner(table: Table, player: User | None) -> User | None:
    """Whose shoe a round at ``table`` is dealt from: the player's own at a table with
    one seat (single-player and practice tables), the table's shared shoe otherwise."""
    return player if table.seats == 1 else None


def _shuffled(round: Round) -> engine.Shoe:
    """A new shoe for the round's rules: shuffled, cut by the croupier at random, burned."""
    rules = rules_of(round)
    return engine.Shoe.shuffled(
        rules.decks,
        rng=secrets.SystemRandom(),
        penetration_permille=rules.penetration_permille,
        burn=rules.burn,
    )


def _row(
    *, table: Table, player: User | None, number: int, dealer: engine.Shoe, finished: bool
) -> Shoe:
    return Shoe(
        table=table,
        player=player,
        number=number,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=dealer.cut_position,
        burn_card=dealer.burned[0].code if dealer.burned else "",
        burned_count=dealer.burned_count,
        hands_dealt=1 if finished else 0,
        is_finished=finished,
        finished_at=timezone.now() if finished else None,
    )


def _taken(shoe: Shoe, positions: range, round: Round | None) -> list[DealtCard]:
    return [DealtCard(shoe=shoe, position=position, round=round) for position in positions]


def _reserve(round: Round, shoe: Shoe, start: int, coup: engine.Coup) -> None:
    round.shoe = shoe
    round.start_position = start
    round.end_position = start + len(coup.dealt_order)
    round.hand_number = shoe.hands_dealt
    round.reserved_cards = engine.codes_of(coup.dealt_order)


def shoe_deal_coup(*, round: Round, player: User | None) -> engine.Coup:
    """Draw a locking round's coup and move its shoe past it, in the caller's transaction.

    Sets the round's shoe, positions, hand number and reserved cards (the caller saves
    the round) and writes one ``DealtCard`` per card taken. A table that reshuffles every
    coup gets a new shoe for this coup alone (numbered by the round, stored finished).
    At a cut-card table the open shoe is locked first; when the cut card comes out during
    this coup, the coup completes and the shoe is finished: the next round starts anew.
    """
    owner = shoe_owner(round.table, player)
    if reshuffles_every_coup(round.rules):
        dealer = _shuffled(round)
        start = dealer.position
        coup = engine.deal_coup(dealer.draw)
        shoe = _row(table=round.table, player=owner, number=round.pk, dealer=dealer, finished=True)
        shoe.save(force_insert=True)
        DealtCard.objects.bulk_create(
            _taken(shoe, range(start), None) + _taken(shoe, range(start, dealer.position), round)
        )
        _reserve(round, shoe, start, coup)
        return coup
    shoe = _open_shoe(round=round, owner=owner)
    dealer = engine.Shoe.from_state(shoe.state)
    start = dealer.position
    coup = engine.deal_coup(dealer.draw)
    DealtCard.objects.bulk_create(_taken(shoe, range(start, dealer.position), round))
    shoe.state = dealer.to_state()
    shoe.hands_dealt += 1
    fields = ["state", "hands_dealt"]
    if dealer.needs_reshuffle:
        _finish(shoe)
        fields += ["is_finished", "finished_at"]
    shoe.save(update_fields=fields)
    _reserve(round, shoe, start, coup)
    return coup


def _fits(shoe: Shoe, round: Round) -> bool:
    """Whether an open shoe holds the number of decks the round is played with.

    A change of burn or penetration applies from the next shoe, as at a real table;
    a change of decks cannot wait: that shoe is finished.
    """
    return bool(shoe.state["decks"] == round.rules["decks"])


def _open_shoe(*, round: Round, owner: User | None) -> Shoe:
    """The open shoe of a cut-card table (the owner's own at a single-seat table), locked
    for the rest of the transaction; started when there is none. An open shoe shuffled
    with another number of decks than the table now has is finished and replaced."""
    table = round.table
    for _attempt in range(3):
        shoe = (
            Shoe.objects.select_for_update()
            .filter(table=table, player=owner, is_finished=False)
            .first()
        )
        if shoe is not None and _fits(shoe, round):
            return shoe
        if shoe is not None:
            _finish(shoe)
            shoe.save(update_fields=["is_finished", "finished_at"])
        numbers = Shoe.objects.filter(table=table, player=owner)
        number = (numbers.aggregate(last=Max("number"))["last"] or 0) + 1
        dealer = _shuffled(round)
        try:
            with transaction.atomic():  # a savepoint: another process may open one first
                shoe = _row(table=table, player=owner, number=number, dealer=dealer, finished=False)
                shoe.save(force_insert=True)
                DealtCard.objects.bulk_create(_taken(shoe, range(dealer.burned_count), None))
        except IntegrityError:
            continue
        return shoe  # inserted by this transaction: no one else can see it yet
    raise RuntimeError(f"no open shoe could be had at table {table.pk}")


def _finish(shoe: Shoe) -> None:
    shoe.is_finished = True
    shoe.finished_at = shoe.finished_at or timezone.now()


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
