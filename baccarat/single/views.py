"""A table's page and its actions: the single-seat table and practice sessions here; a
full table's page and bets are handed to :mod:`baccarat.full.views` (one URL for both).

Each table action is a POST that answers with the ``board`` partial for HTMX and a
redirect (or the full page with its errors) without JavaScript.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from baccarat import engine
from baccarat.board import selectors, statistics
from baccarat.board.fragments import render_fragment
from baccarat.errors import RoundError
from baccarat.forms import (
    LAYOUT_REFUSALS,
    BetForm,
    DealForm,
    EmptyForm,
    ExitForm,
    PracticeForm,
    PressForm,
    RealityCheckForm,
    RebuyForm,
    add_domain_error,
)
from baccarat.full import views as full_views
from baccarat.models import Play, PracticeSession, Table
from baccarat.play import betting, rounds, stacks
from baccarat.play.practice import practice_start
from baccarat.protocol.notices import deliver_server_notices, server_notices
from baccarat.rules.rule_sets import chip_unit
from wallet import protection
from wallet.errors import WalletError
from wallet.formatting import format_money, money_format

APP_VERSION = "0.1.0"  # keep equal to [project] version in pyproject.toml
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
    balances: tuple[int, int] | None = None,
    confirm_exit: int = 0,
    layout: betting.Layout | None = None,
) -> HttpResponse:
    """The table page, or its ``board`` partial for HTMX.

    The statistics (``shoe-stats``) are not part of the board: they are rendered with the
    full page and, out of band, with the answer to a DEAL, when a coup has ended.
    """
    player = request.user
    if layout is not None:
        state = selectors.layout_state(table=table, player=player, layout=layout)  # type: ignore[arg-type]
    else:
        state = selectors.table_state(
            table=table,
            player=player,  # type: ignore[arg-type]
            settled=settled,
            known_balances=balances,
        )
    practice = selectors.practice_of(table)
    if practice is not None and just_dealt:
        practice.refresh_from_db()  # the deal counted a hand and may have ended it
    full_page = not request.htmx  # type: ignore[attr-defined]
    context = {
        "reality": protection.reality_check_pending(player=request.user),  # type: ignore[arg-type]
        "table": table,
        "table_name": selectors.table_name(table),
        "state": state,
        "practice": practice,
        "form": form,
        "spots": selectors.layout_spots(state, just_dealt=just_dealt),
        "just_dealt": just_dealt,
        "deal": selectors.deal_view(state.last.round) if state.last else None,
        "last_round": state.last.round if state.last else None,
        "my_last": state.last,
        "chip_unit": chip_unit(table),
        "notices": notices or [],
        "confirm_exit": confirm_exit,
        # What the status bar shows while the cards of the round just dealt are turned.
        "before": (
            {
                "stack": state.last.balance_before,
                "available": (state.last.balance_before or 0) - state.last.stake_total,
            }
            if just_dealt and state.last is not None
            else None
        ),
        "version": APP_VERSION,
        # The next DEAL's idempotency key: fresh with every answer (DecideForm).
        "deal_token": secrets.token_hex(8),
        **statistics.results_context(
            selectors.shoe_results(table=table, player=player)  # type: ignore[arg-type]
            if full_page or just_dealt
            else None,
            key=f"t{table.pk}:p{player.pk}",
            just_dealt=just_dealt,
            window=selectors.stats_window(table),
            # An HTMX answer goes to the page that shows the panel from before the coup.
            before_on_page=not full_page,
            cached=False,
        ),
    }
    # The buy-in panel shows the wallet and opens when the stack is below the minimum
    # with nothing on the layout. An edit of the layout moves no money, a DEAL none of
    # the wallet's; with the stack at the minimum or above after either, the panel is
    # as it was before (closed, unless the player opened it), so the answer leaves it
    # alone: it keeps the player's choice and saves rendering its forms.
    buyin_unchanged = (layout is not None or just_dealt) and state.stack >= state.minimum
    buyin_drawn = not practice and not buyin_unchanged
    if full_page or buyin_drawn:
        context["rebuy_form"] = rebuy_form or RebuyForm(initial={"token": secrets.token_hex(8)})
    if full_page:
        context["money_format"] = money_format()
        context["layout_refusals"] = LAYOUT_REFUSALS
        return render(request, "baccarat/table.html", context)
    # The answer is the Jinja2 fragments alone; the buy-in panel, a Django template, is
    # drawn into it when it changed.
    if buyin_drawn:
        context["buyin_html"] = render_to_string(
            "baccarat/parts/buyin.html", {**context, "oob": True}, request
        )
    return HttpResponse(render_fragment("baccarat/table_update.html", context, request))


def _after_action(request: HttpRequest, table: Table, form: Any, **kwargs: Any) -> HttpResponse:
    if form.errors or request.htmx:  # type: ignore[attr-defined]
        return _render_table(request, table, form=form, **kwargs)
    return redirect("baccarat:table", slug=table.slug)


@login_required
@require_GET
def table_view(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    notices: list[str] = []
    if request.htmx:  # type: ignore[attr-defined]
        # A board refresh after a full table's round was voided (``?notices=1``, sent by
        # the page for that event) shows them on the board; the many other refreshes do
        # not ask (a query each). What waits is told on the next page otherwise.
        if request.GET.get("notices"):
            notices += server_notices(request.user)
    else:
        deliver_server_notices(request)
    if table.kind == Table.Kind.FULL:
        return full_views.render_full_table(request, table, notices=notices)
    return _render_table(request, table, notices=notices)


@login_required
@require_GET
def table_coups(request: HttpRequest, slug: str) -> HttpResponse:
    """Every coup of the shoe in play, with its cards: the statistics' table of coups,
    fetched when the player opens it (a page of its own without JavaScript), not drawn
    and sent with every DEAL."""
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    if table.kind == Table.Kind.FULL:
        # Every browser at the table reads the same: kept per what it shows (a digest of
        # the coups and their cards) and language.
        shown, key, cache = selectors.shared_shoe_results(table), f"t{table.pk}", "default"
    else:
        rounds = selectors.shoe_results(table=table, player=request.user)  # type: ignore[arg-type]
        window = selectors.stats_window(table)
        shown = rounds[-window:] if window else rounds
        key, cache = f"t{table.pk}:p{request.user.pk}", "uncached"
    sequence = not selectors.whole_shoe(table)
    context = {
        "table": table,
        "table_name": selectors.table_name(table),
        "sequence": sequence,
        "board": statistics.shoe_board(shown, sequence=sequence),
        "board_key": key,
        "board_cache": cache,
    }
    htmx = request.htmx  # type: ignore[attr-defined]
    template = "baccarat/table_coups.html#coups" if htmx else "baccarat/table_coups.html"
    return render(request, template, context)


@login_required
@require_POST
def table_bet(request: HttpRequest, slug: str) -> HttpResponse:
    """A chip on a spot, or back from it (``remove``; without an amount: the whole bet)."""
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    if table.kind == Table.Kind.FULL:
        return full_views.full_bet(request, table)
    form = BetForm(request.POST, table=table)
    layout = None
    if form.is_valid():
        edit = betting.chip_edit(
            kind=form.cleaned_data["spot"],
            amount=form.cleaned_data["amount"],
            take_back=form.cleaned_data["take_back"],
        )
        try:
            if not form.cleaned_data["take_back"]:  # a chip more is a bet
                protection.protection_check(player=request.user)  # type: ignore[arg-type]
            layout = betting.layout_edit(
                table=table,
                player=request.user,  # type: ignore[arg-type]
                edit=edit,
                token=form.cleaned_data["token"],
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _after_action(request, table, form, layout=layout)


def _betting_action(
    request: HttpRequest, table: Table, edit: betting.LayoutEdit, *, bets: bool = False
) -> HttpResponse:
    form = PressForm(request.POST)
    layout = None
    if form.is_valid():
        try:
            if bets:
                protection.protection_check(player=request.user)  # type: ignore[arg-type]
            layout = betting.layout_edit(
                table=table,
                player=request.user,  # type: ignore[arg-type]
                edit=edit,
                token=form.cleaned_data["token"],
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _after_action(request, table, form, layout=layout)


@login_required
@require_POST
def table_clear(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    if table.kind == Table.Kind.FULL:
        return full_views.full_clear(request, table)
    return _betting_action(request, table, betting.clear_edit)


@login_required
@require_POST
def table_rebet(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    if table.kind == Table.Kind.FULL:
        return full_views.full_rebet(request, table)
    return _betting_action(request, table, betting.rebet_edit, bets=True)


@login_required
@require_POST
def table_deal(request: HttpRequest, slug: str) -> HttpResponse:
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    if table.kind == Table.Kind.FULL:
        return full_views.full_decide(request, table, deal=True)
    form = DealForm(request.POST)
    notices: list[str] = []
    settled: Play | None = None
    balances = None
    if form.is_valid():
        try:
            result = rounds.layout_deal(
                table=table,
                player=request.user,
                round_id=form.cleaned_data["round"],
                after=form.cleaned_data["after"],
                stakes=form.stakes,
                token=form.cleaned_data["token"],
            )
            if result is not None:
                # Render the result from the plays the settle loaded, not read again.
                settled = next(
                    (
                        play
                        for play in getattr(result.round, "settled_plays", [])
                        if play.player_id == request.user.pk
                    ),
                    None,
                )
                balances = result.balances
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
        just_dealt=settled is not None,
        notices=notices,
        settled=settled,
        balances=balances if settled is not None else None,
    )


@login_required
@require_POST
def table_rebuy(request: HttpRequest, slug: str) -> HttpResponse:
    """Chips from the wallet to the stack: the buy-in panel's presets or an amount."""
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = RebuyForm(request.POST)
    if table.kind == Table.Kind.PRACTICE:
        # The practice table has no buy-in panel: say it on the board.
        refused = EmptyForm(data={})
        refused.is_valid()
        refused.add_error(
            None,
            _("A practice session plays with the chips it started with: there is no rebuy."),
        )
        return _render_table(request, table, form=refused)
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
        return _render_table(request, table, rebuy_form=form.for_retry())
    return _after_action(request, table, form)


@login_required
@require_POST
def table_exit(request: HttpRequest, slug: str) -> HttpResponse:
    """Leave: bets back, the stack to the wallet; asked first when chips are staked: laid
    out by the player in the page (``layout_stake``) or on the server in a round open for
    bets, not the last round's bets shown again."""
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    if table.kind == Table.Kind.FULL:
        return full_views.full_leave(request, table)
    form = ExitForm(request.POST)
    returned: int | None = None
    if form.is_valid():
        state = selectors.table_state(table=table, player=request.user)  # type: ignore[arg-type]
        on_layout = max(form.cleaned_data["layout_stake"] or 0, state.staked)
        if on_layout and not form.cleaned_data["confirm"]:
            return _render_table(request, table, confirm_exit=on_layout)
        try:
            returned = stacks.table_exit(player=request.user, table=table)  # type: ignore[arg-type]
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    if form.errors:
        return _render_table(request, table, form=form)
    practice = selectors.practice_of(table)
    if practice is not None:
        target = reverse("baccarat:practice_summary", args=[practice.pk])
    else:
        target = reverse("lobby")
        if returned:
            messages.success(
                request,
                _("You left %(table)s: %(amount)s went back to your wallet.")
                % {"table": table.name, "amount": format_money(returned)},
            )
        else:
            messages.info(request, _("You left %(table)s.") % {"table": table.name})
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_POST
def table_reality_check(request: HttpRequest, slug: str) -> HttpResponse:
    """The reality check answered: go on, leave the table (its stack cashed out, as EXIT
    does), or open the protocol. Any answer starts the next interval."""
    table = selectors.table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]
    form = RealityCheckForm(request.POST)
    if not form.is_valid():
        return redirect("baccarat:table", slug=table.slug)
    protection.reality_check_answer(player=request.user)  # type: ignore[arg-type]
    answer = form.cleaned_data["answer"]
    if answer == "leave":
        return table_exit(request, slug)
    if answer == "protocol":
        return redirect("baccarat:protocol_list")
    return redirect("baccarat:table", slug=table.slug)


# Practice ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def practice_new(request: HttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = practice_start(player=request.user, **form.cleaned_data)  # type: ignore[arg-type]
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
        else:
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


# Provably fair shoes ----------------------------------------------------------------
