"""The full table in the browser (seeds 000/001): seats, bets, Deal or Pass, the cut.

The page lays a seated player's chips out itself and sends them when they pause (the
layout, answered with nothing when taken) and with Deal. A seated player's Deal, Pass,
Same bet, refused layout or chip (one POST each without JavaScript) is answered (HTMX)
with their own part of the board, every other action with the whole board (a redirect
without JavaScript). Every browser at
the table, the actor's too, learns of a change from the live events
(:mod:`baccarat.full.live`): it draws what an event carries and fetches its own board,
in its own language and with its own stack, for the rest.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from baccarat import engine
from baccarat.board import card_names, selectors
from baccarat.board.fragments import render_fragment
from baccarat.board.statistics import results_context
from baccarat.errors import RoundError
from baccarat.forms import (
    LAYOUT_REFUSALS,
    BetForm,
    ChatForm,
    CutForm,
    EmptyForm,
    LayoutForm,
    PressForm,
    SitForm,
    add_domain_error,
)
from baccarat.full import chat, croupier, seats
from baccarat.full import state as full_state
from baccarat.full import views as full_views
from baccarat.models import Table
from baccarat.rules.rule_sets import chip_unit
from wallet import protection
from wallet.errors import WalletError
from wallet.formatting import format_money, money_format

DOMAIN_ERRORS = (engine.EngineError, RoundError, WalletError)


def render_full_table(
    request: HttpRequest,
    table: Table,
    *,
    form: Any = None,
    sit_form: SitForm | None = None,
    notices: list[str] | None = None,
    dealt: int | None = None,
) -> HttpResponse:
    """The full table page, or (HTMX) its board and what changes beside it.

    ``?dealt=<round>`` (sent by the page when the events say a round was dealt) shows
    that round's cards being dealt; any later view shows them as they lie.
    """
    if request.method == "POST":
        # The answer to an action (sitting down, the cut...): ``table`` was read before
        # the action's events, and those of the croupier's tick it may have run. The
        # board says which event it shows as of (``data-seq``), read before its state.
        table.event_seq = Table.objects.values_list("event_seq", flat=True).get(pk=table.pk)
    state = full_state.full_table_state(table=table, viewer=request.user)  # type: ignore[arg-type]
    if state.me is not None:
        seats.seat_seen(
            table_id=table.pk,
            player_id=request.user.pk,  # type: ignore[arg-type]
            last_seen=state.me.last_seen,
        )
    last = state.last_round
    asked = request.GET.get("dealt", "")
    if dealt is None and asked.isdigit() and len(asked) < 19:
        dealt = int(asked)
    just_dealt = bool(last and dealt == last.pk)
    full_page = not request.htmx  # type: ignore[attr-defined]
    my_last = state.my_last if state.my_last and state.my_last.stake_total else None
    # A new shoe clears the felt: the last coup of the shoe before it is not shown, and
    # the statistics (every board sends them until the new shoe's first coup) are empty.
    shoe = state.shoe
    new_shoe = bool(shoe and last and last.shoe_id != shoe.pk and not just_dealt)
    if just_dealt:
        results = selectors.shared_shoe_results(table, shoe_id=last.shoe_id)  # type: ignore[union-attr]
    elif full_page:
        results = selectors.shared_shoe_results(table, shoe_id=shoe.pk if shoe else None)
    else:
        results = [] if new_shoe else None
    context = {
        "reality": protection.reality_check_pending(player=request.user),  # type: ignore[arg-type]
        "table": table,
        "table_name": table.name,
        "state": state,
        "form": form,
        "sit_form": sit_form or SitForm(initial={"token": secrets.token_hex(8)}),
        "spots": _spots(state),
        # A seated player's spots for the next round, drawn when its opening event comes.
        "next_spots": _spots(state, empty=True) if state.me and not state.can_bet else None,
        "deal": selectors.deal_view(last) if last and not new_shoe else None,
        "last_round": last,
        "my_last": my_last,
        "just_dealt": just_dealt,
        # What the status bar shows while the cards of the round just dealt are turned: the
        # stack as the stake left it.
        "before": (
            {"stack": my_last.balance_before - my_last.stake_total}
            if just_dealt and my_last is not None and my_last.balance_before is not None
            else None
        ),
        "chip_unit": chip_unit(table),
        "notices": notices or [],
        "deal_token": secrets.token_hex(8),  # the next decision's key (LayoutForm)
        **results_context(
            results,
            key=f"t{table.pk}",
            just_dealt=just_dealt,
            # The page shows the panel from before the coup until its cards have turned:
            # it holds that panel, and copies it (table.js), rather than have it sent.
            before_on_page=not full_page,
        ),
        "empty_note": _empty_note(state),
        "words": _board_words(state),
    }
    if full_page:
        context["chat"] = chat.chat_view(
            table=table,
            viewer=request.user,  # type: ignore[arg-type]
            seated=state.me is not None,
        )
        context["chat_form"] = ChatForm()
        context["money_format"] = money_format()
        context["script_words"] = _script_words()
        context["layout_refusals"] = LAYOUT_REFUSALS
        return render(request, "baccarat/full_table.html", context)
    return HttpResponse(render_fragment("baccarat/full_table_update.html", context, request))


def _board_words(state: full_state.FullTableState) -> dict[str, str]:
    """The board's words that take a plural or a context: its Jinja2 fragments mark text
    only as ``_("…")``, the one form ``makemessages`` finds in a template."""
    words = {"seconds_unit": pgettext("seconds", "s")}
    shoe = state.shoe
    if shoe is not None and shoe.burn_card:
        # Seeds 000/001: the first card is turned, then as many cards as its value are
        # put aside unseen (an ace one, a court card ten); burned_count counts both.
        aside = shoe.burned_count - 1
        words["burn"] = ngettext(
            "The first card turned was the %(card)s: %(cards)s card was put aside unseen.",
            "The first card turned was the %(card)s: %(cards)s cards were put aside unseen.",
            aside,
        ) % {"card": card_names.card_name(shoe.burn_card), "cards": aside}
    return words


def _script_words() -> dict[str, Any]:
    """What the page's script needs to draw another player's chip, seat or decision, a
    new round's timer, and a new shoe's cut offered to another seat, from the event alone
    (static/js/full_table.js): the words as the board writes them, and the spots' letters
    in felt order."""
    return {
        "place_bets": _("Place your bets"),
        "time_left": _("Time left to bet"),
        "seconds_unit": pgettext("seconds", "s"),
        "deal": _("Deal") + " ✓",
        "pass": _("Pass"),
        "timeout": _("Left out"),
        "deciding": _("Deciding…"),
        "waits": _("Waits for the next round"),
        "free": _("Free"),
        "sit_here": _("Sit here"),
        "seat": _("Seat %(number)s"),
        "you": _("you"),
        "closed": _("No more bets: the cards are being dealt."),
        "cut_offered": _("A new shoe: the cut is offered to seat %(seat)s."),
        "offered_cut": _("Offered the cut"),
        "dismiss": _("Dismiss"),
        "spots": [[kind, selectors.SPOT_LETTERS[kind]] for kind in selectors.SPOT_ORDER],
    }


def _empty_note(state: full_state.FullTableState) -> str:
    if state.me is None:
        return _("Take a seat to play, or watch.")
    if state.round is None:
        return _("The next round starts in a moment.")
    return _("Place your bets, then press Deal or Pass.")


def _spots(state: full_state.FullTableState, *, empty: bool = False) -> list[selectors.SpotView]:
    """The viewer's layout: their bets this round (none with ``empty``), on the table's
    spots."""
    return selectors.table_spots(state.table, {} if empty else state.stakes)


def render_mine(
    request: HttpRequest,
    table: Table,
    *,
    form: Any = None,
    notices: list[str] | None = None,
    mine: croupier.Mine | None = None,
) -> HttpResponse:
    """The answer to a seated player's chip, Clear, Same bet, Deal or Pass (HTMX): their
    own part of the board (status, errors, notices), their spots and buttons; the rest of
    the board reaches their page as events, as it reaches every other. ``mine``: that
    part as the action left it (read again when the action was refused). Without a seat,
    the whole board."""
    if mine is not None:
        state: full_state.FullTableState | None = full_state.mine_state(
            table=table, seat=mine.seat, round=mine.round, play=mine.play, stack=mine.stack
        )
    else:
        state = full_state.viewer_state(table=table, viewer=request.user)  # type: ignore[arg-type]
    if state is None or state.me is None:
        return render_full_table(request, table, form=form, notices=notices)
    seats.seat_seen(
        table_id=table.pk,
        player_id=request.user.pk,  # type: ignore[arg-type]
        last_seen=state.me.last_seen,
    )
    context = {
        "table": table,
        "state": state,
        "form": form,
        "spots": _spots(state),
        "next_spots": None if state.can_bet else _spots(state, empty=True),
        "chip_unit": chip_unit(table),
        "notices": notices or [],
        "deal_token": secrets.token_hex(8),
    }
    response = HttpResponse(render_fragment("baccarat/full_mine_update.html", context, request))
    response["HX-Retarget"] = "#board-mine"
    response["HX-Reswap"] = "outerHTML"
    return response


def _answer(request: HttpRequest, table: Table, form: Any, **kwargs: Any) -> HttpResponse:
    if form.errors or request.htmx:  # type: ignore[attr-defined]
        return render_full_table(request, table, form=form, **kwargs)
    return redirect("baccarat:table", slug=table.slug)


def _answer_mine(
    request: HttpRequest,
    table: Table,
    form: Any,
    notices: list[str] | None = None,
    mine: croupier.Mine | None = None,
) -> HttpResponse:
    """The answer to the player's own chip or decision: with HTMX their part of the
    board (:func:`render_mine`), otherwise as any action's."""
    if request.htmx:  # type: ignore[attr-defined]
        return render_mine(request, table, form=form, notices=notices, mine=mine)
    return _answer(request, table, form, notices=notices)


def full_bet(request: HttpRequest, table: Table) -> HttpResponse:
    form = BetForm(request.POST, table=table)
    mine = None
    if form.is_valid():
        try:
            mine = croupier.full_bet(
                table=table,
                player=request.user,  # type: ignore[arg-type]
                kind=form.cleaned_data["spot"],
                amount=form.cleaned_data["amount"],
                take_back=form.cleaned_data["take_back"],
                token=form.cleaned_data["token"],
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _answer_mine(request, table, form, mine=mine)


def full_layout(request: HttpRequest, table: Table) -> HttpResponse:
    """The layout the page laid out, sent after a pause in the player's chips so that
    every seat sees them (static/js/table.js). Taken: nothing to draw (204), the page
    shows it already. Refused: the player's part of the board as the server holds it,
    with why."""
    form = LayoutForm(request.POST)
    if form.is_valid():
        stakes = form.stakes
        if stakes is None:
            form.add_error(None, _("Place your bets, then press Deal or Pass."))
        else:
            try:
                croupier.full_layout(
                    table=table,
                    player=request.user,  # type: ignore[arg-type]
                    stakes=stakes,
                    token=form.cleaned_data["token"],
                )
            except DOMAIN_ERRORS as error:
                add_domain_error(form, error)
    if not form.errors and request.htmx:  # type: ignore[attr-defined]
        return HttpResponse(status=204)
    return _answer_mine(request, table, form)


def full_clear(request: HttpRequest, table: Table) -> HttpResponse:
    return _simple(request, table, croupier.full_clear)


def full_rebet(request: HttpRequest, table: Table) -> HttpResponse:
    return _simple(request, table, croupier.full_rebet)


def _simple(request: HttpRequest, table: Table, action: Any) -> HttpResponse:
    form = PressForm(request.POST)
    mine = None
    if form.is_valid():
        try:
            mine = action(table=table, player=request.user, token=form.cleaned_data["token"])
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _answer_mine(request, table, form, mine=mine)


def full_decide(request: HttpRequest, table: Table, *, deal: bool) -> HttpResponse:
    """Deal (the stake is committed; with the layout the page laid out, when it sends
    one) or Pass (the bets go back)."""
    form = LayoutForm(request.POST)
    notices: list[str] = []
    mine = None
    if form.is_valid():
        try:
            decided = croupier.full_decide(
                table=table,
                player=request.user,  # type: ignore[arg-type]
                deal=deal,
                token=form.cleaned_data["token"],
                stakes=form.stakes if deal else None,
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
        else:
            mine = decided.mine
            if decided.raised:
                notices.append(_("Stakes below the table minimum were raised to it."))
    # When this was the round's last decision, its cards reach this page as events, as
    # they reach every other at the table.
    return _answer_mine(request, table, form, notices=notices, mine=mine)


def full_sit(request: HttpRequest, table: Table) -> HttpResponse:
    form = SitForm(request.POST)
    notices: list[str] = []
    if form.is_valid():
        data = form.cleaned_data
        try:
            seat = seats.seat_take(
                table=table,
                player=request.user,  # type: ignore[arg-type]
                number=data["seat"],
                buy_in=data["amount"],
                reference=f"sit:{table.pk}:{request.user.pk}:{data['token']}",
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
        else:
            moved_from = getattr(seat, "moved_from", None)
            if moved_from is not None:
                # Lost a race for the seat (seeds 000/001: the next free seat is given).
                notices.append(
                    _("Seat %(wanted)s was taken a moment before you; you sit at seat %(seat)s.")
                    % {"wanted": moved_from, "seat": seat.number}
                )
            if getattr(seat, "first_at_table", False):
                # The first player starts the table; later ones join what it has planned
                # (and the recovery sweep ticks every table with players anyway).
                croupier.table_tick(table_id=table.pk)
    if form.errors:
        retry = SitForm(
            initial={"token": secrets.token_hex(8), "amount": request.POST.get("amount", "")}
        )
        retry.retry_errors = [  # type: ignore[attr-defined]
            error for errors in form.errors.values() for error in errors
        ]
        return render_full_table(request, table, sit_form=retry)
    if not request.htmx:  # type: ignore[attr-defined]
        for notice in notices:  # told on the page the redirect leads to
            messages.info(request, notice)
    return _answer(request, table, form, notices=notices)


def full_leave(request: HttpRequest, table: Table) -> HttpResponse:
    form = EmptyForm(request.POST)
    returned = 0
    if form.is_valid():
        try:
            returned = seats.seat_leave(table=table, player=request.user)  # type: ignore[arg-type]
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    if form.errors:
        return render_full_table(request, table, form=form)
    if returned:
        messages.success(
            request,
            _("You left %(table)s: %(amount)s went back to your wallet.")
            % {"table": table.name, "amount": format_money(returned)},
        )
    else:
        messages.info(request, _("You left %(table)s.") % {"table": table.name})
    target = reverse("lobby")
    if request.htmx:  # type: ignore[attr-defined]
        return HttpResponseClientRedirect(target)
    return redirect(target)


def full_cut(request: HttpRequest, table: Table) -> HttpResponse:
    form = CutForm(request.POST)
    if form.is_valid():
        try:
            croupier.cut_decide(
                table=table,
                player=request.user,  # type: ignore[arg-type]
                accept=form.cleaned_data["accept"],
                position=form.cleaned_data["position"],
            )
        except DOMAIN_ERRORS as error:
            add_domain_error(form, error)
    return _answer(request, table, form)


def _full_table(request: HttpRequest, slug: str) -> Table:
    return selectors.full_table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]


@login_required
@require_POST
def table_sit(request: HttpRequest, slug: str) -> HttpResponse:
    return full_views.full_sit(request, _full_table(request, slug))


@login_required
@require_POST
def table_layout(request: HttpRequest, slug: str) -> HttpResponse:
    return full_views.full_layout(request, _full_table(request, slug))


@login_required
@require_POST
def table_pass(request: HttpRequest, slug: str) -> HttpResponse:
    return full_views.full_decide(request, _full_table(request, slug), deal=False)


@login_required
@require_POST
def table_cut(request: HttpRequest, slug: str) -> HttpResponse:
    return full_views.full_cut(request, _full_table(request, slug))
