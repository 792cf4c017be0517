"""Reads of the support area: searches and the full story of a round or a player."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from baccarat.models import Bet, Play, Round
from wallet.models import Account, Entry, Transaction


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def round_search(
    *,
    player: str = "",
    round_id: int | None = None,
    table: Any = None,
    date_from: date | None = None,
    date_to: date | None = None,
    status: str = "",
) -> QuerySet[Play]:
    """Plays matching the filters, newest first: one row per player and round.

    Searching through plays lets the player and date filters use the
    ``(player, created_at)`` index, which keeps the search fast at any size.
    """
    plays = Play.objects.select_related("round__table", "player").order_by("-created_at", "-pk")
    if player:
        plays = plays.filter(player__username__iexact=player)
    if round_id:
        plays = plays.filter(round_id=round_id)
    if table is not None:
        plays = plays.filter(round__table=table)
    if date_from:
        plays = plays.filter(created_at__gte=_day_start(date_from))
    if date_to:
        plays = plays.filter(created_at__lt=_day_start(date_to + timedelta(days=1)))
    if status == "open":
        plays = plays.filter(round__state__in=[Round.State.BETTING, Round.State.LOCKED])
    elif status == "attention":
        plays = plays.filter(round__needs_attention=True)
    elif status:
        plays = plays.filter(round__completion=status)
    return plays


def round_story(*, round_id: int) -> dict[str, Any]:
    """Everything support needs to explain a round."""
    round = Round.objects.select_related("table", "shoe").get(pk=round_id)
    plays = list(
        Play.objects.filter(round=round)
        .select_related("player")
        .prefetch_related(Prefetch("bets", queryset=Bet.objects.order_by("pk")))
        .order_by("seat", "pk")
    )
    transactions = list(
        Transaction.objects.filter(round=round)
        .select_related("player")
        .prefetch_related(
            Prefetch("entries", queryset=Entry.objects.select_related("account").order_by("pk"))
        )
        .order_by("pk")
    )
    return {"round": round, "plays": plays, "transactions": transactions}


def player_story(*, player: Any, recent: int = 20) -> dict[str, Any]:
    accounts = list(
        Account.objects.filter(owner=player).select_related("table").order_by("kind", "table__name")
    )
    plays = list(
        Play.objects.filter(player=player)
        .select_related("round__table")
        .order_by("-created_at", "-pk")[:recent]
    )
    deposits = list(
        Transaction.objects.filter(
            player=player,
            kind__in=[Transaction.Kind.DEPOSIT, Transaction.Kind.STARTING_CHIPS],
        )
        .prefetch_related("entries__account")
        .order_by("-created_at")[:recent]
    )
    for deposit in deposits:
        deposit.amount = sum(  # type: ignore[attr-defined]
            entry.amount for entry in deposit.entries.all() if entry.account.kind == "wallet"
        )
    return {
        "wallet": next((a for a in accounts if a.kind == Account.Kind.WALLET), None),
        "stacks": [a for a in accounts if a.kind == Account.Kind.STACK],
        "plays": plays,
        "deposits": deposits,
    }
