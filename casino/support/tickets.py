"""Players' requests for help about a round, and support's answers (seed 002 promises a
customer service around the clock).

A player opens a request from a round of their protocol; support reads it in a queue
(waiting first, the longest-waiting first), answers it and closes it. Each step is one
transaction under a row lock: the player's row for a new request (so a double submit or
a burst makes one request, or none beyond the hourly limit), the request's row for an
answer or a close (so two members of staff, or a double click, act once). Every answer
and every close is a :class:`~casino.support.models.StaffAction`; the player hears
about an answer by a notice (:func:`ticket_notices`, registered with
:mod:`baccarat.protocol.notices`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Case, Exists, IntegerField, QuerySet, Value, When
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from baccarat.models import Play
from casino.accounts.models import User
from casino.support.models import StaffAction, Ticket

MAX_MESSAGE = 2000
MAX_ANSWER = 4000
# New requests a player may send per hour, across all their rounds.
HOURLY_LIMIT = 5


class TicketError(Exception):
    """A refused request or answer; ``message`` is translated and safe to show."""

    messages: dict[str, Any] = {
        "open_already": gettext_lazy(
            "You already have an open request about this round. Support will answer it; "
            "you can find it under My requests."
        ),
        "too_many": gettext_lazy(
            "You have sent several requests in the last hour. Please wait for an answer "
            "before sending another."
        ),
        "not_your_round": gettext_lazy("This round is not in your protocol."),
        "answered": gettext_lazy("This request was answered already."),
        "closed": gettext_lazy("This request is closed already."),
    }

    def __init__(self, code: str) -> None:
        self.code = code
        self.message = self.messages[code]
        super().__init__(code)


# The player's side ------------------------------------------------------------------


def ticket_open(*, player: User, round_id: int, subject: str, message: str) -> Ticket:
    """Open a request about one of the player's rounds (one with a stake, as in their
    protocol). Refused when a request about the round is still open, or when the player
    sent :data:`HOURLY_LIMIT` requests in the last hour."""
    with transaction.atomic():
        # The player's row orders their requests: the checks below see every one before.
        User.objects.select_for_update().filter(pk=player.pk).first()
        if not Play.objects.filter(player=player, round_id=round_id, stake_total__gt=0).exists():
            raise TicketError("not_your_round")
        mine = Ticket.objects.filter(player=player)
        if mine.filter(round_id=round_id).exclude(state=Ticket.State.CLOSED).exists():
            raise TicketError("open_already")
        since = timezone.now() - timedelta(hours=1)
        if mine.filter(created_at__gte=since).count() >= HOURLY_LIMIT:
            raise TicketError("too_many")
        try:
            with transaction.atomic():
                return Ticket.objects.create(
                    player=player, round_id=round_id, subject=subject, message=message
                )
        except IntegrityError:  # the constraint, should a request slip past the lock
            raise TicketError("open_already") from None


def player_tickets(*, player: User) -> QuerySet[Ticket]:
    """The player's requests, newest first."""
    return (
        Ticket.objects.filter(player=player)
        .select_related("round__table")
        .order_by("-created_at", "-pk")
    )


def player_ticket(*, player: User, ticket_id: int) -> Ticket | None:
    """One of the player's own requests (``None`` for anyone else's), marked read."""
    ticket = player_tickets(player=player).filter(pk=ticket_id).first()
    if ticket is not None and ticket.answer_unread:
        Ticket.objects.filter(pk=ticket.pk).update(answer_unread=False)
    return ticket


def open_ticket_for(*, player: User, round_id: int) -> Ticket | None:
    """The player's request about this round that is not closed yet, if any."""
    return (
        Ticket.objects.filter(player=player, round_id=round_id)
        .exclude(state=Ticket.State.CLOSED)
        .first()
    )


def ticket_notices_waiting(player_id: int) -> Exists:
    """Whether an answer waits unread for the player (one ``EXISTS`` in the notices' query)."""
    return Exists(Ticket.objects.filter(player=player_id, answer_unread=True))


def ticket_notices(user: Any) -> list[SafeString]:
    """One notice per answered request the player has not read yet; each is given once."""
    tickets = list(
        Ticket.objects.filter(player=user, answer_unread=True).order_by("answered_at", "pk")[:20]
    )
    notices = [
        format_html(
            '{} <a href="{}">{}</a>',
            _("Support answered your request about round #%(round)s.") % {"round": t.round_id},
            reverse("help:ticket", args=[t.pk]),
            _("Read the answer"),
        )
        for t in tickets
    ]
    if tickets:
        Ticket.objects.filter(pk__in=[t.pk for t in tickets]).update(answer_unread=False)
    return notices


# Support's side ---------------------------------------------------------------------


def ticket_queue(*, closed: bool = False) -> QuerySet[Ticket]:
    """Requests not closed: those waiting for support first, then the answered ones,
    each the longest-waiting first. ``closed``: the closed ones, newest first."""
    tickets = Ticket.objects.select_related("player", "round__table")
    if closed:
        return tickets.filter(state=Ticket.State.CLOSED).order_by("-closed_at", "-pk")
    waiting_first = Case(
        When(state=Ticket.State.OPEN, then=Value(0)), default=Value(1), output_field=IntegerField()
    )
    return (
        tickets.exclude(state=Ticket.State.CLOSED)
        .annotate(waiting=waiting_first)
        .order_by("waiting", "created_at", "pk")
    )


def _details(ticket: Ticket, **more: Any) -> dict[str, Any]:
    return {"ticket": ticket.pk, "round": ticket.round_id, "subject": ticket.subject, **more}


def _close(ticket: Ticket, *, by: User, reason: str) -> StaffAction:
    ticket.state = Ticket.State.CLOSED
    ticket.closed_at = timezone.now()
    ticket.save(update_fields=["state", "closed_at"])
    return StaffAction.objects.create(
        actor=by,
        kind=StaffAction.Kind.TICKET_CLOSED,
        subject=ticket.player,
        reason=reason,
        details=_details(ticket),
    )


def ticket_answer(*, ticket_id: int, by: User, answer: str, close: bool = False) -> StaffAction:
    """Answer a request (once): the player reads it in their requests and gets a notice.
    ``close`` closes it with the answer. Raises :class:`TicketError` when it was answered
    or closed meanwhile."""
    with transaction.atomic():
        ticket = Ticket.objects.select_for_update().get(pk=ticket_id)
        if ticket.state == Ticket.State.CLOSED:
            raise TicketError("closed")
        if ticket.state == Ticket.State.ANSWERED:
            raise TicketError("answered")
        ticket.answer = answer
        ticket.answered_by = by
        ticket.answered_at = timezone.now()
        ticket.state = Ticket.State.ANSWERED
        ticket.answer_unread = True
        ticket.save(
            update_fields=["answer", "answered_by", "answered_at", "state", "answer_unread"]
        )
        action = StaffAction.objects.create(
            actor=by,
            kind=StaffAction.Kind.TICKET_ANSWERED,
            subject=ticket.player,
            reason=answer,
            details=_details(ticket, answer=answer),
        )
        if close:
            _close(ticket, by=by, reason="")
    return action


def ticket_close(*, ticket_id: int, by: User, reason: str = "") -> StaffAction:
    """Close a request, answered or not (``reason`` stays with staff). Raises
    :class:`TicketError` when it is closed already."""
    with transaction.atomic():
        ticket = Ticket.objects.select_for_update().get(pk=ticket_id)
        if ticket.state == Ticket.State.CLOSED:
            raise TicketError("closed")
        return _close(ticket, by=by, reason=reason)


def ticket_actions(*, ticket: Ticket) -> QuerySet[StaffAction]:
    return (
        StaffAction.objects.filter(details__ticket=ticket.pk)
        .select_related("actor")
        .order_by("created_at", "pk")
    )
