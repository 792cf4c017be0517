"""Drawing the table's Jinja2 fragments (``templates/jinja2/``) outside a Django template.

The environment itself is the project's (:mod:`casino.templating.jinja_env`, reached
through Django's engine registry); what is here is how the game's views and the
``{% jinja %}`` tag put a fragment's context together: the active catalogue's
``gettext`` looked up once, and for a request its ``request`` and one masked CSRF input
for all of a response's forms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.template import engines
from django.template.backends.utils import csrf_input
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import trans_real


def active_gettext() -> Callable[[str], str]:
    """The active language's ``gettext``, looked up once for a fragment: Django's
    ``gettext`` looks the active language up again in a context-local on every call (some
    5 µs), and a DEAL's board and panel translate about seventy words. Put in a
    fragment's context as ``gettext``, it is what ``_("…")`` calls there."""
    if not settings.USE_I18N:
        return translation.gettext
    return trans_real.catalog().gettext


def render_fragment(name: str, values: dict[str, Any], request: Any) -> SafeString:
    """The Jinja2 fragment ``name`` drawn with ``values`` (changed: the fragments'
    ``gettext`` and, for a request, its ``request`` and ``csrf_input`` are put in).

    The table's answers to HTMX are drawn by it alone (:func:`baccarat.single.views._render_table`):
    a Django template around the fragments ran the context processors and copied the
    context once per fragment, about a quarter of a DEAL's drawing."""
    values["gettext"] = active_gettext()
    values.setdefault("LANGUAGE_CODE", translation.get_language())
    if request is not None:
        values["request"] = request
        values["csrf_input"] = _csrf_input(request)
    fragment = engines["jinja2"].get_template(name).template  # type: ignore[attr-defined]
    return mark_safe(str(fragment.render(values)))  # noqa: S308  (autoescaped)


def _csrf_input(request: Any) -> SafeString:
    """The CSRF token's hidden input, masked once for all the fragments of a response.
    Django masks the token anew on every call (32 random characters: some 80 µs), and a
    full table's board and controls hold six forms; a response still gets a mask of its
    own, which is what keeps the token from being read out of compressed lengths."""
    found: SafeString | None = getattr(request, "_fragments_csrf_input", None)
    if found is None:
        found = request._fragments_csrf_input = csrf_input(request)
    return found
