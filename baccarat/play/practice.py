"""Practice sessions: a table of the player's own with issued chips, for a set number
of hands; the wallet is never touched."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone

from baccarat.board.selectors import stack_balance
from baccarat.models import Play, PracticeSession, Round, Table
from baccarat.rules.rule_sets import chip_unit
from wallet import protection
from wallet import services as wallet

if TYPE_CHECKING:
    from casino.accounts.models import User

# Practice tables get a language-neutral name: support reads them in any language.
PRACTICE_TABLE_NAME = "Practice"


def practice_start(
    *,
    player: User,
    decks: int,
    starting_chips: int,
    hands: int,
    tie_pays: int,
    pairs_enabled: bool,
    commission: str,
    token: str = "",
) -> PracticeSession:
    """Open a practice table of the player's own with issued chips; the wallet is untouched.

    ``token``: the start's idempotency key (issued with the form), which names the table:
    a repeat with it (a retry, a double submit, two at once) opens nothing more and is
    answered with the session the first opened."""
    protection.protection_check(player=player, bet=False)
    slug = f"practice-{token or secrets.token_hex(8)}"
    sessions = PracticeSession.objects.filter(player=player, table__slug=slug)
    existing = sessions.select_related("table").first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            table = Table.objects.create(
                name=PRACTICE_TABLE_NAME,
                slug=slug,
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
    except IntegrityError:  # the same key at once: the table's slug is unique
        existing = sessions.select_related("table").first()
        if existing is None:
            raise
        return existing
    return session


def practice_record(round: Round, plays: list[Play]) -> None:
    """Count a settled round into its practice session; end the session when it is over.

    Runs inside the settling transaction.
    """
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
