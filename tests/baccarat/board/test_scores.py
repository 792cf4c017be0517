"""A coup's score in words, winner first, and the croupier's call: never a colon."""

from __future__ import annotations

import pytest
from django.utils import translation

from baccarat.board.scores import croupier_call, score_words

SIDES = {"de": ("Spieler", "Bank"), "it": ("Giocatore", "Banchiere"), "nl": ("Speler", "Banker")}


@pytest.mark.parametrize(
    ("outcome", "player", "banker", "words", "call"),
    [
        ("banker", 6, 8, "Banker 8 – Player 6", "Banker wins, 8 to 6"),
        ("player", 9, 8, "Player 9 – Banker 8", "Player wins, 9 to 8"),
        ("player", 8, 0, "Player 8 – Banker 0", "Player wins, 8 to 0"),
        ("tie", 6, 6, "Tie 6 – 6", "Tie, 6 to 6"),
    ],
)
def test_the_score_is_written_in_words_winner_first(outcome, player, banker, words, call):
    with translation.override("en"):
        assert score_words(outcome, player, banker) == words
        assert croupier_call(outcome, player, banker) == call


def test_a_round_without_cards_is_its_outcome_alone():
    with translation.override("en"):
        assert score_words("banker", None, None) == "Banker"
        assert score_words("", None, None) == ""


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_every_language_names_the_winner_first_and_writes_no_colon(language):
    player, banker = SIDES[language]
    with translation.override(language):
        words = score_words("banker", 6, 8)
        call = croupier_call("banker", 6, 8)
        assert words == f"{banker} 8 – {player} 6"
        assert banker in call and call.index("8") < call.index("6")
        assert ":" not in words + call + score_words("tie", 5, 5) + croupier_call("tie", 5, 5)
