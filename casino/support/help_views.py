"""Players ask for help about a round and read support's answers.

Every page is the player's own: a request or a round of someone else is a 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from baccarat.protocol.selectors import protocol_play
from casino.support import tickets
from casino.support.forms import TicketForm

PAGE_SIZE = 25


@login_required
@require_GET
def ticket_list(request: HttpRequest) -> HttpResponse:
    """My requests: newest first, each with its state and answer."""
    page = Paginator(tickets.player_tickets(player=request.user), PAGE_SIZE).get_page(  # type: ignore[arg-type]
        request.GET.get("page")
    )
    return render(request, "help/ticket_list.html", {"page": page})


@login_required
@require_GET
def ticket_detail(request: HttpRequest, ticket_id: int) -> HttpResponse:
    ticket = tickets.player_ticket(player=request.user, ticket_id=ticket_id)  # type: ignore[arg-type]
    if ticket is None:
        raise Http404
    return render(request, "help/ticket_detail.html", {"ticket": ticket})


@login_required
@require_http_methods(["GET", "POST"])
def ticket_new(request: HttpRequest, round_id: int) -> HttpResponse:
    """Report a problem with one of the player's rounds (as in their protocol)."""
    play = protocol_play(player=request.user, round_id=round_id)  # type: ignore[arg-type]
    existing = tickets.open_ticket_for(player=request.user, round_id=round_id)  # type: ignore[arg-type]
    form = TicketForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            ticket = tickets.ticket_open(
                player=request.user,  # type: ignore[arg-type]
                round_id=round_id,
                subject=form.cleaned_data["subject"],
                message=form.cleaned_data["message"],
            )
        except tickets.TicketError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Thank you: your request was sent to support."))
            return redirect("help:ticket", ticket_id=ticket.pk)
    context = {"play": play, "round": play.round, "form": form, "existing": existing}
    status = 400 if request.method == "POST" else 200
    return render(request, "help/ticket_new.html", context, status=status)
