"""``{% jinja %}``: a fragment of templates/jinja2/ drawn with the Django page's context,
escaped, translated and cached as Django's own templates would do it."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.template import Context, Template, engines
from django.utils import translation

TAG = '{% load casino %}{% jinja "test.html" extra=1 %}'


@pytest.fixture
def fragment(tmp_path):
    """A fragment ``test.html`` written by the test, found first by the Jinja2 engine."""
    env = engines["jinja2"].env
    loader = env.loader
    written = tmp_path / "test.html"
    env.loader = type(loader)([str(tmp_path), *loader.searchpath])
    env.cache.clear()
    yield written
    env.loader = loader
    env.cache.clear()


def draw(source: str, fragment, **context) -> str:
    fragment.write_text(source)
    engines["jinja2"].env.cache.clear()  # compiled once, as in production: drop the last
    return Template(TAG).render(Context(context))


def test_the_fragment_gets_the_context_and_the_extras(fragment):
    out = draw("{{ name }} {{ extra }} {{ amount|money }}", fragment, name="Ann", amount=1250)
    assert out.startswith("Ann 1 ") and "12" in out and "50" in out


def test_values_are_escaped_and_safe_markup_is_not(fragment):
    from django.utils.safestring import mark_safe

    out = draw("{{ a }}|{{ b }}", fragment, a="<b>&", b=mark_safe("<i>ok</i>"))
    assert out == "&lt;b&gt;&amp;|<i>ok</i>"


def test_a_missing_value_or_its_attribute_draws_nothing(fragment):
    assert draw("[{{ missing }}][{{ missing.deeper.still }}]", fragment) == "[][]"


def test_text_is_translated_in_the_active_language(fragment):
    with translation.override("de"):
        out = draw('{{ _("Player") }}|{{ _("Seat %(number)s")|format(number=3) }}', fragment)
    assert out == "Spieler|Platz 3"


def test_cached_keeps_a_fragment_under_djangos_key(fragment):
    source = '{% call cached(60, "frag", key) %}{{ value }}{% endcall %}'
    caches["default"].delete(make_template_fragment_key("frag", ["k1"]))
    assert draw(source, fragment, key="k1", value="first") == "first"
    assert draw(source, fragment, key="k1", value="second") == "first"  # kept
    assert draw(source, fragment, key="k2", value="second") == "second"
    with mock.patch.object(type(caches["uncached"]), "get", return_value=None) as get:
        out = draw('{% call cached(60, "f", 1, using="uncached") %}x{% endcall %}', fragment)
    assert out == "x" and get.called


def test_a_responses_fragments_share_one_masked_csrf_token_the_next_its_own(fragment):
    from django.middleware.csrf import _unmask_cipher_token
    from django.test import RequestFactory

    fragment.write_text("{{ csrf_input }}")
    engines["jinja2"].env.cache.clear()
    secret = "a" * 32
    requests = [RequestFactory().get("/"), RequestFactory().get("/")]
    drawn = []
    for request in requests:
        request.META["CSRF_COOKIE"] = secret
        page = Template(TAG + TAG).render(Context({"request": request}))
        first, second = page[: len(page) // 2], page[len(page) // 2 :]
        assert first == second and 'name="csrfmiddlewaretoken"' in first
        drawn.append(first.split('value="')[1].split('"')[0])
    assert drawn[0] != drawn[1]  # each response masks anew
    assert {_unmask_cipher_token(token) for token in drawn} == {secret}
