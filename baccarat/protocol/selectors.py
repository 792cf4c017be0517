"""Reads for the protocol: a player's rounds, filtered and paged, each as a line and
as a page of its own."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils import dateformat
from django.utils.formats import get_format
from django.utils.timezone import get_current_timezone, localtime

from baccarat.board.scores import score_words
from baccarat.board.selectors import table_label
from baccarat.db import player_tables
from baccarat.models import Bet, Play, Round
from wallet.formatting import format_money

if TYPE_CHECKING:
    from casino.accounts.models import User


def protocol_tables(player: User) -> list[tuple[int, str]]:
    """The tables of the protocol's filter: (id, name for people) of every table the
    player played at."""
    return [(pk, table_label(name, kind)) for pk, name, kind in player_tables(player_id=player.pk)]


def play_lines(play: Play) -> list[Bet]:
    """The bets of a play in layout order."""
    order = {kind: i for i, kind in enumerate(Bet.Kind.values)}
    return sorted(play.bets.all(), key=lambda bet: order[bet.kind])


PROTOCOL_LINE_FIELDS = (
    "round_id",
    "stake_total",
    "payout_total",
    "round__created_at",
    "round__state",
    "round__completion",
    "round__outcome",
    "round__player_total",
    "round__banker_total",
    "round__table__kind",
    "round__table__name",
)


def protocol_plays(
    *,
    player: User,
    table: int | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    outcome: str = "",
    bets: bool = True,
) -> QuerySet[Play]:
    """The player's own rounds with a stake, newest first, with their rounds and tables;
    with ``bets`` (a round's page, the CSV) also their bets and their shoes; without,
    named rows of :data:`PROTOCOL_LINE_FIELDS` (the list's lines).

    A full table's round the player passed or let go by (no stake) is not one of them.
    """
    plays = (
        Play.objects.filter(player=player, stake_total__gt=0)
        .exclude(round__state=Round.State.BETTING)
        .order_by("-round_id")
    )
    if bets:
        plays = (
            plays.select_related("round", "round__table", "round__shoe")
            .defer("round__shoe__state")  # the card order: not shown, and the largest field
            .prefetch_related("bets")
        )
    else:  # what a line of the list shows, as named rows (no models built)
        plays = plays.values_list(*PROTOCOL_LINE_FIELDS, named=True)  # type: ignore[assignment]
    if table is not None:  # a table's id
        plays = plays.filter(table_id=table)
    if date_from is not None:
        plays = plays.filter(round__created_at__date__gte=date_from)
    if date_to is not None:
        plays = plays.filter(round__created_at__date__lte=date_to)
    if outcome in Round.Outcome.values:
        plays = plays.filter(round__outcome=outcome)
    elif outcome == Round.State.VOID:
        plays = plays.filter(round__state=Round.State.VOID)
    return plays


@dataclass(frozen=True)
class ProtocolRow:
    """A line of the protocol list, in the reader's language and time zone, its cells
    formatted here (the template only places them: 25 lines of template filters and
    ``{% url %}`` tags cost about twice the CPU)."""

    round_id: int
    url: str  # the round's page
    when: str  # the round's start, short date and time
    table: str  # the table's name for people
    outcome: str  # "Banker 8 – Player 6", or "—" for a round without cards
    stake: str
    net: str  # signed, or "—" for a round that was not settled
    status: str  # how the round ended: played, completed by the server, void


def round_status(round: Round) -> tuple[str, str]:
    """How a round ended, in words (the active language) and as a code: played, completed
    by the server, or void."""
    return status_of(round.state, round.completion)


def status_of(state: str, completion: str) -> tuple[str, str]:
    """:func:`round_status` of a round's state and completion. Labels straight from the
    choices (a model's ``get_..._display`` builds the field's whole choices dict on every
    call)."""
    if state != Round.State.VOID and completion:
        return str(Round.Completion(completion).label), completion
    return str(Round.State(state).label), state


def protocol_rows(plays: Iterable[Any]) -> list[ProtocolRow]:
    """The lines of a page of the protocol, from named rows of
    :data:`PROTOCOL_LINE_FIELDS`. The words, formats and links are looked up once for the
    page, not per line (25 lines cost about a third of the CPU)."""
    outcomes = {value: str(label) for value, label in Round.Outcome.choices}
    when = get_format("SHORT_DATETIME_FORMAT")
    zone = get_current_timezone()
    # A round's page is the list's address and its id: protocol/ and protocol/<id>/.
    base = reverse("baccarat:protocol_list")
    rows = []
    for line in plays:
        outcome = "—"
        if line.round__outcome:
            outcome = (
                outcomes[line.round__outcome]
                if line.round__player_total is None
                else score_words(
                    line.round__outcome, line.round__player_total, line.round__banker_total
                )
            )
        state = line.round__state
        rows.append(
            ProtocolRow(
                round_id=line.round_id,
                url=f"{base}{line.round_id}/",
                when=dateformat.format(localtime(line.round__created_at, zone), when),
                table=table_label(line.round__table__name, line.round__table__kind),
                outcome=outcome,
                stake=format_money(line.stake_total),
                net=(
                    format_money(line.payout_total - line.stake_total, sign=True)
                    if state == Round.State.SETTLED
                    else "—"
                ),
                status=status_of(state, line.round__completion)[0],
            )
        )
    return rows


def protocol_play(*, player: User, round_id: int) -> Play:
    """One of the player's own rounds; another player's is a 404."""
    play = protocol_plays(player=player).filter(round_id=round_id).first()
    if play is None:
        raise Http404
    return play
