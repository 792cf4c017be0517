from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from casino import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("health/", views.health, name="health"),
    path("accounts/", include("casino.accounts.urls")),
    path("admin/", admin.site.urls),
]
