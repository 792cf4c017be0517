from __future__ import annotations

import csv
import io
import logging

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.integrity.audit import audit_violations as audit_ledger
from baccarat.models import Round
from wallet.models import Account, Transaction

pytestmark = pytest.mark.django_db


def test_support_finds_a_players_rounds(client, support_user, alice, bob, single_table, play_round):
    mine = play_round(alice, single_table)
    play_round(bob, single_table)
    client.force_login(support_user)
    response = client.get(reverse("support:search"), {"player": "alice"})
    assert response.status_code == 200
    html = response.content.decode()
    assert f"#{mine.pk}" in html
    assert "1 round found." in html
    assert ">bob<" not in html


def test_search_by_round_id_table_date_and_status(
    client, support_user, alice, single_table, play_round
):
    round = play_round(alice, single_table)
    client.force_login(support_user)
    # The day as the search reads it: in the site's time zone (between 23:00 and 24:00
    # UTC it is already the next day in Berlin).
    day = timezone.localdate(round.created_at).isoformat()
    params = {
        "round_id": round.pk,
        "table": single_table.pk,
        "date_from": day,
        "date_to": day,
        "status": "played",
    }
    page = client.get(reverse("support:search"), params).context["page"]
    assert [play.round_id for play in page] == [round.pk]
    params["status"] = "void"
    assert list(client.get(reverse("support:search"), params).context["page"]) == []


def test_htmx_search_returns_the_results_section(
    client, support_user, alice, single_table, play_round
):
    play_round(alice, single_table)
    client.force_login(support_user)
    html = client.get(
        reverse("support:search"), {"player": "alice"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert html.lstrip().startswith('<section id="results"')


def test_bad_filters_are_explained(client, support_user):
    client.force_login(support_user)
    response = client.get(
        reverse("support:search"),
        {"round_id": "abc", "date_from": "2026-02-02", "date_to": "2026-01-01"},
    )
    form = response.context["form"]
    assert "Enter a round number." in form.errors["round_id"]
    assert "The start date is after the end date." in form.non_field_errors()


def test_csv_export_of_a_search(client, support_user, alice, single_table, play_round):
    round = play_round(alice, single_table)
    client.force_login(support_user)
    response = client.get(reverse("support:search"), {"player": "alice", "export": "csv"})
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][0] == "Round"
    assert rows[1][0] == str(round.pk)
    assert rows[1][3] == "alice"
    assert rows[1][9] == "5.00"


def test_round_detail_tells_the_whole_story(client, support_user, alice, single_table, play_round):
    round = play_round(alice, single_table)
    client.force_login(support_user)
    html = client.get(reverse("support:round", args=[round.pk])).content.decode()
    assert round.player_cards in html and round.banker_cards in html
    assert f"stake:{round.pk}:{alice.pk}" in html
    assert f"settle:{round.pk}:{alice.pk}" in html
    # The rule snapshot, in words and euros.
    assert "<dt>Commission</dt><dd>5 % on Banker wins</dd>" in html
    assert "<dt>Tie pays</dt><dd>8 to 1</dd>" in html
    assert "<dt>Limits: Player</dt><dd>€1.00 – €500.00</dd>" in html
    assert "tie_pays" not in html
    # A settled round is voided only for a malfunction.
    assert "Void this settled round" in html
    assert 'value="dealing_error"' not in html


def test_void_returns_every_stake_and_is_shown(
    client, support_user, alice, single_table, play_round
):
    round = play_round(alice, single_table, settle=False)
    stack = Account.objects.get(kind="stack", owner=alice, table=single_table)
    before = stack.balance
    client.force_login(support_user)
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "malfunction", "reason": "Card reader fault", "confirm": "1"},
    )
    assert response.status_code == 302
    round.refresh_from_db()
    stack.refresh_from_db()
    assert round.state == Round.State.VOID
    assert round.void_reason == "Card reader fault"
    assert stack.balance == before + 500
    assert Transaction.objects.filter(round=round, kind="refund").count() == 1
    assert audit_ledger() == []


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501])
def test_void_needs_a_reason_and_changes_nothing(
    client, support_user, alice, single_table, play_round, reason
):
    round = play_round(alice, single_table, settle=False)
    transactions = Transaction.objects.count()
    client.force_login(support_user)
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "malfunction", "reason": reason, "confirm": "1"},
    )
    assert response.status_code == 400
    round.refresh_from_db()
    assert round.state == Round.State.LOCKED
    assert Transaction.objects.count() == transactions


@pytest.mark.parametrize("cause", ["dealing_error", "complaint_upheld", "other"])
def test_a_settled_round_is_voided_only_for_a_malfunction(
    client, support_user, alice, single_table, play_round, cause
):
    round = play_round(alice, single_table)
    transactions = Transaction.objects.count()
    client.force_login(support_user)
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": cause, "reason": "oops", "confirm": "1"},
    )
    assert response.status_code == 400
    assert "A settled round can be voided only for a malfunction" in response.content.decode()
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert Transaction.objects.count() == transactions


def test_void_is_idempotent_on_replay(client, support_user, alice, single_table, play_round):
    round = play_round(alice, single_table, settle=False)
    client.force_login(support_user)
    url = reverse("support:void", args=[round.pk])
    data = {"cause": "malfunction", "reason": "Fault", "confirm": "1"}
    assert client.post(url, data).status_code == 302
    again = client.post(url, data, follow=True)
    assert "This round was void already; nothing changed." in again.content.decode()
    assert Transaction.objects.filter(round=round, kind="refund").count() == 1


def test_player_page(client, support_user, alice, single_table, play_round):
    round = play_round(alice, single_table)
    client.force_login(support_user)
    html = client.get(reverse("support:player", args=[alice.pk])).content.decode()
    assert f"#{round.pk}" in html
    assert "Golden Baccarat" in html
    assert "Starting chips" in html


def test_players_are_refused_and_the_denial_logged(client, alice, single_table, caplog):
    client.force_login(alice)
    with caplog.at_level(logging.WARNING, logger="casino.security"):
        assert client.get(reverse("support:search")).status_code == 403
    assert "access denied" in caplog.text and "alice" in caplog.text


def test_void_needs_csrf(support_user, alice, single_table, play_round):
    from django.test import Client

    round = play_round(alice, single_table, settle=False)
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(support_user)
    response = csrf_client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "malfunction", "reason": "Fault", "confirm": "1"},
    )
    assert response.status_code == 403
    round.refresh_from_db()
    assert round.state == Round.State.LOCKED


def test_search_query_budget(
    client, support_user, alice, single_table, play_round, django_assert_max_num_queries
):
    for _ in range(5):
        play_round(alice, single_table)
    client.force_login(support_user)
    with django_assert_max_num_queries(8):
        client.get(reverse("support:search"), {"player": "alice"})
