from __future__ import annotations

from django.urls import path

from casino.support import views

app_name = "support"

urlpatterns = [
    path("", views.search, name="search"),
    path("rounds/<id:round_id>/", views.round_detail, name="round"),
    path("rounds/<id:round_id>/void/", views.round_void, name="void"),
    path("players/<id:player_id>/", views.player_detail, name="player"),
    path("chat/", views.chat_queue, name="chat_queue"),
    path("chat/<id:message_id>/", views.chat_case, name="chat_case"),
    path("chat/<id:message_id>/mutes/<id:mute_id>/lift/", views.mute_lift, name="mute_lift"),
    path("tickets/", views.ticket_queue, name="tickets"),
    path("tickets/<id:ticket_id>/", views.ticket_detail, name="ticket"),
]
