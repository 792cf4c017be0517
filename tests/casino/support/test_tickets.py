"""Players ask for help about a round; support answers and closes; every step validated,
one open request per round, the player told once, and every staff step on the record."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.models import Round
from baccarat.play import betting
from casino.support import tickets
from casino.support.models import StaffAction, Ticket

pytestmark = pytest.mark.django_db

MESSAGE = "The third card of the banker never showed."


@pytest.fixture
def round_of(single_table: Any, play_round: Any) -> Any:
    """A settled round of the player, in their protocol."""

    def make(player: Any) -> Round:
        return play_round(player, single_table)

    return make


def report(client: Any, round: Round, **data: str) -> Any:
    data = {"subject": "result", "message": MESSAGE, **data}
    return client.post(reverse("help:report", args=[round.pk]), data)


def test_a_player_reports_a_problem_with_a_round(client: Any, alice: Any, round_of: Any) -> None:
    round = round_of(alice)
    client.force_login(alice)
    protocol = client.get(reverse("baccarat:protocol_detail", args=[round.pk])).content.decode()
    assert "Report a problem" in protocol and reverse("help:tickets") in protocol
    form = client.get(reverse("help:report", args=[round.pk]))
    assert form.status_code == 200 and "What is it about?" in form.content.decode()
    response = report(client, round)
    ticket = Ticket.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("help:ticket", args=[ticket.pk])
    assert (ticket.player, ticket.round_id, ticket.subject) == (alice, round.pk, "result")
    assert ticket.message == MESSAGE and ticket.state == Ticket.State.OPEN
    mine = client.get(reverse("help:tickets")).content.decode()
    assert f"#{round.pk}" in mine and "Waiting for support" in mine


@pytest.mark.parametrize(
    "data",
    [
        {"subject": ""},
        {"subject": "everything"},
        {"message": ""},
        {"message": "   too short   "},
        {"message": "x" * 2001},
    ],
)
def test_bad_input_opens_no_request(
    client: Any, alice: Any, round_of: Any, data: dict[str, str]
) -> None:
    round = round_of(alice)
    client.force_login(alice)
    response = report(client, round, **data)
    assert response.status_code == 400
    assert not Ticket.objects.exists()


def test_one_open_request_per_round(
    client: Any, alice: Any, support_user: Any, round_of: Any
) -> None:
    round = round_of(alice)
    client.force_login(alice)
    report(client, round)
    again = report(client, round, message="And the cards were wrong too.")
    assert again.status_code == 400
    assert "You already have an open request about this round." in again.content.decode()
    assert Ticket.objects.count() == 1
    page = client.get(reverse("help:report", args=[round.pk])).content.decode()
    assert "See your request" in page and "Send to support" not in page
    tickets.ticket_close(ticket_id=Ticket.objects.get().pk, by=support_user)
    assert report(client, round).status_code == 302  # closed: the player may ask again
    assert Ticket.objects.count() == 2


def test_a_burst_of_requests_is_limited(client: Any, alice: Any, round_of: Any) -> None:
    rounds = [round_of(alice) for _ in range(tickets.HOURLY_LIMIT + 1)]
    client.force_login(alice)
    for round in rounds[:-1]:
        assert report(client, round).status_code == 302
    refused = report(client, rounds[-1])
    assert refused.status_code == 400
    assert "several requests in the last hour" in refused.content.decode()
    assert Ticket.objects.count() == tickets.HOURLY_LIMIT
    Ticket.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert report(client, rounds[-1]).status_code == 302


def test_another_players_round_and_request_are_404(
    client: Any, alice: Any, bob: Any, round_of: Any
) -> None:
    round = round_of(alice)
    client.force_login(alice)
    report(client, round)
    ticket = Ticket.objects.get()
    client.force_login(bob)
    assert client.get(reverse("help:report", args=[round.pk])).status_code == 404
    assert report(client, round).status_code == 404
    assert client.get(reverse("help:ticket", args=[ticket.pk])).status_code == 404
    assert Ticket.objects.count() == 1


def test_a_round_still_taking_bets_cannot_be_reported(
    client: Any, alice: Any, single_table: Any
) -> None:
    round = betting.round_open(table=single_table, player=alice)
    client.force_login(alice)
    assert report(client, round).status_code == 404
    with pytest.raises(tickets.TicketError):
        tickets.ticket_open(player=alice, round_id=round.pk, subject="other", message=MESSAGE)
    assert not Ticket.objects.exists()


def _ticket(player: Any, round: Round, **fields: Any) -> Ticket:
    ticket = tickets.ticket_open(
        player=player, round_id=round.pk, subject="payout", message=MESSAGE
    )
    if fields:
        Ticket.objects.filter(pk=ticket.pk).update(**fields)
        ticket.refresh_from_db()
    return ticket


def test_the_queue_shows_waiting_requests_first_the_oldest_first(
    client: Any, support_user: Any, alice: Any, bob: Any, round_of: Any
) -> None:
    now = timezone.now()
    answered = _ticket(alice, round_of(alice), created_at=now - timedelta(hours=5))
    tickets.ticket_answer(ticket_id=answered.pk, by=support_user, answer="Checked: all fine.")
    newer = _ticket(alice, round_of(alice), created_at=now - timedelta(hours=1))
    older = _ticket(bob, round_of(bob), created_at=now - timedelta(hours=3))
    closed = _ticket(bob, round_of(bob))
    tickets.ticket_close(ticket_id=closed.pk, by=support_user)
    client.force_login(support_user)
    page = client.get(reverse("support:tickets")).context["page"]
    assert [t.pk for t in page] == [older.pk, newer.pk, answered.pk]
    closed_page = client.get(reverse("support:tickets"), {"show": "closed"}).context["page"]
    assert [t.pk for t in closed_page] == [closed.pk]
    search = client.get(reverse("support:search")).content.decode()
    assert reverse("support:tickets") in search and reverse("support:chat_queue") in search


def test_support_answers_and_the_player_is_told_once(
    client: Any, support_user: Any, alice: Any, round_of: Any
) -> None:
    round = round_of(alice)
    ticket = _ticket(alice, round)
    client.force_login(support_user)
    page = client.get(reverse("support:ticket", args=[ticket.pk])).content.decode()
    assert MESSAGE in page and reverse("support:round", args=[round.pk]) in page
    response = client.post(
        reverse("support:ticket", args=[ticket.pk]),
        {"answer-answer": "We checked the round: the cards were dealt as shown."},
    )
    assert response.status_code == 302
    ticket.refresh_from_db()
    assert ticket.state == Ticket.State.ANSWERED and ticket.answered_by == support_user
    action = StaffAction.objects.get(kind=StaffAction.Kind.TICKET_ANSWERED)
    assert (action.actor, action.subject) == (support_user, alice)
    assert action.details == {
        "ticket": ticket.pk,
        "round": round.pk,
        "subject": "payout",
        "answer": "We checked the round: the cards were dealt as shown.",
    }

    client.force_login(alice)
    lobby = client.get(reverse("lobby")).content.decode()
    assert f"Support answered your request about round #{round.pk}." in lobby
    assert reverse("help:ticket", args=[ticket.pk]) in lobby
    assert "Support answered" not in client.get(reverse("lobby")).content.decode()  # once
    mine = client.get(reverse("help:ticket", args=[ticket.pk])).content.decode()
    assert "the cards were dealt as shown" in mine


def test_reading_the_answer_first_means_no_notice(
    client: Any, support_user: Any, alice: Any, round_of: Any
) -> None:
    ticket = _ticket(alice, round_of(alice))
    tickets.ticket_answer(ticket_id=ticket.pk, by=support_user, answer="Done.")
    client.force_login(alice)
    assert "New answer" in client.get(reverse("help:tickets")).content.decode()
    client.get(reverse("help:ticket", args=[ticket.pk]))
    assert "Support answered" not in client.get(reverse("lobby")).content.decode()


@pytest.mark.parametrize("answer", ["", "   ", "x" * 4001])
def test_a_bad_answer_changes_nothing(
    client: Any, support_user: Any, alice: Any, round_of: Any, answer: str
) -> None:
    ticket = _ticket(alice, round_of(alice))
    client.force_login(support_user)
    response = client.post(reverse("support:ticket", args=[ticket.pk]), {"answer-answer": answer})
    assert response.status_code == 400
    ticket.refresh_from_db()
    assert ticket.state == Ticket.State.OPEN and ticket.answer == "" and not ticket.answer_unread
    assert not StaffAction.objects.exists()


def test_answer_and_close_in_one_step_and_closing_twice(
    client: Any, support_user: Any, alice: Any, round_of: Any
) -> None:
    ticket = _ticket(alice, round_of(alice))
    client.force_login(support_user)
    url = reverse("support:ticket", args=[ticket.pk])
    client.post(url, {"answer-answer": "Refunded.", "answer-close": "on"})
    ticket.refresh_from_db()
    assert ticket.state == Ticket.State.CLOSED and ticket.answer == "Refunded."
    kinds = list(StaffAction.objects.order_by("pk").values_list("kind", flat=True))
    assert kinds == [StaffAction.Kind.TICKET_ANSWERED, StaffAction.Kind.TICKET_CLOSED]
    again = client.post(url, {"close-note": "dup", "close-submit": ""}, follow=True)
    assert "This request is closed already." in again.content.decode()
    assert StaffAction.objects.count() == 2


def test_closing_without_an_answer_keeps_the_note_with_staff(
    client: Any, support_user: Any, alice: Any, round_of: Any
) -> None:
    ticket = _ticket(alice, round_of(alice))
    client.force_login(support_user)
    client.post(
        reverse("support:ticket", args=[ticket.pk]),
        {"close-note": "Duplicate of an e-mail.", "close-submit": ""},
    )
    ticket.refresh_from_db()
    assert ticket.state == Ticket.State.CLOSED and ticket.answer == ""
    action = StaffAction.objects.get()
    assert (action.kind, action.reason) == (
        StaffAction.Kind.TICKET_CLOSED,
        "Duplicate of an e-mail.",
    )
    client.force_login(alice)
    mine = client.get(reverse("help:ticket", args=[ticket.pk])).content.decode()
    assert "Support closed this request." in mine and "Duplicate" not in mine


@pytest.mark.django_db(transaction=True)
def test_two_staff_answering_at_once_answer_once(
    support_user: Any, alice: Any, round_of: Any, racers: Any
) -> None:
    ticket = _ticket(alice, round_of(alice))

    def answer(text: str) -> str:
        try:
            tickets.ticket_answer(ticket_id=ticket.pk, by=support_user, answer=text)
        except tickets.TicketError as error:
            return error.code
        return "sent"

    results = racers.run([lambda: answer("One."), lambda: answer("Two.")])
    assert sorted(results) == ["answered", "sent"]  # the second found it answered
    assert StaffAction.objects.filter(kind=StaffAction.Kind.TICKET_ANSWERED).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_submit_opens_one_request(alice: Any, round_of: Any, racers: Any) -> None:
    round = round_of(alice)

    def open_one() -> str:
        try:
            tickets.ticket_open(player=alice, round_id=round.pk, subject="other", message=MESSAGE)
        except tickets.TicketError as error:
            return error.code
        return "opened"

    assert sorted(racers.run([open_one, open_one, open_one])) == [
        "open_already",
        "open_already",
        "opened",
    ]
    assert Ticket.objects.count() == 1
