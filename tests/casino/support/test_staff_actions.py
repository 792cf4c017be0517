"""Staff actions are records: exports, player and round pages viewed too; superusers read
them in the admin, nobody changes or deletes them."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from casino.accounts.models import User
from casino.support.models import StaffAction

pytestmark = pytest.mark.django_db


def test_a_csv_export_is_recorded_with_its_filters(
    client: Any, support_user: Any, alice: Any, single_table: Any, play_round: Any
) -> None:
    play_round(alice, single_table)
    client.force_login(support_user)
    client.get(reverse("support:search"), {"table": single_table.pk})  # a search alone is not
    assert not StaffAction.objects.exists()
    response = client.get(
        reverse("support:search"), {"player": "alice", "table": single_table.pk, "export": "csv"}
    )
    b"".join(response.streaming_content)
    action = StaffAction.objects.get()
    assert (action.kind, action.actor, action.subject) == ("rounds_exported", support_user, None)
    assert action.details == {"filters": {"player": "alice", "table": single_table.pk}}


def test_listing_a_players_rounds_is_recorded(
    client: Any, support_user: Any, alice: Any, single_table: Any, play_round: Any
) -> None:
    """The rounds of one player are their protocol: support reading it is on the record,
    each page and each HTMX update; a search that names nobody is not."""
    play_round(alice, single_table)
    client.force_login(support_user)
    page = client.get(reverse("support:search"), {"player": "ALICE", "status": "played"})
    assert page.status_code == 200 and "alice" in page.content.decode()
    action = StaffAction.objects.get()
    assert (action.kind, action.actor, action.subject) == ("protocol_viewed", support_user, alice)
    assert action.details == {"filters": {"player": "ALICE", "status": "played"}, "page": 1}
    client.get(reverse("support:search"), {"player": "alice"}, headers={"HX-Request": "true"})
    client.get(reverse("support:search"), {"player": "nobody"})  # no such player: on record
    assert list(StaffAction.objects.order_by("pk").values_list("subject", flat=True)) == [
        alice.pk,
        alice.pk,
        None,
    ]
    # An invalid search lists nothing and records nothing.
    client.get(reverse("support:search"), {"player": "alice", "round_id": "abc"})
    assert StaffAction.objects.count() == 3


def test_a_bad_export_exports_and_records_nothing(client: Any, support_user: Any) -> None:
    client.force_login(support_user)
    response = client.get(reverse("support:search"), {"round_id": "abc", "export": "csv"})
    assert response["Content-Type"].startswith("text/html")
    assert not StaffAction.objects.exists()


def test_viewing_a_player_is_recorded(client: Any, support_user: Any, alice: Any) -> None:
    client.force_login(support_user)
    client.get(reverse("support:player", args=[alice.pk]))
    action = StaffAction.objects.get()
    assert (action.kind, action.actor, action.subject) == ("player_viewed", support_user, alice)


def test_viewing_a_players_round_is_recorded(
    client: Any, support_user: Any, alice: Any, single_table: Any, play_round: Any
) -> None:
    round = play_round(alice, single_table)
    client.force_login(support_user)
    page = client.get(reverse("support:round", args=[round.pk]))
    assert page.status_code == 200
    action = StaffAction.objects.get()
    assert (action.kind, action.actor, action.subject) == ("round_viewed", support_user, alice)
    assert action.details == {"round": round.pk, "table": single_table.pk, "players": [alice.pk]}
    # Each read is one more record; the round's page lists what was done to it, not reads.
    page = client.get(reverse("support:round", args=[round.pk])).content.decode()
    assert StaffAction.objects.filter(kind="round_viewed").count() == 2
    assert "Round page viewed" not in page


def test_a_round_page_refused_or_missing_is_not_recorded(
    client: Any, support_user: Any, bob: Any, alice: Any, single_table: Any, play_round: Any
) -> None:
    round = play_round(alice, single_table)
    client.force_login(bob)
    assert client.get(reverse("support:round", args=[round.pk])).status_code == 403
    client.force_login(support_user)
    assert client.get(reverse("support:round", args=[round.pk + 1000])).status_code == 404
    assert not StaffAction.objects.exists()


def test_a_player_page_refused_is_not_recorded(client: Any, bob: Any, alice: Any) -> None:
    client.force_login(bob)
    assert client.get(reverse("support:player", args=[alice.pk])).status_code == 403
    assert not StaffAction.objects.exists()


def test_superusers_read_staff_actions_and_nobody_changes_them(
    client: Any, support_user: Any, alice: Any
) -> None:
    client.force_login(support_user)
    client.get(reverse("support:player", args=[alice.pk]))
    action = StaffAction.objects.get()
    root = User.objects.create_superuser(username="root", password="root-pass-123")
    client.force_login(root)
    listing = client.get(reverse("admin:support_staffaction_changelist")).content.decode()
    assert "Player page viewed" in listing
    change = reverse("admin:support_staffaction_change", args=[action.pk])
    assert client.get(change).status_code == 200  # read
    client.post(change, {"reason": "edited"})
    delete = reverse("admin:support_staffaction_delete", args=[action.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    action.refresh_from_db()
    assert action.reason == "" and StaffAction.objects.count() == 1
