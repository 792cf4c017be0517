"""The form renderer: Django's own form and widget templates drawn by Jinja2.

Django ships every form and widget template twice, for its template engine and for
Jinja2, with the same markup (up to blank lines between options). Jinja2 draws them about
twice as fast (the protocol's filter form 1.56 → 0.78 ms, the buy-in's 0.45 → 0.30). A
template that exists only for Django's engine, such as the admin's own widgets, is drawn
by it as before.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist


class FormRenderer(BaseRenderer):
    @cached_property
    def jinja(self) -> Jinja2:
        return Jinja2()

    @cached_property
    def django(self) -> DjangoTemplates:
        return DjangoTemplates()

    def get_template(self, template_name: str) -> Any:
        try:
            return self.jinja.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)
