from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BaccaratConfig(AppConfig):
    name = "baccarat"
    verbose_name = _("Baccarat")

    def ready(self) -> None:
        from baccarat import notices  # noqa: F401  (connects the login signal)
