from __future__ import annotations

import csv
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from baccarat.errors import RoundError
from baccarat.integrity import reversals
from baccarat.models import ChatMessage, ChatMute, Round
from baccarat.protocol.exports import csv_safe, euros
from casino.accounts.models import User
from casino.support import moderation, selectors, tickets, voids
from casino.support.access import support_required
from casino.support.forms import (
    ModerationForm,
    MuteLiftForm,
    RoundSearchForm,
    TicketAnswerForm,
    TicketCloseForm,
    TicketQueueForm,
    VoidForm,
)
from casino.support.models import StaffAction, Ticket
from wallet import protection

PAGE_SIZE = 50


@support_required
@require_GET
def search(request: HttpRequest) -> HttpResponse:
    form = RoundSearchForm(request.GET or None)
    plays = None
    recorded: dict[str, Any] = {}
    if form.is_valid():
        filters = {
            key: value for key, value in form.cleaned_data.items() if value not in (None, "")
        }
        plays = selectors.round_search(**filters)
        recorded = {key: getattr(value, "pk", None) or str(value) for key, value in filters.items()}
        if request.GET.get("export") == "csv":
            StaffAction.objects.create(
                actor=request.user,  # type: ignore[misc]
                kind=StaffAction.Kind.ROUNDS_EXPORTED,
                details={"filters": recorded},
            )
            return _csv(plays)
    page = (
        Paginator(plays, PAGE_SIZE).get_page(request.GET.get("page")) if plays is not None else None
    )
    if page is not None and form.cleaned_data.get("player"):
        # A player's rounds listed are their protocol read by staff: on the record.
        StaffAction.objects.create(
            actor=request.user,  # type: ignore[misc]
            kind=StaffAction.Kind.PROTOCOL_VIEWED,
            subject=User.objects.filter(username__iexact=form.cleaned_data["player"]).first(),
            details={"filters": recorded, "page": page.number},
        )
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode()}
    template = "support/search.html#results" if request.htmx else "support/search.html"
    return render(request, template, context)


class _Echo:
    def write(self, value: str) -> str:
        return value


def _csv(plays: Any) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    header = [
        _("Round"),
        _("Date"),
        _("Table"),
        _("Player"),
        _("Shoe"),
        pgettext("hand number", "Hand"),
        _("Player cards"),
        _("Banker cards"),
        _("Outcome"),
        _("Stake"),
        _("Paid"),
        _("Net"),
        _("Status"),
    ]

    def rows() -> Any:
        yield writer.writerow(header)
        for play in plays.iterator(chunk_size=2000):
            round = play.round
            # A round not settled (in play, void, closed) has no result: no net.
            settled = round.state == Round.State.SETTLED
            yield writer.writerow(
                [
                    round.pk,
                    timezone.localtime(play.created_at).isoformat(timespec="seconds"),
                    csv_safe(round.table.name),
                    csv_safe(play.player.username),
                    round.shoe_id or "",
                    round.hand_number,
                    csv_safe(round.player_cards),
                    csv_safe(round.banker_cards),
                    csv_safe(round.get_outcome_display()),
                    _cents(play.stake_total),
                    _cents(play.payout_total),
                    _cents(play.payout_total - play.stake_total) if settled else "",
                    csv_safe(round.get_completion_display() or round.get_state_display()),
                ]
            )

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="rounds.csv"'
    return response


def _cents(cents: int) -> str:
    return euros(cents)  # a number: never passed through csv_safe


def _voidable(round: Round) -> bool:
    """Not final, or settled (a malfunction voids all pays and plays)."""
    return round.state in (Round.State.BETTING, Round.State.LOCKED, Round.State.SETTLED)


@support_required
@require_GET
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    try:
        story = selectors.round_story(round_id=round_id)
    except Round.DoesNotExist:
        raise Http404 from None
    round = story["round"]
    # Reading a player's round is on the record, as looking at the player is.
    players = sorted({play.player_id for play in story["plays"]})
    StaffAction.objects.create(
        actor=request.user,  # type: ignore[misc]
        kind=StaffAction.Kind.ROUND_VIEWED,
        subject_id=players[0] if len(players) == 1 else None,
        details={"round": round.pk, "table": round.table_id, "players": players},
    )
    story["voidable"] = _voidable(round)
    story["void_form"] = VoidForm(round=round) if story["voidable"] else None
    return render(request, "support/round.html", story)


@support_required
@require_http_methods(["POST"])
def round_void(request: HttpRequest, round_id: int) -> HttpResponse:
    """Void in two steps without JavaScript: the form (cause and what happened) leads to
    a confirmation showing what will be refunded and taken back from whom; only its
    button (``confirm``) voids."""
    round = get_object_or_404(Round.objects.select_related("table"), pk=round_id)
    form = VoidForm(request.POST, round=round)
    if form.is_valid() and not form.cleaned_data["confirm"]:
        if _voidable(round):
            context = {
                "round": round,
                "form": form,
                "cause_label": Round.VoidCause(form.cleaned_data["cause"]).label,
                "preview": reversals.reversal_preview(round=round),
                "settled": round.state == Round.State.SETTLED,
            }
            return render(request, "support/void_confirm.html", context)
        form.add_error(None, RoundError("round_final").message)
    elif form.is_valid():
        data = form.cleaned_data
        try:
            action = voids.round_void_by_staff(
                round_id=round.pk,
                cause=data["cause"],
                reason=data["reason"],
                by=request.user,  # type: ignore[arg-type]
            )
        except RoundError as error:
            form.add_error(None, error.message)
        else:
            if action is None:  # a double click, or a colleague was quicker
                messages.info(request, _("This round was void already; nothing changed."))
            else:
                messages.success(request, _("The round is void; what was reversed is below."))
            return redirect("support:round", round_id=round.pk)
    story = selectors.round_story(round_id=round.pk)
    story["voidable"] = _voidable(story["round"])
    story["void_form"] = form
    return render(request, "support/round.html", story, status=400)


@support_required
@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(User, pk=player_id)
    # Looking at a player's money and history is itself on the record.
    StaffAction.objects.create(
        actor=request.user,  # type: ignore[misc]
        kind=StaffAction.Kind.PLAYER_VIEWED,
        subject=player,
    )
    context = {
        "player": player,
        **selectors.player_story(player=player),
        # Responsible play: what support sees and cannot change (wallet/protection.py).
        "play_break": protection.active_break(player=player),
        "play_limits": protection.limits_status(player=player),
    }
    return render(request, "support/player.html", context)


@support_required
@require_GET
def chat_queue(request: HttpRequest) -> HttpResponse:
    """Reported chat messages waiting for a decision, the longest-waiting first."""
    page = Paginator(moderation.report_queue(), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "support/chat_queue.html", {"page": page})


@support_required
@require_http_methods(["GET", "POST"])
def chat_case(request: HttpRequest, message_id: int) -> HttpResponse:
    """One reported message in its context, and the decision on it."""
    try:
        case = moderation.report_case(message_id=message_id)
    except ChatMessage.DoesNotExist:
        raise Http404 from None
    form = ModerationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            moderation.report_decide(
                message_id=message_id,
                action=data["action"],
                by=request.user,  # type: ignore[arg-type]
                reason=data["reason"],
                everywhere=data["everywhere"],
                minutes=data["minutes"] or 0,
            )
        except moderation.AlreadyHandled:
            messages.info(request, _("These reports were handled already; nothing changed."))
        else:
            messages.success(request, _("Done: the decision is recorded."))
        return redirect("support:chat_queue")
    status = 400 if request.method == "POST" else 200
    return _case_page(request, case, form=form, status=status)


def _case_page(
    request: HttpRequest,
    case: moderation.ReportCase,
    *,
    form: ModerationForm,
    status: int,
    lift_form: MuteLiftForm | None = None,
    lift_mute: int | None = None,
) -> HttpResponse:
    context = {
        "case": case,
        "form": form,
        "open": any(r.state == "open" for r in case.reports),
        "now": timezone.now(),
        "lift_form": lift_form or MuteLiftForm(),
        "lift_mute": lift_mute,  # the mute whose lift form has errors
    }
    return render(request, "support/chat_case.html", context, status=status)


@support_required
@require_POST
def mute_lift(request: HttpRequest, message_id: int, mute_id: int) -> HttpResponse:
    """End one of the writer's mutes now, with a reason; back to the case."""
    form = MuteLiftForm(request.POST)
    if not form.is_valid():
        try:
            case = moderation.report_case(message_id=message_id)
        except ChatMessage.DoesNotExist:
            raise Http404 from None
        return _case_page(
            request, case, form=ModerationForm(), status=400, lift_form=form, lift_mute=mute_id
        )
    try:
        moderation.mute_lift(
            message_id=message_id,
            mute_id=mute_id,
            by=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
        )
    except (ChatMessage.DoesNotExist, ChatMute.DoesNotExist):
        raise Http404 from None
    except moderation.AlreadyHandled:
        messages.info(request, _("That mute had ended already; nothing changed."))
    else:
        messages.success(request, _("The mute is lifted: the player may write again."))
    return redirect("support:chat_case", message_id=message_id)


@support_required
@require_GET
def ticket_queue(request: HttpRequest) -> HttpResponse:
    """Players' requests: those waiting for an answer first, the longest-waiting first."""
    form = TicketQueueForm(request.GET or None)
    closed = form.is_valid() and form.cleaned_data["show"] == "closed"
    page = Paginator(tickets.ticket_queue(closed=closed), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = "show=closed" if closed else ""  # kept on the pages' links
    context = {"form": form, "page": page, "closed": closed, "query": query}
    return render(request, "support/ticket_queue.html", context)


@support_required
@require_http_methods(["GET", "POST"])
def ticket_detail(request: HttpRequest, ticket_id: int) -> HttpResponse:
    """One request with its round: answer it (the player is told), or close it."""
    ticket = get_object_or_404(
        Ticket.objects.select_related("player", "round__table", "answered_by"), pk=ticket_id
    )
    answer_form = TicketAnswerForm(prefix="answer")
    close_form = TicketCloseForm(prefix="close")
    user: User = request.user  # type: ignore[assignment]
    if request.method == "POST" and "close-submit" in request.POST:
        close_form = TicketCloseForm(request.POST, prefix="close")
        if close_form.is_valid():
            note = close_form.cleaned_data["note"]
            return _ticket_step(
                request,
                ticket,
                lambda: tickets.ticket_close(ticket_id=ticket.pk, by=user, reason=note),
                _("The request is closed."),
            )
    elif request.method == "POST":
        answer_form = TicketAnswerForm(request.POST, prefix="answer")
        if answer_form.is_valid():
            data = answer_form.cleaned_data
            return _ticket_step(
                request,
                ticket,
                lambda: tickets.ticket_answer(
                    ticket_id=ticket.pk, by=user, answer=data["answer"], close=data["close"]
                ),
                _("Your answer was sent."),
            )
    context = {
        "ticket": ticket,
        "answer_form": answer_form,
        "close_form": close_form,
        "actions": tickets.ticket_actions(ticket=ticket),
        "play": ticket.round.plays.filter(player=ticket.player_id).first(),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "support/ticket.html", context, status=status)


def _ticket_step(
    request: HttpRequest, ticket: Ticket, step: Callable[[], object], done: str
) -> HttpResponse:
    """Run a staff step on a request; one a colleague took first changes nothing."""
    try:
        step()
    except tickets.TicketError as error:
        messages.info(request, error.message)
    else:
        messages.success(request, done)
    return redirect("support:ticket", ticket_id=ticket.pk)
