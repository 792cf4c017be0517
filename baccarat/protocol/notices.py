"""Tell a player about rounds the server completed or voided while they were away.

Other rooms with something to tell a player (the support area: an answer to their
request) register a :class:`NoticeSource`; one query asks every source at once whether
anything waits, so a page with nothing to tell costs one query, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db.models import Exists
from django.dispatch import receiver
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from baccarat.board.selectors import table_name
from baccarat.models import Play, Reversal, Round
from wallet.formatting import format_money


def notice_text(play: Play) -> str:
    """What a player is told about a round finished without them, in the active language."""
    round = play.round
    values = {"round": round.pk, "table": table_name(round.table)}
    if round.state == Round.State.VOID and round.settled_at is not None:
        return _reversal_text(play, values)
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


def _reversal_text(play: Play, values: dict[str, Any]) -> str:
    """A settled round voided for a malfunction: what came back and what was taken."""
    try:
        reversal = play.reversal
    except Reversal.DoesNotExist:
        reversal = Reversal(stake_refunded=play.stake_total)
    values["stake"] = format_money(reversal.stake_refunded)
    values["payout"] = format_money(reversal.payout_paid)
    if not reversal.payout_paid:
        return (
            _(
                "Your round #%(round)s at %(table)s was voided because of a malfunction: "
                "your stake of %(stake)s was returned."
            )
            % values
        )
    text = (
        _(
            "Your round #%(round)s at %(table)s was voided because of a malfunction: your "
            "stake of %(stake)s was returned and the payout of %(payout)s taken back."
        )
        % values
    )
    if reversal.written_off:
        kept = _("%(amount)s of the payout could no longer be taken back: it stays yours.") % {
            "amount": format_money(reversal.written_off)
        }
        text = f"{text} {kept}"
    return text


@dataclass(frozen=True)
class NoticeSource:
    """Notices another room keeps for a player.

    ``waiting`` gives, for a player's id, an ``Exists`` saying whether any notice waits;
    ``take`` returns them as HTML in the active language and marks them told.
    """

    waiting: Callable[[int], Exists]
    take: Callable[[Any], list[SafeString]]


_sources: dict[str, NoticeSource] = {}


def notice_source_register(name: str, source: NoticeSource) -> None:
    """Add (or replace) the notices of another room, from its ``AppConfig.ready``."""
    _sources[name] = source


def _round_notices(user: Any) -> list[SafeString]:
    pending = list(
        Play.objects.filter(player=user, server_notice=True)
        .select_related("round__table", "reversal")
        .order_by("created_at")[:20]
    )
    notices = []
    for play in pending:
        link = format_html(
            '<a href="{}">{}</a>',
            reverse("baccarat:protocol_detail", args=[play.round_id]),
            _("See the round"),
        )
        notices.append(format_html("{} {}", notice_text(play), link))
    if pending:
        Play.objects.filter(pk__in=[play.pk for play in pending]).update(server_notice=False)
    return notices


def server_notices(user: Any) -> list[SafeString]:
    """Every notice waiting for ``user``, as HTML in their own language; each is given
    once. One query when nothing waits."""
    if not user.is_authenticated:
        return []
    checks = {
        "notice_rounds": Exists(Play.objects.filter(player=user.pk, server_notice=True)),
        **{f"notice_{name}": source.waiting(user.pk) for name, source in _sources.items()},
    }
    waiting = get_user_model().objects.filter(pk=user.pk).values(**checks).first() or {}
    notices: list[SafeString] = []
    with translation.override(getattr(user, "language", "") or translation.get_language()):
        if waiting.get("notice_rounds"):
            notices += _round_notices(user)
        for name, source in _sources.items():
            if waiting.get(f"notice_{name}"):
                notices += source.take(user)
    return notices


def deliver_server_notices(request: HttpRequest, user: Any = None) -> int:
    """Add one message per notice waiting for the player (rounds the server completed or
    voided, and what other rooms registered); each is shown once, in the player's own
    language."""
    notices = server_notices(user or request.user)
    for notice in notices:
        messages.info(request, notice)
    return len(notices)


@receiver(user_logged_in)
def notify_on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "_messages"):
        deliver_server_notices(request, user)
