from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from casino.support.models import TableChange


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
