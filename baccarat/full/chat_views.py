"""The chat window of a full table: read (everyone signed in), write (seated players),
report a message (anyone but its writer). New messages reach the other browsers over
the table's live events; each browser then fetches the log (``?part=log``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from baccarat.board import selectors
from baccarat.forms import ChatForm, ChatReportForm
from baccarat.full import chat
from baccarat.models import ChatMessage, Seat, Table


def _table(request: HttpRequest, slug: str) -> Table:
    return selectors.full_table_for_player(slug=slug, player=request.user)  # type: ignore[arg-type]


def render_chat(
    request: HttpRequest,
    table: Table,
    *,
    form: ChatForm | None = None,
    notice: str = "",
    part: str = "",
    status: int = 200,
) -> HttpResponse:
    seated = Seat.objects.filter(table=table, player=request.user).exists()  # type: ignore[misc]
    context = {
        "table": table,
        "chat": chat.chat_view(table=table, viewer=request.user, seated=seated),  # type: ignore[arg-type]
        "chat_form": form or ChatForm(),
        "chat_notice": notice,
    }
    template = "baccarat/parts/chat.html" + (f"#{part}" if part else "")
    return render(request, template, context, status=status)


@login_required
@require_GET
def chat_window(request: HttpRequest, slug: str) -> HttpResponse:
    part = "log" if request.GET.get("part") == "log" else ""
    return render_chat(request, _table(request, slug), part=part)


@login_required
@require_POST
def chat_send(request: HttpRequest, slug: str) -> HttpResponse:
    table = _table(request, slug)
    form = ChatForm(request.POST)
    if form.is_valid():
        try:
            chat.chat_post(table=table, player=request.user, text=form.cleaned_data["text"])  # type: ignore[arg-type]
        except chat.ChatRefused as refused:
            form.add_error("text", str(refused.message))
        else:
            if not request.htmx:  # type: ignore[attr-defined]
                return redirect("baccarat:table", slug=table.slug)
            return render_chat(request, table)
    if not request.htmx:  # type: ignore[attr-defined]
        # Without JavaScript the table page cannot show the form's error: say it there.
        for error in form.errors.get("text", []):
            messages.error(request, error)
        return redirect("baccarat:table", slug=table.slug)
    return render_chat(request, table, form=form)


@login_required
@require_POST
def chat_report(request: HttpRequest, slug: str, message_id: int) -> HttpResponse:
    table = _table(request, slug)
    form = ChatReportForm(request.POST)
    if not form.is_valid():
        return render_chat(
            request, table, notice=_("A reason has at most 200 characters."), status=400
        )
    try:
        report = chat.chat_report(
            message_id=message_id,
            table=table,
            reporter=request.user,  # type: ignore[arg-type]
            reason=form.cleaned_data["reason"],
        )
    except ChatMessage.DoesNotExist:
        raise Http404 from None
    notice = (
        _("Thank you: support will look at this message.")
        if report is not None
        else _("You have reported this message already.")
    )
    if not request.htmx:  # type: ignore[attr-defined]
        messages.info(request, notice)
        return redirect("baccarat:table", slug=table.slug)
    return render_chat(request, table, notice=notice)
