"""Staff void a round: the game moves the money (``baccarat.play.rounds.round_void``), the
support area records who did it and exactly what was reversed, in the same transaction.

Two members of staff who press at once (or one who double-clicks) void once: the round's
row lock orders them, the second finds the round void and nothing is moved or recorded.
"""

from __future__ import annotations

from typing import Any

from baccarat.models import Reversal, Round
from baccarat.play import rounds
from casino.accounts.models import User
from casino.support.models import StaffAction


def reversal_details(reversals: list[Reversal]) -> list[dict[str, Any]]:
    """Each player's reversal as plain values, kept with the staff action."""
    return [
        {
            "player": reversal.player.username,
            "player_id": reversal.player_id,
            "stake_refunded": reversal.stake_refunded,
            "payout_paid": reversal.payout_paid,
            "taken_from_stack": reversal.taken_from_stack,
            "taken_from_wallet": reversal.taken_from_wallet,
            "written_off": reversal.written_off,
        }
        for reversal in reversals
    ]


def round_void_by_staff(*, round_id: int, cause: str, reason: str, by: User) -> StaffAction | None:
    """Void a round for ``cause`` (a :class:`~baccarat.models.Round.VoidCause`) and record
    it as a staff action with every player's reversal. ``None`` when the round was void
    already (nothing happened). Raises :class:`~baccarat.errors.RoundError` when the
    round cannot be voided (closed, or settled and the cause is not a malfunction)."""
    recorded: list[StaffAction] = []

    def record(round: Round, reversals: list[Reversal]) -> None:
        players = {reversal.player_id for reversal in reversals}
        recorded.append(
            StaffAction.objects.create(
                actor=by,
                kind=StaffAction.Kind.ROUND_VOIDED,
                subject=reversals[0].player if len(players) == 1 else None,
                reason=reason,
                details={
                    "round": round.pk,
                    "table": round.table_id,
                    "cause": cause,
                    "after_settlement": round.settled_at is not None,
                    "reversals": reversal_details(reversals),
                },
            )
        )

    rounds.round_void(round_id=round_id, reason=reason, by=by, cause=cause, record=record)
    return recorded[0] if recorded else None
