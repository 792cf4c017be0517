from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "casino.accounts"
    label = "accounts"
    verbose_name = _("Accounts")
