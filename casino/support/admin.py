from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from baccarat.admin import HistoryReadOnly
from casino.support.models import StaffAction, TableChange, Ticket


@admin.register(TableChange)
class TableChangeAdmin(HistoryReadOnly):
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


@admin.register(StaffAction)
class StaffActionAdmin(HistoryReadOnly):
    """What staff did (chat moderation, voids, exports, player pages viewed, answers to
    requests): readable, never changed or deleted."""

    list_display = ["created_at", "actor", "kind", "subject", "reason"]
    list_filter = ["kind"]
    list_select_related = ["actor", "subject"]
    search_fields = ["actor__username", "subject__username", "reason"]
    readonly_fields = ["created_at", "actor", "kind", "subject", "reason", "details"]
    fields = readonly_fields


@admin.register(Ticket)
class TicketAdmin(HistoryReadOnly):
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
