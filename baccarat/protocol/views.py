"""The protocol (game recall): a player's rounds as a list, one round's page, and the
CSV export."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from baccarat.board.selectors import deal_view, table_name
from baccarat.models import Reversal, Round
from baccarat.protocol import exports, selectors
from baccarat.protocol.forms import ProtocolFilterForm
from baccarat.protocol.replay import is_replayable, round_replay
from baccarat.protocol.statistics_form import StatisticsFilterForm
from baccarat.protocol.statistics_page import statistics_page

PROTOCOL_PAGE_SIZE = 25


def _filtered_plays(request: HttpRequest, *, bets: bool) -> tuple[ProtocolFilterForm, Any]:
    form = ProtocolFilterForm(request.GET or None, player=request.user)
    filters: dict[str, Any] = {}
    if form.is_valid():
        filters = {k: v for k, v in form.cleaned_data.items() if v}
    plays = selectors.protocol_plays(player=request.user, bets=bets, **filters)  # type: ignore[arg-type]
    return form, plays


def _list_page(request: HttpRequest, form: ProtocolFilterForm, plays: Any, **kwargs: Any) -> Any:
    page = Paginator(plays, PROTOCOL_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    template = (
        "baccarat/protocol_list.html#results" if request.htmx else "baccarat/protocol_list.html"
    )  # type: ignore[attr-defined]
    delimiter, _decimal = exports.csv_separators()
    context = {
        "form": form,
        "page": page,
        "rows": selectors.protocol_rows(page),
        "query": query.urlencode(),
        "csv_semicolons": delimiter == ";",
    }
    return render(request, template, context, **kwargs)


@login_required
@require_GET
def protocol_list(request: HttpRequest) -> HttpResponse:
    form, plays = _filtered_plays(request, bets=False)
    return _list_page(request, form, plays)


@login_required
@require_GET
def protocol_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    play = selectors.protocol_play(player=request.user, round_id=round_id)  # type: ignore[arg-type]
    return render(
        request,
        "baccarat/protocol_detail.html",
        {
            "play": play,
            "round": play.round,
            "bets": selectors.play_lines(play),
            "deal": deal_view(play.round) if play.round.dealt_at else None,
            # What the void gave back and took (a round voided before its settlement too).
            "reversal": (
                Reversal.objects.filter(play=play).first()
                if play.round.state == Round.State.VOID
                else None
            ),
        },
    )


@login_required
@require_GET
def protocol_replay(request: HttpRequest, round_id: int) -> HttpResponse:
    """One of the player's rounds dealt again as it was dealt. A round that has no replay
    (still being dealt, or void) says why, as a 404: there is nothing to play."""
    play = selectors.protocol_play(player=request.user, round_id=round_id)  # type: ignore[arg-type]
    if not is_replayable(play.round):
        return render(
            request,
            "baccarat/protocol_replay.html",
            {"play": play, "round": play.round, "table_name": table_name(play.round.table)},
            status=404,
        )
    replay = round_replay(play)
    return render(
        request,
        "baccarat/protocol_replay.html",
        {
            "play": play,
            "round": play.round,
            "replay": replay,
            # The table's board parts read these names.
            "deal": replay.deal,
            "last_round": play.round,
            "spots": replay.spots,
            "table": play.round.table,
            "table_name": table_name(play.round.table),
        },
    )


@login_required
@require_GET
def protocol_export(request: HttpRequest) -> HttpResponse:
    form, plays = _filtered_plays(request, bets=True)
    if form.is_bound and not form.is_valid():
        # A filter that cannot be read exports nothing: the list says why.
        return _list_page(request, form, plays.none(), status=400)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="protocol.csv"'
    exports.protocol_csv_write(plays=plays, out=response)
    return response


@login_required
@require_GET
def protocol_statistics(request: HttpRequest) -> HttpResponse:
    """The player's own statistics: balance over time, result by bet beside the exact
    odds' expectation, rounds and time per day. A filter that cannot be read shows
    everything, with its errors."""
    form = StatisticsFilterForm(request.GET or None, player=request.user)
    page = statistics_page(form.scope())
    return render(request, "baccarat/protocol_statistics.html", {"form": form, "page": page})
