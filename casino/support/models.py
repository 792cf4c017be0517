from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TableChange(models.Model):
    """Audit log of table configuration: who changed what, when, from what to what.

    Written by the admin on every save; the admin shows it read-only, and no view
    of the application can edit or delete it.
    """

    table = models.ForeignKey(
        "baccarat.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="changes"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("changed by"),
        null=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True, db_index=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"))

    class Meta:
        verbose_name = _("table change")
        verbose_name_plural = _("table changes")
        ordering = ["-changed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} @ {self.changed_at:%Y-%m-%d %H:%M}"

    def changed_fields(self) -> list[tuple[str, object, object]]:
        before = self.before or {}
        return [
            (name, before.get(name), value)
            for name, value in self.after.items()
            if before.get(name) != value
        ]
