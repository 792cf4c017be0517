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
    }

    def __init__(self, code: str) -> None:
        self.code = code
        self.message = self.messages.get(code, _("This action is not possible right now."))
        super().__init__(code)
