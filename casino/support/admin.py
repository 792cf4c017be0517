from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from casino.support.models import StaffAction, TableChange, Ticket


@admin.register(TableChange)
class TableChangeAdmin(admin.ModelAdmin):
    """The audit log: readable by table admins, writable by nobody."""

    list_display = ["changed_at", "table", "changed_by", "summary"]
    list_filter = ["table"]
    list_select_related = ["table", "changed_by"]
    readonly_fields = ["table", "changed_by", "changed_at", "changes", "before", "after"]
    fields = readonly_fields

    @admin.display(description=_("changes"))
    def summary(self, obj: TableChange) -> str:
        if not obj.before:
            return str(_("created"))
        return ", ".join(change[0] for change in obj.changed_fields())

    @admin.display(description=_("before → after"))
    def changes(self, obj: TableChange) -> Any:
        return format_html_join("", "<div><code>{}</code>: {} → {}</div>", obj.changed_fields())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(StaffAction)
class StaffActionAdmin(admin.ModelAdmin):
    """What staff did (chat moderation, voids, exports, player pages viewed, answers to
    requests): readable, never changed or deleted."""

    list_display = ["created_at", "actor", "kind", "subject", "reason"]
    list_filter = ["kind"]
    list_select_related = ["actor", "subject"]
    search_fields = ["actor__username", "subject__username", "reason"]
    readonly_fields = ["created_at", "actor", "kind", "subject", "reason", "details"]
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Ticket)
class TicketAdmin(admin.ModelAdmin):
    """Players' requests, for reading: support answers them in the support area."""

    list_display = ["created_at", "player", "round", "subject", "state", "answered_by"]
    list_filter = ["state", "subject"]
    list_select_related = ["player", "answered_by"]
    search_fields = ["player__username", "message", "answer"]
    readonly_fields = [
        "created_at",
        "player",
        "round",
        "subject",
        "message",
        "state",
        "answer",
        "answered_by",
        "answered_at",
        "closed_at",
    ]
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
