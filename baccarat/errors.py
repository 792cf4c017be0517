"""Refused actions of the game, each with a translated message that is safe to show."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


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
        # Full tables
        "not_seated": _("Take a seat to play at this table."),
        "table_full": _("Every seat at this table is taken."),
        "sat_during_round": _("You sat down during this round: you play from the next one."),
        "already_decided": _("You have already chosen Deal or Pass in this round."),
        "betting_not_open": _("Betting is closed: the next round starts in a moment."),
        "round_being_dealt": _("Your bets are in this round: you can leave once it is dealt."),
        "not_your_cut": _("The shoe is not offered to you."),
        "cut_outside": _("Place the yellow card inside the marked part of the shoe."),
        "buy_in_needed": _("Bring chips to the table: choose an amount to sit down with."),
    }

    def __init__(self, code: str) -> None:
        self.code = code
        self.message = self.messages.get(code, _("This action is not possible right now."))
        super().__init__(code)
