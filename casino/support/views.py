from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods

from baccarat.errors import RoundError
from baccarat.exports import csv_safe, euros
from baccarat.models import ChatMessage, Round
from baccarat.rounds import round_void as void_service
from casino.accounts.models import User
from casino.support import moderation, selectors
from casino.support.access import support_required
from casino.support.forms import ModerationForm, RoundSearchForm, VoidForm

PAGE_SIZE = 50


@support_required
@require_GET
def search(request: HttpRequest) -> HttpResponse:
    form = RoundSearchForm(request.GET or None)
    plays = None
    if form.is_valid():
        filters = {
            key: value for key, value in form.cleaned_data.items() if value not in (None, "")
        }
        plays = selectors.round_search(**filters)
        if request.GET.get("export") == "csv":
            return _csv(plays)
    page = (
        Paginator(plays, PAGE_SIZE).get_page(request.GET.get("page")) if plays is not None else None
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
                    _cents(play.payout_total - play.stake_total),
                    csv_safe(round.get_completion_display() or round.get_state_display()),
                ]
            )

    response = StreamingHttpResponse(rows(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="rounds.csv"'
    return response


def _cents(cents: int) -> str:
    return euros(cents)  # a number: never passed through csv_safe


@support_required
@require_GET
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    try:
        story = selectors.round_story(round_id=round_id)
    except Round.DoesNotExist:
        raise Http404 from None
    story["void_form"] = VoidForm()
    return render(request, "support/round.html", story)


@support_required
@require_http_methods(["POST"])
def round_void(request: HttpRequest, round_id: int) -> HttpResponse:
    round = get_object_or_404(Round, pk=round_id)
    form = VoidForm(request.POST)
    if form.is_valid():
        try:
            void_service(round_id=round.pk, reason=form.cleaned_data["reason"], by=request.user)
        except RoundError:
            form.add_error(None, _("A settled round cannot be voided."))
        else:
            messages.success(request, _("The round is void and every stake was returned."))
            return redirect("support:round", round_id=round.pk)
    story = selectors.round_story(round_id=round.pk)
    story["void_form"] = form
    return render(request, "support/round.html", story, status=400)


@support_required
@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(User, pk=player_id)
    context = {"player": player, **selectors.player_story(player=player)}
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
    context = {"case": case, "form": form, "open": any(r.state == "open" for r in case.reports)}
    return render(request, "support/chat_case.html", context, status=status)
