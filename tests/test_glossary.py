"""The catalogs follow the glossary (docs/glossary.md): for every row marked "checked",
each translated entry whose English text holds the term holds the language's term."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
GLOSSARY = ROOT / "docs" / "glossary.md"
COLUMNS = {"de": 1, "it": 2, "nl": 3}


def checked_rows() -> list[tuple[str, dict[str, list[str]]]]:
    """(English term, {language: accepted words}) of every checked row."""
    rows = []
    for line in GLOSSARY.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[5] != "checked":
            continue
        term = cells[0].split(" (")[0]
        words = {lang: [w.strip() for w in cells[i].split(" / ")] for lang, i in COLUMNS.items()}
        rows.append((term, words))
    return rows


def mentions(term: str) -> re.Pattern[str]:
    """The term as a whole word, singular or plural; a lower-case term also capitalised
    (it begins a sentence), a capitalised one only so (the button "Deal", not "a deal")."""
    first = term[0]
    start = f"[{first}{first.upper()}]" if first.islower() else first
    return re.compile(rf"\b{start}{re.escape(term[1:])}s?\b")


def test_the_glossary_has_checked_rows() -> None:
    terms = [term for term, _words in checked_rows()]
    assert {"Banker", "Tie", "stake", "Deal", "coup", "shoe"} <= set(terms)


@pytest.mark.parametrize("language", list(COLUMNS))
def test_the_catalog_follows_the_glossary(language: str) -> None:
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    faults = []
    for term, words in checked_rows():
        pattern = mentions(term)
        accepted = [word.lower() for word in words[language]]
        for entry in po.translated_entries():
            if not pattern.search(entry.msgid + " " + (entry.msgid_plural or "")):
                continue
            texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
            for text in texts:
                if not any(word in text.lower() for word in accepted):
                    faults.append(f"{term!r} → {words[language]}: {entry.msgid!r} = {text!r}")
    assert faults == [], f"{len(faults)} entries:\n" + "\n".join(faults[:40])
