"""The build fails when a catalog is incomplete or a template string is not marked."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

ROOT = Path(settings.BASE_DIR)
TEMPLATE_DIRS = [ROOT / "templates"]
TRANSLATED = ["de", "it", "nl"]

TAG = re.compile(r"<[^>]*>", re.S)
SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
ENTITY = re.compile(r"&[a-zA-Z]+;|&#\d+;")
WORD = re.compile(r"[^\W\d_]{2,}")
SKIPPED_BLOCKS = {
    "blocktranslate": "endblocktranslate",
    "blocktrans": "endblocktrans",
    "comment": "endcomment",
}
LITERAL_ATTRIBUTE = re.compile(r'\b(aria-label|title|placeholder|alt)="([^"\x00]*)"')


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalog_is_complete(language):
    po = catalog(language)
    assert len(po) > 100
    untranslated = [entry.msgid for entry in po.untranslated_entries()]
    fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
    assert untranslated == [], f"{language}: untranslated {untranslated[:10]}"
    assert fuzzy == [], f"{language}: fuzzy {fuzzy[:10]}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalog_keeps_placeholders(language):
    placeholder = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
    for entry in catalog(language):
        if entry.msgid_plural or not entry.msgstr or entry.fuzzy:
            continue
        assert sorted(placeholder.findall(entry.msgid)) == sorted(
            placeholder.findall(entry.msgstr)
        ), f"{language}: {entry.msgid!r}"


def template_files() -> list[Path]:
    return sorted(
        path
        for folder in TEMPLATE_DIRS
        for path in folder.rglob("*")
        if path.suffix in {".html", ".txt"}
    )


def unmarked_text(source: str) -> list[str]:
    """Words of page text that no translation tag covers."""
    parts = []
    inside = None  # the closing tag of a block whose text is not page text
    for token in Lexer(source).tokenize():
        if token.token_type is TokenType.TEXT:
            parts.append(" " if inside else token.contents)
            continue
        if token.token_type is TokenType.BLOCK:
            name = token.contents.split()[0]
            if inside is None and name in SKIPPED_BLOCKS:
                inside = SKIPPED_BLOCKS[name]
            elif name == inside:
                inside = None
        parts.append("\x00")  # a template tag or variable: translated or data
    text = "".join(parts)
    found = [
        f'{name}="{value}"' for name, value in LITERAL_ATTRIBUTE.findall(text) if WORD.search(value)
    ]
    text = SCRIPT_OR_STYLE.sub(" ", text)
    text = TAG.sub(" ", text)
    text = ENTITY.sub(" ", text)
    return found + WORD.findall(text)


def test_every_template_string_is_marked_for_translation():
    problems = {}
    for path in template_files():
        words = unmarked_text(path.read_text())
        if words:
            problems[str(path.relative_to(ROOT))] = words[:8]
    assert problems == {}


def test_the_check_catches_an_unmarked_string():
    assert unmarked_text("<p>{% translate 'Fine' %}</p><p>Hello world</p>") == ["Hello", "world"]
    assert unmarked_text('<a aria-label="Close" href="#">{% translate "x" %}</a>') == [
        'aria-label="Close"'
    ]
    assert unmarked_text("<p>{{ value }} · 42 €</p>") == []
    assert unmarked_text("{% blocktranslate %}Fine {{ x }} too{% endblocktranslate %} Not") == [
        "Not"
    ]
