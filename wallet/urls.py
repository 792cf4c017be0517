from __future__ import annotations

from django.urls import path

from wallet import views

app_name = "wallet"

urlpatterns = [
    path("", views.cashier, name="cashier"),
    path("deposit/", views.deposit, name="deposit"),
    path("limit/", views.deposit_limit, name="limit"),
    path("history/", views.history, name="history"),
]
