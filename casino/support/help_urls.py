"""The player's side of support: requests for help about their rounds (``/help/``)."""

from __future__ import annotations

from django.urls import path

from casino.support import help_views

app_name = "help"

urlpatterns = [
    path("", help_views.ticket_list, name="tickets"),
    path("<id:ticket_id>/", help_views.ticket_detail, name="ticket"),
    path("rounds/<id:round_id>/", help_views.ticket_new, name="report"),
]
