"""The rules page of a table: every number on it comes from the table's configuration
and from the engine's exact odds for that configuration."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from baccarat.engine import (
    BetKind,
    RuleSet,
    banker_draws,
    cards_from_codes,
    hand_total,
    player_draws,
    rule_set_odds,
)
from baccarat.engine.odds import BetOdds
from baccarat.models import Bet, Table
from baccarat.rules.rule_sets import rule_set_from_snapshot

# Worked examples of card values, shown with the engine's own totals.
EXAMPLES = ("9H 7C", "5D 5S 5H", "TC 9D")


def table_rule_set(table: Table) -> RuleSet:
    """The engine's rule set for a table's current configuration."""
    return rule_set_from_snapshot(table.rule_snapshot())


@lru_cache(maxsize=64)
def cached_odds(rules: RuleSet) -> dict[BetKind, BetOdds]:
    """Exact odds per rule set: computed once per process, not per request."""
    return rule_set_odds(rules)


def as_percent(value: Fraction) -> Decimal:
    """An exact fraction as a percentage with four decimals (no float involved)."""
    scaled = value * 100
    return (Decimal(scaled.numerator) / Decimal(scaled.denominator)).quantize(Decimal("0.0001"))


@dataclass(frozen=True)
class OddsRow:
    kind: str
    label: str
    house_edge: Decimal
    rtp: Decimal


@dataclass(frozen=True)
class Example:
    cards: tuple[str, ...]
    points: tuple[int, ...]
    sum: int
    total: int
    natural: bool


def worked_examples() -> list[Example]:
    examples = []
    for codes in EXAMPLES:
        cards = cards_from_codes(codes)
        points = tuple(card.point for card in cards)
        total = hand_total(cards)
        examples.append(
            Example(
                cards=tuple(card.code for card in cards),
                points=points,
                sum=sum(points),
                total=total,
                natural=len(cards) == 2 and total >= 8,
            )
        )
    return examples


def banker_rule_grid() -> list[tuple[int, list[bool], bool]]:
    """Rows of banker total 0-9: draw per player third card 0-9, and when the player stood."""
    return [
        (total, [banker_draws(total, third) for third in range(10)], banker_draws(total, None))
        for total in range(10)
    ]


def player_rule_rows() -> list[tuple[int, str]]:
    rows = []
    for total in range(10):
        action = "natural" if total >= 8 else ("draw" if player_draws(total) else "stand")
        rows.append((total, action))
    return rows


def rules_context(table: Table) -> dict[str, Any]:
    rules = table_rule_set(table)
    bet_labels = dict(Bet.Kind.choices)
    odds_rows = [
        OddsRow(
            kind=kind.value,
            label=str(bet_labels[kind.value]),
            house_edge=as_percent(odds.house_edge),
            rtp=as_percent(odds.rtp),
        )
        for kind, odds in cached_odds(rules).items()
    ]
    return {
        "table": table,
        "rules": rules,
        "odds_rows": odds_rows,
        "limits": [
            (str(bet_labels.get(kind, kind)), low, high)
            for kind, (low, high) in table.limits().items()
        ],
        "examples": worked_examples(),
        "banker_grid": banker_rule_grid(),
        "player_rows": player_rule_rows(),
        "thirds": range(10),
        "burn_first_card": table.burn == Table.Burn.FIRST_CARD,
        "every_coup": table.decks == 1 or table.reshuffle == Table.Reshuffle.EVERY_COUP,
        "banker_seven": table.commission == Table.Commission.BANKER_SEVEN,
        "cards_in_shoe": 52 * table.decks,
        "away_minutes": max(1, settings.CASINO_SEAT_AWAY_SECONDS // 60),
        "chat_rate": settings.CASINO_CHAT_RATE,
        "chat_seconds": settings.CASINO_CHAT_RATE_SECONDS,
        "chat_days": settings.CASINO_CHAT_RETENTION_DAYS,
    }


def visible_tables(request: HttpRequest) -> Any:
    """Open tables, and a player's own practice tables."""
    public = Q(is_active=True) & ~Q(kind=Table.Kind.PRACTICE)
    if request.user.is_authenticated:
        return Table.objects.filter(public | Q(kind=Table.Kind.PRACTICE, owner=request.user))
    return Table.objects.filter(public)


@require_GET
def table_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules page; inside the table (HTMX) just its section."""
    table = get_object_or_404(visible_tables(request), slug=slug)
    template = "baccarat/rules.html#rules" if request.htmx else "baccarat/rules.html"
    return render(request, template, rules_context(table))
