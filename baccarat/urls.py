from __future__ import annotations

from django.urls import path

from baccarat.full import chat_views, live
from baccarat.full import views as full_views
from baccarat.integrity import views as integrity_views
from baccarat.protocol import views as protocol_views
from baccarat.single import views

app_name = "baccarat"

urlpatterns = [
    path("tables/<slug:slug>/", views.table_view, name="table"),
    path("tables/<slug:slug>/coups/", views.table_coups, name="table_coups"),
    path("tables/<slug:slug>/bet/", views.table_bet, name="table_bet"),
    path("tables/<slug:slug>/clear/", views.table_clear, name="table_clear"),
    path("tables/<slug:slug>/rebet/", views.table_rebet, name="table_rebet"),
    path("tables/<slug:slug>/deal/", views.table_deal, name="table_deal"),
    path("tables/<slug:slug>/rebuy/", views.table_rebuy, name="table_rebuy"),
    path("tables/<slug:slug>/exit/", views.table_exit, name="table_exit"),
    path(
        "tables/<slug:slug>/reality-check/",
        views.table_reality_check,
        name="table_reality_check",
    ),
    # Full tables
    path("tables/<slug:slug>/sit/", full_views.table_sit, name="table_sit"),
    path("tables/<slug:slug>/layout/", full_views.table_layout, name="table_layout"),
    path("tables/<slug:slug>/pass/", full_views.table_pass, name="table_pass"),
    path("tables/<slug:slug>/cut/", full_views.table_cut, name="table_cut"),
    path("tables/<slug:slug>/events/", live.table_events, name="table_events"),
    path("tables/<slug:slug>/chat/", chat_views.chat_window, name="chat"),
    path("tables/<slug:slug>/chat/send/", chat_views.chat_send, name="chat_send"),
    path(
        "tables/<slug:slug>/chat/<id:message_id>/report/",
        chat_views.chat_report,
        name="chat_report",
    ),
    path("practice/", views.practice_new, name="practice_new"),
    path("practice/<id:pk>/", views.practice_summary, name="practice_summary"),
    path("protocol/", protocol_views.protocol_list, name="protocol_list"),
    path("protocol/export.csv", protocol_views.protocol_export, name="protocol_export"),
    path(
        "protocol/statistics/",
        protocol_views.protocol_statistics,
        name="protocol_statistics",
    ),
    path("protocol/<id:round_id>/", protocol_views.protocol_detail, name="protocol_detail"),
    path("protocol/<id:round_id>/replay/", protocol_views.protocol_replay, name="protocol_replay"),
    path("shoes/<sha256:commitment>/", integrity_views.shoe_verify, name="shoe_verify"),
    path(
        "shoes/<id:shoe_id>/",
        integrity_views.shoe_verify_by_number,
        name="shoe_verify_by_number",
    ),
]
