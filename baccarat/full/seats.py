"""The seats of a full table: sitting down with a buy-in, leaving with the stack, and the
server standing up a player who is gone (seeds 000/001).

Every change takes the table's row lock (:func:`baccarat.events.table_change`), after
the seat of the player who stands up, and writes its event in the same transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from baccarat.board.selectors import balances
from baccarat.errors import RoundError
from baccarat.events import event_write, table_change
from baccarat.models import Play, Round, Seat, Table
from baccarat.play.betting import write_stakes
from baccarat.play.stacks import cashed_out
from wallet import protection
from wallet import services as wallet

if TYPE_CHECKING:
    from casino.accounts.models import User

# Rounds in a row without a decision before the server stands a player up (issue text).
MISSED_ROUNDS_LIMIT = 3


def _seat_order(wanted: int) -> list[int]:
    """The chosen seat, then the next ones around the table."""
    numbers = list(Seat.NUMBERS)
    start = numbers.index(wanted) if wanted in numbers else 0
    return numbers[start:] + numbers[:start]


def seat_take(*, table: Table, player: User, number: int, buy_in: int, reference: str) -> Seat:
    """Sit down at ``number``, or at the next free seat if it was taken meanwhile, and
    bring ``buy_in`` cents from the wallet to the stack at this table.

    Sitting twice (a double click, two tabs) keeps the first seat. A player who still has
    chips here may sit down with them alone (``buy_in`` 0). ``seat.first_at_table``: the
    table was empty (its croupier has nothing planned yet). ``seat.moved_from``: the seat
    asked for when it was taken first and the player got the next free one (else None),
    so the player can be told (seeds 000/001).
    """
    protection.protection_check(player=player, bet=False)
    with table_change(table.pk) as table:
        if not table.is_active or table.kind != Table.Kind.FULL:
            raise RoundError("table_closed")
        seat = Seat.objects.filter(table=table, player=player).first()
        if seat is not None:
            return seat
        _wallet, stack = balances(player=player, table=table)
        minimum = min(low for low, _high in table.limits().values())
        if buy_in:
            wallet.wallet_rebuy(player=player, table=table, amount=buy_in, reference=reference)
        elif stack < minimum:
            raise RoundError("buy_in_needed")
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        for candidate in _seat_order(number):
            if candidate in taken:
                continue
            try:
                with transaction.atomic():  # the constraints settle a race we did not see
                    seat = Seat.objects.create(
                        table=table, number=candidate, player=player, last_seen=timezone.now()
                    )
            except IntegrityError:
                continue
            event_write(table, "sit", seat=seat.number, player=player.username, wanted=number)
            seat.first_at_table = not taken  # type: ignore[attr-defined]
            seat.moved_from = number if candidate != number else None  # type: ignore[attr-defined]
            return seat
        raise RoundError("table_full")


def seat_leave(*, table: Table, player: User, reason: str = "left") -> int:
    """Stand up: bets not yet committed go back, the stack goes to the wallet.

    Returns the cents that went back to the wallet. Refused while the player's stake is
    committed (Deal pressed) in a round not dealt yet: they leave once it is.
    """
    with table_change(table.pk, player_id=player.pk) as table:
        seat = Seat.objects.filter(table=table, player=player).first()
        if seat is None:
            return 0
        if _committed(table, player):
            raise RoundError("round_being_dealt")
        return _stand_up(table, seat, reason)


def _committed(table: Table, player: User) -> bool:
    """Whether the player's stake sits in a round of this table that is not final."""
    return Play.objects.filter(
        table=table,
        round__state__in=[Round.State.BETTING, Round.State.LOCKED],
        player=player,
        decision=Play.Decision.DEAL,
    ).exists()


def _stand_up(table: Table, seat: Seat, reason: str) -> int:
    """Remove the seat, withdraw open bets and cash the stack out (table locked)."""
    player = seat.player
    for play in Play.objects.filter(
        table=table, round__state=Round.State.BETTING, player=player
    ).prefetch_related("bets"):
        if play.decision != Play.Decision.DEAL:
            write_stakes(play=play, stakes={})
    number = seat.number
    seat.delete()
    returned = cashed_out(wallet.wallet_cash_out_all(player=player, table=table))
    event_write(table, "leave", seat=number, player=player.username, reason=reason)
    return returned


def seats_stand_up_due(table: Table, now: datetime) -> list[int]:
    """Stand up (and cash out) the players the server must (table locked by the caller):
    three rounds in a row without a decision, away longer than
    ``CASINO_SEAT_AWAY_SECONDS``, or on a break from play (responsible play); never one
    whose stake is in a round being dealt (they stand up after it)."""
    away = now - timedelta(seconds=settings.CASINO_SEAT_AWAY_SECONDS)
    stood = []
    for seat in Seat.objects.filter(table=table).select_related("player"):
        reason = ""
        if protection.is_blocked(seat.player, now):
            reason = "break"
        elif seat.missed >= MISSED_ROUNDS_LIMIT:
            reason = "missed"
        elif seat.last_seen < away:
            reason = "away"
        if reason and not _committed(table, seat.player):
            _stand_up(table, seat, reason)
            stood.append(seat.number)
    return stood


def player_stand_up_everywhere(player: User) -> None:
    """Stand the player up at every full table where they sit (a break from play has
    begun), each under its table's lock; where a stake of theirs is being dealt, the
    table's next tick does it after the round (:func:`seats_stand_up_due`)."""
    for table_id in Seat.objects.filter(player=player).values_list("table_id", flat=True):
        with table_change(table_id, player_id=player.pk) as table:
            seat = Seat.objects.filter(table=table, player=player).select_related("player")
            found = seat.first()
            if found is not None and not _committed(table, player):
                _stand_up(table, found, "break")


def seats_stand_up_all(table: Table, *, reason: str) -> list[int]:
    """Stand up every player whose stake is not committed (table locked); the seats."""
    stood = []
    for seat in Seat.objects.filter(table=table).select_related("player").order_by("number"):
        if not _committed(table, seat.player):
            _stand_up(table, seat, reason)
            stood.append(seat.number)
    return stood


# How stale ``Seat.last_seen`` may be: far below the seat's keep time and the croupier's
# "absent" window, and it spares a write on every board a seated player is shown.
SEEN_EVERY_SECONDS = 5


def seat_seen(*, table_id: int, player_id: int, last_seen: datetime | None = None) -> None:
    """The player's page is connected: their seat is kept. With the seat's ``last_seen``
    at hand, nothing is written when it is recent anyway."""
    now = timezone.now()
    if last_seen is not None and now - last_seen < timedelta(seconds=SEEN_EVERY_SECONDS):
        return
    Seat.objects.filter(table_id=table_id, player_id=player_id).update(last_seen=now)
