"""The single-player table, practice sessions and the protocol (game recall).

Each table action is a POST that answers with the ``board`` partial for HTMX and a
redirect (or the full page with its errors) without JavaScript.
"""

from __future__ import annotations

import csv
import secrets
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from baccarat import betting, engine, fairness, rounds, selectors, stacks
from baccarat.errors import RoundError
from baccarat.forms import (
    BetForm,
    DealForm,
    EmptyForm,
    PracticeForm,
    ProtocolFilterForm,
    RebuyForm,
    add_domain_error,
)
from baccarat.models import Bet, Play, PracticeSession, Round, Shoe, Table
from baccarat.notices import deliver_server_notices
from baccarat.practice import practice_start
from baccarat.rule_sets import chip_unit
from wallet.errors import WalletError

APP_VERSION = "0.1.0"  # keep equal to [project] version in pyproject.toml
PROTOCOL_PAGE_SIZE = 25
DOMAIN_ERRORS = (engine.EngineError, RoundError, WalletError)


def _render_table(
    request: HttpRequest,
    table: Table,
    *,
    form: Any = None,
    rebuy_form: RebuyForm | None = None,
    just_dealt: bool = False,
    notices: list[str] | None = None,
    settled: Play | None = None,
) -> HttpResponse:
    state = selectors.table_state(table=table, player=request.user, settled=settled)  # type: ignore[arg-type]
    practice = selectors.practice_of(table)
    if practice is not None:
        # Cached on the table since before the action: a deal counts hands and may end it.
        practice.refresh_from_db()
    context = {
        "table": table,
        "state": state,
        "practice": practice,
        "form": form,
        "rebuy_form": rebuy_form or RebuyForm(initial={"token": secrets.token_hex(8)}),
        "spots": [(kind, label) for kind, label in Bet.Kind.choices if kind in table.limits()],
        "just_dealt": just_dealt,
        "last_hands": selectors.hand_cards(state.last.round) if state.last else None,
        "chip_unit": chip_unit(table),
        "notices": notices or [],
        "version": APP_VERSION,
    }
    template = "baccarat/table.html#board" if request.htmx else "baccarat/table.html"  # type: ignore[attr-defined]
    return render(request, template, context)


def _after_action(request: HttpRequest, table: Table, form: Any, **kwargs: Any) -> HttpResponse:
    if form.errors or request.htmx:  # type: ignore[attr-defined]
        return _render_table(request, table, form=form, **kwargs)
    return redirect("baccarat:table", slug=table.slug)


@login_required
@require_GET
def table_view(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    deliver_server_notices(request)
    return _render_table(request, table)


@login_required
@require_POST
def table_bet(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = BetForm(request.POST, table=table)
    if form.is_valid():
        try:
            round = betting.round_open(table=table, player=request.user)  # type: ignore[arg-type]
            if form.cleaned_data["take_back"]:
                betting.bet_remove(
                    round=round,
                    player=request.user,  # type: ignore[arg-type]
                    kind=form.cleaned_data["spot"],
                    amount=form.cleaned_data["amount"],
                )
            else:
                betting.bet_place(
                    round=round,
                    player=request.user,  # type: ignore[arg-type]
                    kind=form.cleaned_data["spot"],
                    amount=form.cleaned_data["amount"],
                )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _after_action(request, table, form)


def _betting_action(request: HttpRequest, slug: str, action: Any) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = EmptyForm(request.POST)
    if form.is_valid():
        try:
            round = betting.round_open(table=table, player=request.user)  # type: ignore[arg-type]
            action(round=round, player=request.user)
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _after_action(request, table, form)


@login_required
@require_POST
def table_clear(request: HttpRequest, slug: str) -> HttpResponse:
    return _betting_action(request, slug, betting.bets_clear)


@login_required
@require_POST
def table_rebet(request: HttpRequest, slug: str) -> HttpResponse:
    return _betting_action(request, slug, betting.bets_rebet)


@login_required
@require_POST
def table_deal(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = DealForm(request.POST)
    notices: list[str] = []
    settled: Play | None = None
    if form.is_valid():
        mine = Round.objects.filter(table=table, plays__player=request.user)
        round_id = form.cleaned_data["round"]
        try:
            if round_id is None:
                round = mine.filter(state=Round.State.BETTING).order_by("-pk").first()
            else:
                round = mine.filter(pk=round_id).first()
                if round is None:
                    raise RoundError("round_unknown")
            if round is None:
                raise engine.NoBet()
            if round.state != Round.State.SETTLED:  # a double DEAL shows the same round
                result = rounds.round_play(round_id=round.pk)
                # Render the result from the plays the settle loaded, not read again.
                settled = next(
                    (
                        play
                        for play in getattr(result.round, "settled_plays", [])
                        if play.player_id == request.user.pk
                    ),
                    None,
                )
                if result.raised:
                    notices.append(_("Stakes below the table minimum were raised to it."))
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    if not form.errors and not request.htmx:  # type: ignore[attr-defined]
        return redirect("baccarat:table", slug=table.slug)
    return _render_table(
        request,
        table,
        form=form,
        just_dealt=not form.errors,
        notices=notices,
        settled=settled if not form.errors else None,
    )


@login_required
@require_POST
def table_rebuy(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = RebuyForm(request.POST)
    if form.is_valid():
        try:
            stacks.table_rebuy(
                player=request.user,  # type: ignore[arg-type]
                table=table,
                amount=form.cleaned_data["amount"],
                reference=f"rebuy:{table.pk}:{request.user.pk}:{form.cleaned_data['token']}",
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    if form.errors:
        return _render_table(request, table, rebuy_form=form)
    return _after_action(request, table, form)


@login_required
@require_POST
def table_exit(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = EmptyForm(request.POST)
    if form.is_valid():
        try:
            stacks.table_exit(player=request.user, table=table)  # type: ignore[arg-type]
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    if form.errors:
        return _render_table(request, table, form=form)
    practice = selectors.practice_of(table)
    target = (
        reverse("baccarat:practice_summary", args=[practice.pk])
        if practice is not None
        else reverse("lobby")
    )
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponseClientRedirect(target)
    return redirect(target)


# Practice ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def practice_new(request: HttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        session = practice_start(player=request.user, **form.cleaned_data)  # type: ignore[arg-type]
        return redirect("baccarat:table", slug=session.table.slug)
    sessions = PracticeSession.objects.filter(player=request.user).order_by("-pk")[:10]
    return render(request, "baccarat/practice_new.html", {"form": form, "sessions": sessions})


@login_required
@require_GET
def practice_summary(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(
        PracticeSession.objects.select_related("table"), pk=pk, player=request.user
    )
    return render(request, "baccarat/practice_summary.html", {"session": session})


# Protocol ---------------------------------------------------------------------------


def _filtered_plays(request: HttpRequest) -> tuple[ProtocolFilterForm, Any]:
    form = ProtocolFilterForm(request.GET or None, player=request.user)
    filters: dict[str, Any] = {}
    if form.is_valid():
        filters = {k: v for k, v in form.cleaned_data.items() if v}
    return form, selectors.protocol_plays(player=request.user, **filters)  # type: ignore[arg-type]


@login_required
@require_GET
def protocol_list(request: HttpRequest) -> HttpResponse:
    form, plays = _filtered_plays(request)
    page = Paginator(plays, PROTOCOL_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    template = (
        "baccarat/protocol_list.html#results" if request.htmx else "baccarat/protocol_list.html"
    )  # type: ignore[attr-defined]
    return render(request, template, {"form": form, "page": page, "query": query.urlencode()})


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
            "hands": selectors.hand_cards(play.round) if play.round.dealt_at else None,
        },
    )


@login_required
@require_GET
def protocol_export(request: HttpRequest) -> HttpResponse:
    _form, plays = _filtered_plays(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="protocol.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [
            _("Round"),
            _("Date"),
            _("Table"),
            _("Shoe"),
            _("Hand"),
            _("Player cards"),
            _("Banker cards"),
            _("Player total"),
            _("Banker total"),
            _("Outcome"),
            _("Bets"),
            _("Stake"),
            _("Paid"),
            _("Commission"),
            _("Net"),
            _("Balance before"),
            _("Balance after"),
            _("Status"),
        ]
    )
    for play in plays.iterator(chunk_size=500):
        round = play.round
        bets = " ".join(f"{bet.kind}={bet.stake}/{bet.payout}" for bet in play.bets.all())
        writer.writerow(
            [
                round.pk,
                round.created_at.isoformat(),
                round.table.name,
                round.shoe.number if round.shoe else "",
                round.hand_number,
                round.player_cards,
                round.banker_cards,
                "" if round.player_total is None else round.player_total,
                "" if round.banker_total is None else round.banker_total,
                round.outcome,
                bets,
                play.stake_total,
                play.payout_total,
                play.commission_total,
                play.net if round.state == Round.State.SETTLED else 0,
                "" if play.balance_before is None else play.balance_before,
                "" if play.balance_after is None else play.balance_after,
                round.completion or round.state,
            ]
        )
    return response


# Provably fair shoes ----------------------------------------------------------------


@require_GET
def shoe_verify(request: HttpRequest, shoe_id: int) -> HttpResponse:
    """Public: a shoe's commitment, and once it has ended its order and every round dealt
    from it, re-derived and checked. Nothing of a shoe still in play is shown."""
    shoe = get_object_or_404(Shoe.objects.select_related("table"), pk=shoe_id)
    report = fairness.shoe_verification(shoe)
    return render(request, "baccarat/shoe_verify.html", {"shoe": shoe, "report": report})
