from __future__ import annotations

import json
from io import StringIO

import pytest
from django.conf import settings

from baccarat.engine import BetKind, CommissionMode, exact_odds

if not settings.configured:  # e.g. engine-only runs with ``-p no:django``
    pytest.skip("management commands need Django settings", allow_module_level=True)

from django.core.management import call_command


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_odds_json_is_exactly_the_documented_object() -> None:
    data = json.loads(run("odds", "--decks", "8", "--json"))
    assert data == {
        "decks": 8,
        "total": 4_998_398_275_503_360,
        "counts": {
            "banker": 2_292_252_566_437_888,
            "player": 2_230_518_282_592_256,
            "tie": 475_627_426_473_216,
            "banker_three_card_seven": 112_633_011_329_024,
        },
        "house_edge": {kind.value: float(exact_odds(8).house_edge(kind)) for kind in BetKind},
    }
    assert round(data["house_edge"]["banker"], 6) == 0.010579


def test_odds_json_reflects_tie_pays_and_banker_seven() -> None:
    data = json.loads(run("odds", "--decks", "6", "--tie-pays", "9", "--banker-seven", "--json"))
    odds = exact_odds(6)
    assert data["decks"] == 6
    assert data["house_edge"]["tie"] == float(odds.house_edge(BetKind.TIE, tie_pays=9))
    assert data["house_edge"]["banker"] == float(
        odds.house_edge(BetKind.BANKER, commission=CommissionMode.BANKER_SEVEN)
    )


def test_odds_table_is_readable() -> None:
    text = run("odds", "--decks", "8")
    assert "4,998,398,275,503,360" in text
    assert "1.0579%" in text
    assert "14.3596%" in text


def test_simulate_reports_frequencies_z_scores_and_speed() -> None:
    text = run("simulate", "--hands", "2000", "--decks", "8", "--seed", "1")
    assert "2,000 hands" in text
    assert "seed 1" in text
    for name in ("banker", "player", "tie", "player_pair", "banker_pair"):
        assert f"\n{name} " in text
    assert "hands per second" in text


def test_simulate_with_a_seed_is_reproducible() -> None:
    first = run("simulate", "--hands", "500", "--seed", "5").splitlines()
    second = run("simulate", "--hands", "500", "--seed", "5").splitlines()
    assert first[:-1] == second[:-1]  # all but the timing line
