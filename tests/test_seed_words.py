"""The catalogs keep the words of the seed documents (shared/seeds), as a native reviewer asked.

German follows InterCasino's Full Table Punto Banco (seed 000) and Golden Baccarat (seed 002):
Kartenschlitten, Geben, Passen, Chips, weglegen, Gleicher Einsatz. Italian follows seed 001:
il mazzo, Dai le carte, Passa, il banco pesca, Vincite, gettoni. Dutch follows seed 004 (past)
and the reviewer: Spelgeschiedenis, Kaarten delen, fiches, "u".
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)

# (language, msgctxt or None, msgid, the msgstr it must have)
EXACT = [
    ("de", None, "Deal", "Geben"),
    ("de", None, "Same bet", "Gleicher Einsatz"),
    ("de", None, "Shoe", "Kartenschlitten"),
    ("de", None, "The shoe", "Der Kartenschlitten"),
    ("de", None, "Chip", "Chip"),
    ("de", None, "Stack", "Chips"),
    ("de", None, "Starting chips", "Startchips"),
    ("de", None, "No burn", "Keine Karten weglegen"),
    ("de", None, "burn", "Karten weglegen"),
    ("de", None, "Banker wins pay 1:1 less 5%", "Gewinne auf Bank: 1:1 abzüglich 5 % Provision"),
    ("de", "hand number", "Hand", "Hand"),  # seed 003: Hände
    ("de", "player or banker", "Hand", "Blatt"),
    ("it", None, "Deal", "Dai le carte"),
    ("it", None, "Shoe", "Mazzo"),
    ("it", None, "The shoe", "Il mazzo"),
    ("it", None, "Payouts", "Vincite"),
    ("it", None, "draws", "pesca"),
    ("it", "draws", "D", "P"),
    ("it", None, "stands", "sta"),
    ("it", None, "Chip", "Gettone"),
    ("it", None, "bet", "puntata"),
    ("it", "hand number", "Hand", "Mano"),  # seed 001: la mano
    ("nl", None, "Protocol", "Spelgeschiedenis"),
    ("nl", None, "Protocols", "Spelgeschiedenis"),
    ("nl", None, "Back to the protocol", "Terug naar de spelgeschiedenis"),
    ("nl", None, "Deal", "Kaarten delen"),
    ("nl", None, "stands", "past"),
    ("nl", None, "Shoe", "Shoe"),
    ("nl", None, "Chip", "Fiche"),
    ("nl", "hand number", "Hand", "Hand"),
]

# Long msgids, named once.
DEAL_OR_PASS = (
    "At this table each seated player chooses Deal or Pass within %(seconds)s seconds; "
    "a player who does neither sits out that round."
)
DEAL_STARTS = (
    "DEAL starts the round: your stakes are taken from your stack and the cards are dealt."
)
BURN = (
    "At the start of each shoe the first card is turned face up and as many cards "
    "as its value are burned; a ten or a court card burns ten cards."
)
BANKER_TABLE = (
    "Banker: D draws, S stands, by the Banker total (rows) and the point value of "
    "the Player's third card (columns)"
)
CUT_CARD = (
    "A cut card is placed after %(percent)s%% of the cards. When it comes out, the "
    "coup in progress is completed and the shoe is then reshuffled."
)
LOST_CONNECTION = (
    "If your connection drops after you pressed DEAL, the server completes the round for you "
    "with exactly the cards it would have dealt. The result is in your protocol when you sign "
    "in again."
)

# (language, msgctxt or None, msgid, words its msgstr must contain)
CONTAINS = [
    ("de", None, "Repeat the last bet", ["Gleicher Einsatz"]),
    ("de", None, DEAL_OR_PASS, ["„Geben“", "„Passen“"]),
    ("de", None, DEAL_STARTS, ["GEBEN", "Chips"]),
    ("de", None, BURN, ["Kartenschlittens", "weggelegt"]),
    ("it", None, DEAL_OR_PASS, ["Dai le carte", "Passa"]),
    ("it", None, DEAL_STARTS, ["DAI LE CARTE", "gettoni"]),
    ("it", None, BANKER_TABLE, ["P pesca"]),
    ("it", None, BURN, ["mazzo", "bruciano"]),
    # No article before a percentage that may be 50 to 95 ("l'89%", "il 75%"): words.
    ("it", None, CUT_CARD, ["dopo %(percent)s carte su cento"]),
    ("nl", None, DEAL_OR_PASS, ["Kaarten delen", "Passen"]),
    ("nl", None, DEAL_STARTS, ["KAARTEN DELEN", "fiches"]),
    ("nl", None, BANKER_TABLE, ["P past"]),
    ("nl", None, LOST_CONNECTION, ["KAARTEN DELEN", "spelgeschiedenis"]),
]

# On a tie, Player and Banker bets are given back, not left standing.
TIE_SENTENCES = [
    "Tie: Player and Banker bets are returned",
    "On a tie, bets on Player and Banker are returned (push).",
]
TIE_WORD = {"de": "zurückgegeben", "it": "restituite", "nl": "teruggegeven"}

# Case-insensitive regular expressions no msgstr of the language may contain.
FORBIDDEN = {
    "de": [
        r"schuh",  # the shoe is "Kartenschlitten"
        r"jeton",  # "Chips", as seeds 000, 002 and 003 say
        r"austeil",  # Deal is "Geben"
        r"ausgeteilt",
        r"verbrenn",  # burned cards are "weggelegt"
        r"bleiben stehen",  # tie: bets "werden zurückgegeben"
        r"bankgewinn",  # reads as the bank's profits
        r"setzfeld",  # seed 002: "Einsatzfeld"
        r"erneut setzen",  # rebet is "Gleicher Einsatz"
        r"\bdu\b",
        r"\bdein",  # formal "Sie"
    ],
    "it": [
        r"chiede carta",  # blackjack's hit; the banker "pesca"
        r"pagamenti",  # reads as deposits and withdrawals; payouts are "vincite"
        r"distribuisci",  # Deal is "Dai le carte"
        r"sabot",  # the shoe is "il mazzo"
        r"\bfiche",  # seed 001: "gettoni" (not "modifiche")
        r"scommess",  # bets are "puntate"
        # No article before a percentage placeholder ("dopo %(percent)s%%", not "dopo il").
        r"(?:\b(?:il|al|del|dal|nel|sul)\s+|\bl['’])%\(\w+\)s\s*%%",
    ],
    "nl": [
        r"protocol",  # a calque: the round history is "spelgeschiedenis"
        r"^delen$",  # reads as "Share"
        r"blijven staan",  # tie: bets "worden teruggegeven"
        r"\bje\b",
        r"\bjij\b",
        r"\bjouw\b",  # formal "u"
    ],
}


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def translations(entry: polib.POEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def find(language: str, context: str | None, msgid: str) -> polib.POEntry:
    for entry in catalog(language):
        if not entry.obsolete and entry.msgid == msgid and entry.msgctxt == context:
            return entry
    raise AssertionError(f"{language}: no entry {context!r} {msgid!r}")


@pytest.mark.parametrize(("language", "context", "msgid", "expected"), EXACT)
def test_the_seed_word_is_used(language, context, msgid, expected):
    entry = find(language, context, msgid)
    assert not entry.fuzzy, f"{language}: {msgid!r} is fuzzy"
    assert entry.msgstr == expected


@pytest.mark.parametrize(("language", "context", "msgid", "words"), CONTAINS)
def test_the_sentence_uses_the_seed_words(language, context, msgid, words):
    entry = find(language, context, msgid)
    for word in words:
        assert word in entry.msgstr, f"{language}: {word!r} missing in {entry.msgstr!r}"


@pytest.mark.parametrize("language", sorted(TIE_WORD))
@pytest.mark.parametrize("msgid", TIE_SENTENCES)
def test_a_tie_returns_the_player_and_banker_bets(language, msgid):
    assert TIE_WORD[language] in find(language, None, msgid).msgstr


@pytest.mark.parametrize("language", sorted(FORBIDDEN))
def test_no_forbidden_word_comes_back(language):
    patterns = [re.compile(pattern, re.I) for pattern in FORBIDDEN[language]]
    found = [
        (pattern.pattern, entry.msgid, text)
        for entry in catalog(language)
        if not entry.obsolete
        for text in translations(entry)
        for pattern in patterns
        if pattern.search(text)
    ]
    assert found == []


def test_the_check_catches_a_forbidden_word():
    def hits(language: str, text: str) -> list[str]:
        return [p for p in FORBIDDEN[language] if re.search(p, text, re.I)]

    assert hits("de", "Der Schuh wird neu gemischt") == [r"schuh"]
    assert hits("de", "Ihre Jetons am Tisch") == [r"jeton"]
    assert hits("it", "Banco: C chiede carta") == [r"chiede carta"]
    assert hits("it", "Dopo il %(percent)s%% delle carte") != []
    assert hits("it", "Dopo l'%(percent)s%% delle carte") != []
    assert hits("it", "Dopo %(percent)s%% delle carte") == []
    assert hits("it", "Vale dal %(when)s.") == []
    assert hits("nl", "Delen") == [r"^delen$"]
    assert hits("nl", "Kaarten delen") == []
    assert hits("nl", "Terug naar het protocol") == [r"protocol"]
