"""Tell a player about rounds the server completed or voided while they were away."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from baccarat.models import Play, Round
from baccarat.selectors import table_name
from wallet.formatting import format_money


def notice_text(play: Play) -> str:
    """What a player is told about a round finished without them, in the active language."""
    round = play.round
    values = {"round": round.pk, "table": table_name(round.table)}
    if round.state == Round.State.VOID:
        return (
            _(
                "Your round #%(round)s at %(table)s was voided; every stake was returned to "
                "your stack."
            )
            % values
        )
    net = play.payout_total - play.stake_total
    values["amount"] = format_money(abs(net))
    if round.shared and round.completion == Round.Completion.PLAYED:
        # A full table deals when its players have decided, present or not.
        if net > 0:
            return (
                _(
                    "Your round #%(round)s at %(table)s was dealt while you were away: "
                    "you won %(amount)s."
                )
                % values
            )
        if net < 0:
            return (
                _(
                    "Your round #%(round)s at %(table)s was dealt while you were away: "
                    "you lost %(amount)s."
                )
                % values
            )
        return (
            _(
                "Your round #%(round)s at %(table)s was dealt while you were away: "
                "your stakes were returned."
            )
            % values
        )
    if net > 0:
        return (
            _(
                "Your round #%(round)s at %(table)s was completed by the server while you were "
                "away: you won %(amount)s."
            )
            % values
        )
    if net < 0:
        return (
            _(
                "Your round #%(round)s at %(table)s was completed by the server while you were "
                "away: you lost %(amount)s."
            )
            % values
        )
    return (
        _(
            "Your round #%(round)s at %(table)s was completed by the server while you were "
            "away: your stakes were returned."
        )
        % values
    )


def deliver_server_notices(request: HttpRequest, user: Any = None) -> int:
    """Add one message per round the server completed or voided; each is shown once, in
    the player's own language."""
    user = user or request.user
    if not user.is_authenticated:
        return 0
    pending = list(
        Play.objects.filter(player=user, server_notice=True)
        .select_related("round__table")
        .order_by("created_at")[:20]
    )
    with translation.override(getattr(user, "language", "") or translation.get_language()):
        for play in pending:
            link = format_html(
                '<a href="{}">{}</a>',
                reverse("baccarat:protocol_detail", args=[play.round_id]),
                _("See the round"),
            )
            messages.info(request, format_html("{} {}", notice_text(play), link))
    if pending:
        Play.objects.filter(pk__in=[play.pk for play in pending]).update(server_notice=False)
    return len(pending)


@receiver(user_logged_in)
def notify_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "_messages"):
        deliver_server_notices(request, user)
