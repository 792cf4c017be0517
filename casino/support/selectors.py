"""Reads of the support area: searches and the full story of a round or a player."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from baccarat.models import Bet, Play, Reversal, Round, Table
from casino.support.models import StaffAction, Ticket
from wallet.formatting import format_money
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
        plays = plays.filter(table=table)  # a play keeps its round's table
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
    reversals = {
        reversal.play_id: reversal
        for reversal in Reversal.objects.filter(round=round).select_related("player")
    }
    for play in plays:
        play.reversal_line = reversals.get(play.pk)  # type: ignore[attr-defined]
    return {
        "round": round,
        "plays": plays,
        "transactions": transactions,
        # Dealt and paid: only then has a round a result (a void one keeps what it had).
        "settled_once": round.settled_at is not None and round.state != Round.State.CLOSED,
        "reversals": [reversals[play.pk] for play in plays if play.pk in reversals],
        "rules": rules_summary(round.rules),
        "actions": list(
            StaffAction.objects.filter(details__round=round.pk)
            .exclude(
                kind__in=[
                    StaffAction.Kind.TICKET_ANSWERED,
                    StaffAction.Kind.TICKET_CLOSED,
                    StaffAction.Kind.ROUND_VIEWED,
                ]
            )
            .select_related("actor")
            .order_by("created_at", "pk")
        ),
        "tickets": list(
            Ticket.objects.filter(round=round).select_related("player").order_by("created_at")
        ),
    }


def _yes_no(value: Any) -> str:
    return _("Yes") if value else _("No")


def rules_summary(rules: dict[str, Any]) -> list[tuple[str, str]]:
    """A round's rule snapshot as a person reads it: labels and values in words and
    euros, in the active language. Values a newer snapshot adds are shown as they are."""
    rules = dict(rules)
    lines: list[tuple[str, str]] = []
    if "decks" in rules:
        lines.append((_("Decks"), str(rules.pop("decks"))))
    if "seats" in rules:
        lines.append((_("Seats"), str(rules.pop("seats"))))
    if "reshuffle" in rules:
        percent = rules.pop("penetration_percent", None)
        if rules.pop("reshuffle") == Table.Reshuffle.CUT_CARD:
            value = _("At the cut card (%(percent)s %% of the shoe)") % {"percent": percent}
        else:
            value = _("Before every coup")
        lines.append((_("Reshuffle"), value))
    if "burn" in rules:
        burn = rules.pop("burn")
        lines.append((_("Burn"), _("By the first card") if burn == "first_card" else _("None")))
    if "commission" in rules:
        if rules.pop("commission") == Table.Commission.BANKER_SEVEN:
            value = _("None; a Banker win with three cards totalling 7 pushes")
        else:
            value = _("5 %% on Banker wins") % {}
        lines.append((_("Commission"), value))
    if "tie_pays" in rules:
        lines.append((_("Tie pays"), _("%(odds)s to 1") % {"odds": rules.pop("tie_pays")}))
    if "pairs_enabled" in rules:
        pairs = rules.pop("pairs_enabled")
        lines.append((_("Pair bets"), _("11 to 1") if pairs else _("Not offered")))
    if "allow_player_and_banker" in rules:
        lines.append(
            (_("Player and Banker in one round"), _yes_no(rules.pop("allow_player_and_banker")))
        )
    labels = dict(Bet.Kind.choices)
    for kind, (low, high) in (rules.pop("limits", None) or {}).items():
        lines.append(
            (
                _("Limits: %(spot)s") % {"spot": labels.get(kind, kind)},
                f"{format_money(low)} – {format_money(high)}",
            )
        )
    lines += [(key, str(value)) for key, value in sorted(rules.items())]
    return lines


def player_story(*, player: Any, recent: int = 20) -> dict[str, Any]:
    accounts = list(
        Account.objects.filter(owner=player, kind__in=[Account.Kind.WALLET, Account.Kind.STACK])
        .select_related("table")
        .order_by("kind", "table__name")
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
        "tickets": list(
            Ticket.objects.filter(player=player)
            .select_related("round")
            .order_by("-created_at")[:recent]
        ),
        "reversals": list(
            Reversal.objects.filter(player=player, payout_paid__gt=0)
            .select_related("round")
            .order_by("-created_at")[:recent]
        ),
    }
