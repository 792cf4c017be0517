"""Provably fair shoes: anyone can check a shoe once it has ended.

Before the first hand of a shoe, its SHA-256 commitment is shown: the digest of the text
``<salt>:<order>``, where ``<order>`` is the shuffled order before the cut as card codes
run together (rank ``A 2-9 T J Q K`` then suit ``S H D C``: ``"KD9S..."``) and the salt is
32 random hex digits. The croupier (or, at a full table, a player) then cuts: the cards
from the cut position on go to the front. Burned cards come off the top, then every coup
takes the next cards in the order player, banker, player, banker, third cards.

When the shoe has ended and every round dealt from it is final, salt, order and cut are
revealed. :func:`shoe_verification` re-derives everything from them; the verify page and
``manage.py verify_shoe`` show the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from baccarat import engine
from baccarat.models import DealtCard, Round, Shoe


@dataclass(frozen=True)
class RoundCheck:
    round_id: int
    hand_number: int
    state: str
    start: int | None
    end: int | None
    expected: str  # the cards at those positions of the revealed order, in deal order
    dealt: str  # the cards the round reserved at its lock
    player_cards: str
    banker_cards: str
    outcome: str
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class ShoeVerification:
    shoe: Shoe
    revealed: bool
    salt: str = ""
    order: str = ""  # as committed: the shuffled order before the cut
    cut: int | None = None
    computed: str = ""  # SHA-256 of "<salt>:<order>"
    dealing_order: tuple[engine.Card, ...] = ()
    burned: tuple[engine.Card, ...] = ()
    rounds: list[RoundCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def commitment_matches(self) -> bool:
        return self.revealed and self.computed == self.shoe.commitment

    @property
    def hashed_text(self) -> str:
        return f"{self.salt}:{self.order}"

    @property
    def ok(self) -> bool:
        return self.revealed and not self.problems and all(r.ok for r in self.rounds)


def shoe_verification(shoe: Shoe) -> ShoeVerification:
    """Check a revealed shoe: its commitment, its burn, and every round dealt from it.

    An unrevealed shoe gives nothing away: the result holds only that it is still secret.
    """
    if not shoe.is_revealed:
        return ShoeVerification(shoe=shoe, revealed=False)
    dealer = engine.Shoe.from_state(shoe.state)
    revealed = dealer.reveal()
    report = ShoeVerification(
        shoe=shoe,
        revealed=True,
        salt=revealed["salt"],
        order=revealed["order"],
        cut=revealed["cut"],
        computed=engine.commitment_of(engine.cards_from_codes(revealed["order"]), revealed["salt"]),
        dealing_order=dealer.dealing_order,
        burned=dealer.burned,
    )
    if report.computed != shoe.commitment:
        report.problems.append("the revealed order and salt do not give the commitment")
    if shoe.cut_position is not None and shoe.cut_position != report.cut:
        report.problems.append(f"cut at {report.cut}, but the shoe showed {shoe.cut_position}")
    if shoe.burned_count != len(report.burned):
        report.problems.append(
            f"{len(report.burned)} cards burned, the shoe says {shoe.burned_count}"
        )
    taken = _positions_taken(shoe)
    burned_rows = sorted(position for position, round_id in taken if round_id is None)
    if burned_rows != list(range(len(report.burned))):
        report.problems.append("the burned cards are not the first cards of the shoe")
    by_round: dict[int, list[int]] = {}
    for position, round_id in taken:
        if round_id is not None:
            by_round.setdefault(round_id, []).append(position)
    rounds = Round.objects.filter(shoe=shoe).order_by("hand_number", "pk")
    next_position = len(report.burned)
    for round in rounds:
        check = _check_round(round, report.dealing_order, sorted(by_round.pop(round.pk, [])))
        report.rounds.append(check)
        if check.start is not None:
            if check.start != next_position:
                report.problems.append(
                    f"round {round.pk} starts at card {check.start}, not at {next_position}"
                )
            next_position = check.end or next_position
    for round_id in by_round:
        report.problems.append(f"cards taken for round {round_id}, which is not of this shoe")
    if dealer.position != next_position:
        report.problems.append(
            f"the shoe stopped at card {dealer.position}, its rounds end at {next_position}"
        )
    return report


def _positions_taken(shoe: Shoe) -> list[tuple[int, int | None]]:
    rows = DealtCard.objects.filter(shoe=shoe).order_by("position")
    return list(rows.values_list("position", "round_id"))


def _check_round(round: Round, order: tuple[engine.Card, ...], taken: list[int]) -> RoundCheck:
    problems: list[str] = []
    start, end = round.start_position, round.end_position
    expected = ""
    if start is None or end is None:
        if round.state != Round.State.VOID or taken:
            problems.append("no cards reserved")
    else:
        expected = engine.codes_of(order[start:end])
        if taken != list(range(start, end)):
            problems.append(f"positions taken {taken} are not {start} to {end - 1}")
        if round.reserved_cards != expected:
            problems.append(f"reserved {round.reserved_cards}, the order gives {expected}")
        if round.dealt_at is not None:
            coup = engine.deal_cards(engine.cards_from_codes(expected))
            shown = (
                " ".join(c.code for c in coup.player_cards),
                " ".join(c.code for c in coup.banker_cards),
                coup.outcome.value,
            )
            if (round.player_cards, round.banker_cards, round.outcome) != shown:
                problems.append(f"dealt {round.player_cards} / {round.banker_cards}, not {shown}")
    return RoundCheck(
        round_id=round.pk,
        hand_number=round.hand_number,
        state=round.state,
        start=start,
        end=end,
        expected=expected,
        dealt=round.reserved_cards,
        player_cards=round.player_cards,
        banker_cards=round.banker_cards,
        outcome=round.outcome,
        problems=tuple(problems),
    )
