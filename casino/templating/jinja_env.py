"""The Jinja2 environment of the table's hot fragments (``templates/jinja2/``).

The boards that every chip, DEAL and live event draws again (the hands, the spots, the
status bar, the seats, the statistics panel) are Jinja2 templates: Jinja2 compiles a
template to Python once, and draws the same fragment several times faster than Django's
template engine walks its nodes (a round with Django templates instead takes a quarter
more CPU: docs/architecture.md, "What replaces the framework"). The pages around
them stay Django templates and take a fragment with ``{% jinja "name" %}``
(:func:`casino.templatetags.casino.jinja`), with the page's context.

The fragments use what the Django templates use: Django's translations (``_("…")``, the
one form ``makemessages`` finds in a template; ``|format(...)`` fills its placeholders),
the same filters (one registry), ``url()`` for ``{% url %}``, ``csrf_input`` for
``{% csrf_token %}`` and ``cached()`` for ``{% cache %}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.urls import reverse
from django.utils import translation
from django.utils.text import slugify
from jinja2 import ChainableUndefined, Environment
from markupsafe import Markup

from casino.templatetags import casino as filters


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args)


def cached(
    timeout: int, name: str, *vary_on: Any, caller: Callable[[], str], using: str = "default"
) -> Markup:
    """``{% call cached(86400, "name", key, ...) %}…{% endcall %}``: the fragment from the
    cache ``using`` under the key Django's ``{% cache %}`` tag would use, else drawn and
    kept for ``timeout`` seconds."""
    cache = caches[using]
    key = make_template_fragment_key(name, vary_on)
    fragment = cache.get(key)
    if fragment is None:
        fragment = str(caller())
        cache.set(key, fragment, timeout)
    return Markup(fragment)  # noqa: S704  (drawn by an autoescaping template)


def environment(**options: Any) -> Environment:
    options.setdefault("extensions", []).append("jinja2.ext.i18n")
    # As in Django's templates, a missing value (or an attribute of one) draws nothing, in
    # development too (Django's backend would print DebugUndefined's "{{ name }}").
    options["undefined"] = ChainableUndefined
    env = Environment(**options)  # noqa: S701  (autoescape is on: settings.TEMPLATES)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translation.gettext, translation.ngettext, newstyle=False
    )
    env.globals.update(url=url, cached=cached)
    # The Django templates' own filters (casino/templatetags/casino.py), one registry for both.
    env.filters.update(filters.register.filters, slugify=slugify)
    return env
