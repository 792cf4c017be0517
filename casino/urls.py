from __future__ import annotations

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from baccarat.rules.page import table_rules
from casino import (
    converters,  # noqa: F401  (registers <id:...> before the apps' URLs)
    views,
)

urlpatterns = [
    path("", views.lobby, name="lobby"),
    # Lazy: the hashed static name is looked up at the first request, not at import.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"), permanent=True)),
    path("", include("baccarat.urls")),
    path("health/", views.health, name="health"),
    path("health/live/", views.health_live, name="health_live"),
    path("health/ready/", views.health_ready, name="health_ready"),
    path("tables/<slug:slug>/rules/", table_rules, name="table_rules"),
    path("accounts/", include("casino.accounts.urls")),
    path("cashier/", include("wallet.urls")),
    path("support/", include("casino.support.urls")),
    path("help/", include("casino.support.help_urls")),
    path("admin/", admin.site.urls),
]
handler500 = "casino.errors.server_error"
