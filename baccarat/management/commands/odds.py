"""``manage.py odds``: exact odds and house edges of a rule variant."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from baccarat.engine import BetKind, CommissionMode, Odds, exact_odds
from baccarat.engine.rules import DECK_COUNTS, TIE_PAYS

_COUNT_KEYS = ("banker", "player", "tie", "banker_three_card_seven")


def odds_report(odds: Odds, *, tie_pays: int, commission: CommissionMode) -> dict[str, Any]:
    """The JSON-safe report the command prints with ``--json``."""
    return {
        "decks": odds.decks,
        "total": odds.total,
        "counts": {key: getattr(odds, key) for key in _COUNT_KEYS},
        "house_edge": {
            kind.value: float(odds.house_edge(kind, commission=commission, tie_pays=tie_pays))
            for kind in BetKind
        },
    }


class Command(BaseCommand):
    help = "Print exact Punto Banco odds and house edges, computed by enumeration."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--decks", type=int, choices=DECK_COUNTS, default=8)
        parser.add_argument("--tie-pays", type=int, choices=TIE_PAYS, default=8)
        parser.add_argument(
            "--banker-seven",
            action="store_true",
            help="Banker-7 commission-free variant instead of 5%% commission.",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args: Any, **options: Any) -> None:
        commission = (
            CommissionMode.BANKER_SEVEN if options["banker_seven"] else CommissionMode.FIVE_PERCENT
        )
        tie_pays: int = options["tie_pays"]
        odds = exact_odds(options["decks"])
        report = odds_report(odds, tie_pays=tie_pays, commission=commission)
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(
            f"Exact odds, {odds.decks} deck(s): {odds.total:,} ordered six-card deals"
        )
        self.stdout.write("")
        self.stdout.write(f"{'Outcome':<24} {'Count':>26} {'Probability':>12}")
        for key, count in report["counts"].items():
            self.stdout.write(f"{key:<24} {count:>26,} {count / odds.total:>12.6f}")
        self.stdout.write("")
        pays = {
            BetKind.PLAYER: "1:1",
            BetKind.BANKER: (
                "1:1, 3-card 7 pushes"
                if commission is CommissionMode.BANKER_SEVEN
                else "1:1 less 5%"
            ),
            BetKind.TIE: f"{tie_pays}:1",
            BetKind.PLAYER_PAIR: "11:1",
            BetKind.BANKER_PAIR: "11:1",
        }
        self.stdout.write(f"{'Bet':<12} {'Pays':<22} {'House edge':>11} {'RTP':>10}")
        for kind, edge in report["house_edge"].items():
            self.stdout.write(
                f"{kind:<12} {pays[BetKind(kind)]:<22} {edge:>11.4%} {1 - edge:>10.4%}"
            )
