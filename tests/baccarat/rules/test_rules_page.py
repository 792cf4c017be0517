from __future__ import annotations

import re

import pytest
from django.urls import reverse

from baccarat.engine import BetKind, CommissionMode, banker_draws, exact_odds
from baccarat.models import Table
from baccarat.rules.page import as_percent, cached_odds, table_rule_set

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "it", "nl"]


@pytest.fixture
def full_table(db) -> Table:
    return Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
        pairs_enabled=True,
        allow_player_and_banker=True,
        penetration_percent=87,
        betting_seconds=15,
    )


@pytest.fixture
def practice_table(alice) -> Table:
    return Table.objects.create(
        name="Practice",
        slug="practice-alice",
        kind=Table.Kind.PRACTICE,
        owner=alice,
        decks=6,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
        commission=Table.Commission.BANKER_SEVEN,
        tie_pays=9,
    )


def get_rules(client, table, language="en", **headers):
    client.cookies["django_language"] = language
    return client.get(reverse("table_rules", args=[table.slug]), **headers)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", ["single", "full", "practice"])
def test_every_language_renders_every_table_kind(
    client, alice, single_table, full_table, practice_table, language, kind
):
    table = {"single": single_table, "full": full_table, "practice": practice_table}[kind]
    client.force_login(alice)
    alice.language = language
    alice.save()
    response = get_rules(client, table, language)
    assert response.status_code == 200
    assert response["Content-Language"] == language
    html = response.content.decode()
    for section in (
        "origin",
        "overview",
        "howto",
        "values",
        "third",
        "payouts",
        "limits",
        "shoe",
        "connection",
        "malfunction",
        "statistics",
    ):
        assert f'id="rules-{section}"' in html
    assert ('id="rules-full"' in html) == (kind == "full")
    if language != "en":
        assert "Malfunction voids all pays and plays." not in html


def test_house_edges_are_the_engines_exact_figures(client, full_table):
    html = get_rules(client, full_table).content.decode()
    edges = dict(re.findall(r'data-bet="(\w+)">.*?data-edge="([\d.]+)"', html, re.S))
    rtps = dict(re.findall(r'data-bet="(\w+)">.*?data-rtp="([\d.]+)"', html, re.S))
    assert edges == {
        "player": "1.2351",
        "banker": "1.0579",
        "tie": "14.3596",
        "player_pair": "10.3614",
        "banker_pair": "10.3614",
    }
    odds = cached_odds(table_rule_set(full_table))
    for kind, bet in odds.items():
        assert edges[kind.value] == str(as_percent(bet.house_edge))
        assert rtps[kind.value] == str(as_percent(bet.rtp))


def test_variant_changes_the_numbers(client, alice, practice_table):
    client.force_login(alice)
    html = get_rules(client, practice_table).content.decode()
    odds = exact_odds(6)
    banker = as_percent(
        odds.bet_odds(BetKind.BANKER, commission=CommissionMode.BANKER_SEVEN, tie_pays=9).house_edge
    )
    tie = as_percent(
        odds.bet_odds(BetKind.TIE, commission=CommissionMode.BANKER_SEVEN, tie_pays=9).house_edge
    )
    assert f'data-edge="{banker}"' in html
    assert f'data-edge="{tie}"' in html
    assert "9 to 1" in html
    assert "three cards totalling 7 is a push" in html
    assert 'data-bet="player_pair"' not in html


def test_changing_the_table_changes_the_page(client, full_table):
    html = get_rules(client, full_table).content.decode()
    assert "after 87% of the cards" in html
    assert "8 decks of 52 cards (416 cards)" in html
    full_table.penetration_percent = 75
    full_table.max_tie = 12345
    full_table.tie_pays = 9
    full_table.save()
    html = get_rules(client, full_table).content.decode()
    assert "after 75% of the cards" in html
    assert "€123.45" in html
    assert "9 to 1" in html


def test_limits_come_from_the_table(client, single_table):
    single_table.min_player = 700
    single_table.max_banker = 99900
    single_table.save()
    html = get_rules(client, single_table).content.decode()
    assert "€7.00" in html and "€999.00" in html
    assert "reshuffled before every coup" in html
    assert "Player and Banker cannot be bet together" in html


def test_banker_table_matches_the_engine_in_all_100_cells(client, single_table):
    html = get_rules(client, single_table).content.decode()
    cells = dict(re.findall(r'data-cell="(\d-(?:\d|stood))" class="(draw|stand)"', html))
    assert len(cells) == 110
    for total in range(10):
        for third in range(10):
            expected = "draw" if banker_draws(total, third) else "stand"
            assert cells[f"{total}-{third}"] == expected, (total, third)
        assert cells[f"{total}-stood"] == ("draw" if banker_draws(total, None) else "stand")


def test_worked_examples(client, single_table):
    html = get_rules(client, single_table).content.decode()
    assert re.search(r"9 \+ 7</td>\s*<td class=\"num\">16</td>\s*<td class=\"num\">6</td>", html)
    assert re.search(
        r"5 \+ 5 \+ 5</td>\s*<td class=\"num\">15</td>\s*<td class=\"num\">5</td>", html
    )
    assert re.search(
        r"0 \+ 9</td>\s*<td class=\"num\">9</td>\s*<td class=\"num\">9 \(natural\)", html
    )


def test_german_formats_numbers_and_money(client, full_table):
    html = get_rules(client, full_table, "de").content.decode()
    assert "1,0579" in html
    assert "500,00\u00a0€" in html
    assert "Bank" in html


def test_htmx_gets_only_the_section(client, single_table):
    response = get_rules(client, single_table, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith("<article")
    assert "<html" not in html


def test_another_players_practice_table_is_404(client, bob, practice_table):
    client.force_login(bob)
    assert get_rules(client, practice_table).status_code == 404


def test_closed_or_unknown_table_is_404(client, single_table):
    single_table.is_active = False
    single_table.save()
    assert get_rules(client, single_table).status_code == 404
    assert client.get("/tables/nope/rules/").status_code == 404


def test_odds_are_cached_not_recomputed(single_table):
    rules = table_rule_set(single_table)
    cached_odds.cache_clear()
    cached_odds(rules)
    cached_odds(rules)
    assert cached_odds.cache_info().hits == 1


def test_the_fairness_section_says_only_what_is_true(client, single_table) -> None:
    page = client.get(reverse("table_rules", args=[single_table.slug])).content.decode()
    assert "certified" not in page
    assert "cryptographic random generator (Fisher-Yates)" in page
    assert 'id="fairness"' in page
    assert "before the cut" in page or "before any bet" in page
    assert "every player plays a shoe of their own" in page


def test_a_full_table_says_its_seats_share_the_shoe(client, full_table) -> None:
    page = client.get(reverse("table_rules", args=[full_table.slug])).content.decode()
    assert "Every seat at this table is dealt from the same shoe." in page


def test_a_full_tables_rules_describe_what_it_does(client, full_table) -> None:
    page = client.get(reverse("table_rules", args=[full_table.slug])).content.decode()
    section = page.split('id="rules-full"', 1)[1]
    assert "eight seats and a croupier" in section
    assert "15 seconds" in section and "Deal or Pass" in section
    assert "the croupier cuts at random" in section
    assert "puts that many cards aside" in section  # the table burns by the first card
    assert "87%" in section  # its own cut card
    assert "three rounds in a row" in section
    # The chat, with its limits as configured.
    assert "Send or Enter" in section and "5 messages in 15 seconds" in section
    assert "deleted after 30 days" in section
