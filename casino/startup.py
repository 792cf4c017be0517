"""What a web process checks before it serves anyone."""

from __future__ import annotations

from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.exceptions import ImproperlyConfigured


def require_collected_static() -> None:
    """With DEBUG off, pages name their assets through collectstatic's manifest; without
    it every page would be a 500. Refuse to start instead, and say what to run."""
    read_manifest = getattr(staticfiles_storage, "read_manifest", None)
    if read_manifest is not None and read_manifest() is None:
        raise ImproperlyConfigured(
            "The static files have not been collected: run "
            "`python manage.py collectstatic --noinput` before starting the web server "
            "(DEBUG is off, so pages need collectstatic's manifest)."
        )
