"""Support's void in two steps (the form, then a confirmation that shows what will move),
the round page as a person reads it, and two voids at once making one reversal."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse

from baccarat.integrity.audit import audit_violations
from baccarat.models import Reversal, Round, Table
from casino.support import voids
from casino.support.models import StaffAction
from wallet.models import Account, Entry, Transaction

pytestmark = pytest.mark.django_db

MALFUNCTION = Round.VoidCause.MALFUNCTION


def ledger_state() -> tuple[int, int, list[int]]:
    return (
        Transaction.objects.count(),
        Entry.objects.count(),
        list(Account.objects.order_by("pk").values_list("balance", flat=True)),
    )


def test_the_first_step_shows_what_will_move_and_changes_nothing(
    client: Any, support_user: Any, alice: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice)  # alice won 10.00 on a 5.00 stake
    before = ledger_state()
    client.force_login(support_user)
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "malfunction", "reason": "Reader froze"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Void round #{round.pk}?" in html
    assert "Reader froze" in html and "Malfunction" in html
    assert '<td>alice</td><td class="num">€5.00</td><td class="num">€10.00</td>' in html
    assert 'name="confirm" value="1"' in html
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert ledger_state() == before
    assert not StaffAction.objects.exists()


def test_the_confirmation_voids_and_support_sees_what_was_reversed(
    client: Any, support_user: Any, alice: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice)
    client.force_login(support_user)
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "malfunction", "reason": "Reader froze", "confirm": "1"},
        follow=True,
    )
    html = response.content.decode()
    assert "The round is void; what was reversed is below." in html
    assert "What the void reversed" in html
    assert "<dd>Void · after its settlement</dd>" in html  # the state said once
    assert "<dd>Malfunction: Reader froze</dd>" in html
    assert "Round voided" in html  # the staff action, on the round's page
    action = StaffAction.objects.get(kind=StaffAction.Kind.ROUND_VOIDED)
    assert (action.actor, action.subject, action.reason) == (support_user, alice, "Reader froze")
    assert action.details["round"] == round.pk and action.details["after_settlement"] is True
    assert audit_violations() == []


@pytest.mark.parametrize(
    "data",
    [
        {"reason": "Fault", "confirm": "1"},  # no cause
        {"cause": "sunspots", "reason": "Fault", "confirm": "1"},
        {"cause": "malfunction", "reason": "  ", "confirm": "1"},
        {"cause": "malfunction", "reason": "x" * 501, "confirm": "1"},
        {"cause": "other", "reason": "Fault", "confirm": "1"},  # settled: malfunction only
    ],
)
def test_bad_input_changes_nothing(
    client: Any, support_user: Any, alice: Any, rigged_round: Any, data: dict[str, str]
) -> None:
    round = rigged_round(alice)
    before = ledger_state()
    client.force_login(support_user)
    response = client.post(reverse("support:void", args=[round.pk]), data)
    assert response.status_code == 400
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert ledger_state() == before
    assert not Reversal.objects.exists() and not StaffAction.objects.exists()


def test_a_closed_round_offers_no_void(client: Any, support_user: Any, alice: Any) -> None:
    table = Table.objects.create(name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8)
    round = Round.objects.create(
        table=table, rules=table.rule_snapshot(), shared=True, state=Round.State.CLOSED
    )
    client.force_login(support_user)
    assert (
        "Review the void"
        not in client.get(reverse("support:round", args=[round.pk])).content.decode()
    )
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "malfunction", "reason": "Fault"},
    )
    assert response.status_code == 400
    assert "This round is already finished." in response.content.decode()


def test_an_undealt_round_shows_no_result(
    client: Any, support_user: Any, alice: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice, settle=False)  # locked: stake escrowed, no cards shown
    client.force_login(support_user)
    html = client.get(reverse("support:round", args=[round.pk])).content.decode()
    # Stake, then no payout and no net before the deal (only the ledger shows the escrow).
    assert '<td class="num">€5.00</td><td class="num">–</td><td class="num">–</td>' in html
    search = client.get(reverse("support:search"), {"player": "alice"}).content.decode()
    assert "−€5.00" not in search
    export = client.get(reverse("support:search"), {"player": "alice", "export": "csv"})
    rows = list(csv.reader(io.StringIO(b"".join(export.streaming_content).decode())))
    assert rows[1][9:12] == ["5.00", "0.00", ""]  # stake, paid, no net


def test_the_void_page_of_a_round_in_play_returns_stakes(
    client: Any, support_user: Any, alice: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice, settle=False)
    client.force_login(support_user)
    html = client.get(reverse("support:round", args=[round.pk])).content.decode()
    assert "Void this round" in html and 'value="dealing_error"' in html
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "dealing_error", "reason": "Misdeal"},
    )
    assert "Every stake in play goes back" not in response.content.decode()
    assert "Payout to take back" not in response.content.decode()
    client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "dealing_error", "reason": "Misdeal", "confirm": "1"},
    )
    round.refresh_from_db()
    assert (round.state, round.void_cause) == (Round.State.VOID, "dealing_error")


def test_the_protocol_shows_the_void_with_its_reason_and_the_reversal(
    client: Any, support_user: Any, alice: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice)
    voids.round_void_by_staff(
        round_id=round.pk, cause=MALFUNCTION, reason="Reader froze", by=support_user
    )
    client.force_login(alice)
    html = client.get(reverse("baccarat:protocol_detail", args=[round.pk])).content.decode()
    assert "Void: Malfunction · Reader froze" in html
    assert "Stake returned" in html and "Payout taken back" in html
    assert reverse("help:report", args=[round.pk]) in html


@pytest.mark.django_db(transaction=True)
def test_two_staff_voiding_at_once_reverse_once(
    support_user: Any, alice: Any, rigged_round: Any, racers: Any
) -> None:
    round = rigged_round(alice)

    def void() -> str:
        action = voids.round_void_by_staff(
            round_id=round.pk, cause=MALFUNCTION, reason="Fault", by=support_user
        )
        return "voided" if action is not None else "void already"

    results = racers.run([void, void, void, void])
    assert sorted(results) == ["void already", "void already", "void already", "voided"]
    assert Reversal.objects.count() == 1
    assert StaffAction.objects.filter(kind=StaffAction.Kind.ROUND_VOIDED).count() == 1
    assert Transaction.objects.filter(reference__startswith="void-").count() == 2
    assert audit_violations() == []


def test_staff_cannot_pick_the_servers_own_cause(
    client: Any, support_user: Any, alice: Any, rigged_round: Any
) -> None:
    """ "Not completed by the server" is the recovery's cause, not one a person chooses."""
    round = rigged_round(alice, settle=False)  # locked: every staff cause is offered
    before = ledger_state()
    client.force_login(support_user)
    page = client.get(reverse("support:round", args=[round.pk])).content.decode()
    assert 'value="dealing_error"' in page and 'value="not_completed"' not in page
    response = client.post(
        reverse("support:void", args=[round.pk]),
        {"cause": "not_completed", "reason": "Fault", "confirm": "1"},
    )
    assert response.status_code == 400
    round.refresh_from_db()
    assert round.state == Round.State.LOCKED and ledger_state() == before
    assert not Reversal.objects.exists()
    assert not StaffAction.objects.exclude(kind=StaffAction.Kind.ROUND_VIEWED).exists()
