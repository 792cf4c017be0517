"""The player's protocol as a CSV file a spreadsheet opens as it is.

UTF-8 with a byte order mark (or Excel guesses the encoding wrong), the separators a
spreadsheet in the player's language expects (where the decimal separator is a comma,
as in German, Italian and Dutch, columns are divided by semicolons), amounts as decimal
euros, words in the player's language beside the codes a program filters on, times in
the active time zone with their offset, and no text cell a spreadsheet would run as a
formula.
"""

from __future__ import annotations

import csv
from typing import Protocol

from django.db.models import QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from baccarat.board.selectors import table_name
from baccarat.models import Bet, Play, Round
from baccarat.protocol.selectors import round_status

BOM = "\ufeff"
# A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV
# injection"); a leading apostrophe makes it plain text there.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
CHUNK_SIZE = 500

Cell = str | int


class Writable(Protocol):
    def write(self, text: str, /) -> object: ...


def csv_safe(text: str) -> str:
    """``text`` as a cell no spreadsheet runs as a formula. Only for text columns:
    a number such as ``-3.00`` must stay a number."""
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def euros(cents: int | None, decimal: str = ".") -> str:
    """Integer cents as decimal euros with two places, ``-3.00`` (``-3,00`` with a
    decimal comma); no floats."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}{decimal}{abs(cents) % 100:02d}"


def csv_separators() -> tuple[str, str]:
    """(column delimiter, decimal separator) that a spreadsheet in the active language
    reads without asking: a decimal comma goes with semicolons between the columns."""
    decimal = str(formats.get_format("DECIMAL_SEPARATOR"))
    return (";" if decimal == "," else ","), decimal


def _spot_headers() -> dict[str, tuple[str, str]]:
    # Whole phrases, not "Stake %(spot)s": translators see each heading as it reads.
    return {
        Bet.Kind.PLAYER: (_("Stake Player"), _("Paid Player")),
        Bet.Kind.BANKER: (_("Stake Banker"), _("Paid Banker")),
        Bet.Kind.TIE: (_("Stake Tie"), _("Paid Tie")),
        Bet.Kind.PLAYER_PAIR: (_("Stake Player pair"), _("Paid Player pair")),
        Bet.Kind.BANKER_PAIR: (_("Stake Banker pair"), _("Paid Banker pair")),
    }


def protocol_header() -> list[str]:
    """The column headings in the active language; the code columns keep fixed names."""
    spots = [heading for pair in _spot_headers().values() for heading in pair]
    return [
        _("Round"),
        _("Date"),
        _("Table"),
        _("Shoe"),
        pgettext("hand number", "Hand"),
        _("Player cards"),
        _("Banker cards"),
        _("Player total"),
        _("Banker total"),
        _("Outcome"),
        "outcome_code",
        *spots,
        _("Stake"),
        _("Paid"),
        _("Commission"),
        _("Net"),
        _("Balance before"),
        _("Balance after"),
        _("Status"),
        "status_code",
        _("Void reason"),
    ]


def protocol_row(play: Play, decimal: str = ".") -> list[Cell]:
    """One of the player's rounds as a row of :func:`protocol_header`, amounts with the
    ``decimal`` separator."""
    round = play.round
    bets = {bet.kind: bet for bet in play.bets.all()}  # prefetched
    spots: list[Cell] = []
    for kind in _spot_headers():
        bet = bets.get(kind)
        spots += [euros(bet.stake, decimal), euros(bet.payout, decimal)] if bet else ["", ""]
    status, status_code = round_status(round)
    settled = round.state == Round.State.SETTLED
    return [
        round.pk,
        timezone.localtime(round.created_at).isoformat(timespec="seconds"),
        csv_safe(table_name(round.table)),
        round.shoe.number if round.shoe else "",
        round.hand_number,
        csv_safe(round.player_cards),
        csv_safe(round.banker_cards),
        "" if round.player_total is None else round.player_total,
        "" if round.banker_total is None else round.banker_total,
        csv_safe(round.get_outcome_display()),
        round.outcome,
        *spots,
        euros(play.stake_total, decimal),
        euros(play.payout_total, decimal),
        euros(play.commission_total, decimal),
        euros(play.net if settled else 0, decimal),
        euros(play.balance_before, decimal),
        euros(play.balance_after, decimal),
        csv_safe(status),
        status_code,
        csv_safe(round.void_explanation) if round.state == Round.State.VOID else "",
    ]


def protocol_csv_write(*, plays: QuerySet[Play], out: Writable) -> None:
    """Write ``plays`` (from ``selectors.protocol_plays``, bets prefetched) to ``out``:
    the byte order mark, the header, then a row per round, read in chunks, with the
    separators of the active language."""
    delimiter, decimal = csv_separators()
    out.write(BOM)
    writer = csv.writer(out, delimiter=delimiter)
    writer.writerow(protocol_header())
    for play in plays.iterator(chunk_size=CHUNK_SIZE):
        writer.writerow(protocol_row(play, decimal))
