"""Template filters: money by the active locale (``wallet.formatting``), cards and scores as
words, roads; and ``{% jinja %}``, a fragment of ``templates/jinja2/`` drawn with the
page's context."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.safestring import SafeString

from baccarat.board import card_names, scores
from baccarat.board.chips import chip_stack as _chip_stack
from baccarat.board.fragments import render_fragment
from wallet.formatting import format_money

register = template.Library()


@register.filter
def money(cents: int | None) -> str:
    return format_money(cents)


@register.filter
def signed_money(cents: int | None) -> str:
    return format_money(cents, sign=True)


@register.filter
def clock_time(value: datetime | None) -> str:
    """A moment as the player's clock shows it (the local time, hours and minutes)."""
    if value is None:
        return ""
    return date_format(timezone.localtime(value), "TIME_FORMAT")


@register.filter
def units(cents: int | None) -> str:
    """A chip value in whole units (500 cents → 5)."""
    if cents is None:
        return ""
    return str(int(cents) // 100) if int(cents) % 100 == 0 else format_money(cents)


@register.filter
def chip_stack(cents: int | None, values: list[int] | None) -> list[int]:
    """A stake as the chips of the table's rack that make it (``baccarat.board.chips``)."""
    return _chip_stack(cents or 0, values or [])


@register.filter
def card_name(code: str | None) -> str:
    """A card code as words of the active language: ``"TH"`` → "Ten of hearts"."""
    return card_names.card_name(code or "")


@register.filter
def cards_named(codes: str | None) -> str:
    """A hand's card codes as words, comma separated."""
    return card_names.cards_named(codes or "")


@register.filter
def score_words(round: Any) -> str:
    """A dealt round's score in words, the winner first: "Banker 8 – Player 6"."""
    return scores.score_words(round.outcome, round.player_total, round.banker_total)


@register.filter
def croupier_call(round: Any) -> str:
    """What the croupier says of a dealt round: "Banker wins, 8 to 6"."""
    return scores.croupier_call(round.outcome, round.player_total, round.banker_total)


@register.filter
def units_plain(cents: int | None) -> str:
    """Whole units as a bare number for a form field (1500 cents → 15)."""
    return "" if cents is None else str(int(cents) // 100)


@register.filter
def percent_of(count: int, total: int) -> str:
    """``count`` as a whole percentage of ``total``, in the active locale ("33 %")."""
    if not total:
        return "–"
    value = (count * 200 + total) // (2 * total)
    return (
        f"{value}\u00a0%"
        if (translation.get_language() or "en")[:2] in ("de", "nl")
        else f"{value}%"
    )


@register.filter
def road_figure(road: Any, key: str) -> SafeString:
    """A road (:class:`baccarat.board.statistics.RoadView`) as its figure; ``key`` keeps the
    ids of its SVG unique on the page."""
    return road.figure(str(key))


@register.simple_tag(takes_context=True)
def jinja(context: template.Context, name: str, **extra: Any) -> SafeString:
    """``{% jinja "baccarat/hands.html" oob=True %}``: the Jinja2 fragment ``name``
    (:mod:`casino.templating.jinja_env`) drawn with this template's context and ``extra``, as
    ``{% include ... with ... %}`` would draw a Django template."""
    values: dict[str, Any] = {**context.flatten(), **extra}  # type: ignore[dict-item]
    return render_fragment(name, values, values.get("request"))
