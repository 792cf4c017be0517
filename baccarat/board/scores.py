"""A coup's score in words, winner first ("Banker 8 – Player 6"), and the croupier's call
("Banker wins, 8 to 6"): a score is never written as odds are ("8:6")."""

from __future__ import annotations

from django.utils.translation import gettext as _

from baccarat.models import Round


def _sides(outcome: str, player_total: int, banker_total: int) -> tuple[str, int, str, int]:
    """The winner's name and total, then the other side's."""
    player, banker = str(Round.Outcome.PLAYER.label), str(Round.Outcome.BANKER.label)
    if outcome == Round.Outcome.BANKER:
        return banker, banker_total, player, player_total
    return player, player_total, banker, banker_total


def score_words(outcome: str, player_total: int | None, banker_total: int | None) -> str:
    """The score, the winner first: "Banker 8 – Player 6", "Player 9 – Banker 8", "Tie
    6 – 6"; a round without cards is its outcome's name alone (or nothing)."""
    if player_total is None or banker_total is None:
        return str(Round.Outcome(outcome).label) if outcome else ""
    if outcome == Round.Outcome.TIE:
        # Translators: the score of a tie, both totals the same: "Tie 6 – 6".
        return _("Tie %(total)s – %(total)s") % {"total": player_total}
    winner, won, loser, lost = _sides(outcome, player_total, banker_total)
    # Translators: a coup's score, the winning side first ("Banker 8 – Player 6"); the sides
    # are the words for Player and Banker.
    return _("%(winner)s %(won)s – %(loser)s %(lost)s") % {
        "winner": winner,
        "won": won,
        "loser": loser,
        "lost": lost,
    }


def croupier_call(outcome: str, player_total: int, banker_total: int) -> str:
    """What the croupier says as the last card has turned: "Banker wins, 8 to 6" (German
    "Bank gewinnt, 8 zu 6"), "Tie, 6 to 6"."""
    if outcome == Round.Outcome.TIE:
        # Translators: the croupier calls a tie: "Tie, 6 to 6".
        return _("Tie, %(total)s to %(total)s") % {"total": player_total}
    winner, won, _loser, lost = _sides(outcome, player_total, banker_total)
    # Translators: the croupier calls the result, the winner's total first: "Banker wins, 8
    # to 6" (de "Bank gewinnt, 8 zu 6", it "Banchiere vince, 8 a 6", nl "Banker wint, 8
    # tegen 6"), the sides named as docs/glossary.md names them.
    return _("%(winner)s wins, %(won)s to %(lost)s") % {
        "winner": winner,
        "won": won,
        "lost": lost,
    }
