"""The cashier: balances, free deposits, the player's own limit, and the history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from wallet.cashier import cashier_deposit, deposit_limit_set, deposit_limit_status
from wallet.errors import WalletError
from wallet.formatting import format_money
from wallet.forms import CENTS_PER_UNIT, PRESET_UNITS, DepositForm, DepositLimitForm
from wallet.selectors import player_entries, player_stacks, wallet_balance

if TYPE_CHECKING:
    from casino.accounts.models import User

HISTORY_PAGE_SIZE = 25


def _player(request: HttpRequest) -> User:
    # @login_required has run: the user is a signed-in player.
    return cast("User", request.user)


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _render_cashier(
    request: HttpRequest,
    *,
    deposit_form: DepositForm | None = None,
    limit_form: DepositLimitForm | None = None,
    notice: str = "",
) -> HttpResponse:
    player = _player(request)
    context: dict[str, Any] = {
        "wallet_balance": wallet_balance(player=player),
        "stacks": player_stacks(player=player),
        "limit": deposit_limit_status(player=player),
        "deposit_form": deposit_form or DepositForm(),
        "limit_form": limit_form or DepositLimitForm(),
        # (the whole euros the button sends, its amount in cents to show as money)
        "presets": [(units, units * CENTS_PER_UNIT) for units in PRESET_UNITS],
        "notice": notice,
    }
    template = "wallet/cashier.html#cashier" if _is_htmx(request) else "wallet/cashier.html"
    return render(request, template, context)


@login_required
@require_GET
def cashier(request: HttpRequest) -> HttpResponse:
    return _render_cashier(request)


@login_required
@require_POST
def deposit(request: HttpRequest) -> HttpResponse:
    form = DepositForm(request.POST)
    if form.is_valid():
        try:
            txn = cashier_deposit(
                player=_player(request),
                amount=form.cleaned_data["cents"],
                reference=form.reference_key,
            )
        except WalletError as error:
            form.add_error(None, str(error.message))
        else:
            amount = txn.entries.get(account__kind="wallet").amount
            notice = _("%(amount)s of play money added to your wallet.") % {
                "amount": format_money(amount)
            }
            return _done(request, notice)
    return _render_cashier(request, deposit_form=form)


@login_required
@require_POST
def deposit_limit(request: HttpRequest) -> HttpResponse:
    form = DepositLimitForm(request.POST)
    if form.is_valid():
        try:
            limit = deposit_limit_set(player=_player(request), amount=form.cleaned_data["amount"])
        except WalletError as error:
            form.add_error("amount", str(error.message))
        else:
            if limit.pending_amount is not None:
                notice = _("Your higher limit applies in 24 hours.")
            else:
                notice = _("Your new limit applies now.")
            return _done(request, notice)
    return _render_cashier(request, limit_form=form)


def _done(request: HttpRequest, notice: str) -> HttpResponse:
    """HTMX swaps the fresh cashier in place; without JavaScript, post/redirect/get."""
    if _is_htmx(request):
        return _render_cashier(request, notice=notice)
    messages.success(request, notice)
    return redirect("wallet:cashier")


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    paginator = Paginator(player_entries(player=_player(request)), HISTORY_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    template = "wallet/history.html#history" if _is_htmx(request) else "wallet/history.html"
    return render(request, template, {"page": page})
