"""Tell a player about rounds the server completed while they were away."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from baccarat.models import Play


def deliver_server_notices(request: HttpRequest) -> int:
    """Add one message per round completed by the server; each is shown once."""
    user = request.user
    if not user.is_authenticated:
        return 0
    pending = list(
        Play.objects.filter(player=user, server_notice=True)
        .select_related("round__table")
        .order_by("created_at")[:20]
    )
    for play in pending:
        link = format_html(
            '<a href="{}">{}</a>',
            reverse("baccarat:protocol_detail", args=[play.round_id]),
            _("See the result"),
        )
        text = _(
            "Your round #%(round)s at %(table)s was completed by the server while you were away."
        ) % {"round": play.round_id, "table": play.round.table.name}
        messages.info(request, format_html("{} {}", text, link))
    if pending:
        Play.objects.filter(pk__in=[play.pk for play in pending]).update(server_notice=False)
    return len(pending)


@receiver(user_logged_in)
def notify_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "_messages"):
        deliver_server_notices(request)
