from __future__ import annotations

from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"

    def ready(self) -> None:
        from casino.security import signals  # noqa: F401  (logins logged, counted, stamped)
