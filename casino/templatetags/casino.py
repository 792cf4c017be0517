"""Template filters: money by the active locale (``wallet.formatting``), cards as words, roads;
and ``{% jinja %}``, a fragment of ``templates/jinja2/`` drawn with the page's context."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import engines
from django.template.backends.utils import csrf_input
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from baccarat import card_names
from casino import jinja_env
from wallet.formatting import format_money

register = template.Library()


@register.filter
def money(cents: int | None) -> str:
    return format_money(cents)


@register.filter
def signed_money(cents: int | None) -> str:
    return format_money(cents, sign=True)


@register.filter
def units(cents: int | None) -> str:
    """A chip value in whole units (500 cents → 5)."""
    if cents is None:
        return ""
    return str(int(cents) // 100) if int(cents) % 100 == 0 else format_money(cents)


@register.filter
def card_name(code: str | None) -> str:
    """A card code as words of the active language: ``"TH"`` → "Ten of hearts"."""
    return card_names.card_name(code or "")


@register.filter
def cards_named(codes: str | None) -> str:
    """A hand's card codes as words, comma separated."""
    return card_names.cards_named(codes or "")


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
    """A road (:class:`baccarat.statistics.RoadView`) as its figure; ``key`` keeps the
    ids of its SVG unique on the page."""
    return road.figure(str(key))


@register.simple_tag(takes_context=True)
def jinja(context: template.Context, name: str, **extra: Any) -> SafeString:
    """``{% jinja "baccarat/hands.html" oob=True %}``: the Jinja2 fragment ``name``
    (:mod:`casino.jinja_env`) drawn with this template's context and ``extra``, as
    ``{% include ... with ... %}`` would draw a Django template."""
    values: dict[str, Any] = {**context.flatten(), **extra}  # type: ignore[dict-item]
    return render_fragment(name, values, values.get("request"))


def render_fragment(name: str, values: dict[str, Any], request: Any) -> SafeString:
    """The Jinja2 fragment ``name`` drawn with ``values`` (changed: the fragments'
    ``gettext`` and, for a request, its ``request`` and ``csrf_input`` are put in).

    The table's answers to HTMX are drawn by it alone (:func:`baccarat.views._render_table`):
    a Django template around the fragments ran the context processors and copied the
    context once per fragment, about a quarter of a DEAL's drawing."""
    values["gettext"] = jinja_env.active_gettext()
    values.setdefault("LANGUAGE_CODE", translation.get_language())
    if request is not None:
        values["request"] = request
        values["csrf_input"] = _csrf_input(request)
    fragment = engines["jinja2"].get_template(name).template  # type: ignore[attr-defined]
    return mark_safe(fragment.render(values))  # noqa: S308  (autoescaped)


def _csrf_input(request: Any) -> SafeString:
    """The CSRF token's hidden input, masked once for all the fragments of a response.
    Django masks the token anew on every call (32 random characters: some 80 µs), and a
    full table's board and controls hold six forms; a response still gets a mask of its
    own, which is what keeps the token from being read out of compressed lengths."""
    found: SafeString | None = getattr(request, "_fragments_csrf_input", None)
    if found is None:
        found = request._fragments_csrf_input = csrf_input(request)
    return found
