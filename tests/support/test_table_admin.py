from __future__ import annotations

import json

import pytest
from django.urls import reverse

from baccarat import betting, rounds
from baccarat.admin_forms import table_config
from baccarat.models import Table
from casino.support.models import TableChange
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db


def form_data(table: Table, **changes) -> dict:
    data = table_config(table)
    data.update(changes)
    data["chip_values"] = json.dumps(data["chip_values"])
    return {
        key: ("on" if value is True else "" if value is False else value)
        for key, value in data.items()
    }


def change(client, table, **changes):
    return client.post(
        reverse("admin:baccarat_table_change", args=[table.pk]), form_data(table, **changes)
    )


def test_table_admin_changes_a_table_and_the_audit_log_records_it(
    client, table_admin, single_table
):
    client.force_login(table_admin)
    response = change(client, single_table, tie_pays=9, max_tie=20000)
    assert response.status_code == 302, response.context["adminform"].form.errors
    single_table.refresh_from_db()
    assert (single_table.tie_pays, single_table.max_tie) == (9, 20000)
    log = TableChange.objects.get()
    assert log.changed_by == table_admin
    assert log.before["tie_pays"] == 8 and log.after["tie_pays"] == 9
    assert {name for name, _, _ in log.changed_fields()} == {"tie_pays", "max_tie"}


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"min_player": 5000, "max_player": 1000}, "max_player", "below the minimum"),
        ({"max_banker": 10**9}, "max_banker", "above the casino's cap"),
        ({"min_tie": 0}, "min_tie", "above zero"),
        ({"decks": 7}, "decks", "Select a valid choice"),
        ({"penetration_percent": 40}, "penetration_percent", "between 50% and 95%"),
        ({"penetration_percent": 99}, "penetration_percent", "between 50% and 95%"),
        ({"betting_seconds": 3}, "betting_seconds", "between 5 and 60 seconds"),
        ({"betting_seconds": 61}, "betting_seconds", "between 5 and 60 seconds"),
        ({"chip_values": [500, 100]}, "chip_values", "ascending"),
        ({"chip_values": [0, 100]}, "chip_values", "positive"),
        ({"tie_pays": 7}, "tie_pays", "Select a valid choice"),
        ({"seats": 3}, "seats", "Select a valid choice"),
        ({"seats": 8}, "seats", "single-player table has 1 seat"),
        ({"commission": "ten_percent"}, "commission", "Select a valid choice"),
        ({"kind": "practice"}, "kind", "Select a valid choice"),
    ],
)
def test_bad_configuration_is_explained_and_changes_nothing(
    client, table_admin, single_table, changes, field, message
):
    before = table_config(single_table)
    client.force_login(table_admin)
    response = change(client, single_table, **changes)
    assert response.status_code == 200
    errors = " ".join(str(e) for e in response.context["adminform"].form.errors.get(field, []))
    assert message in errors
    single_table.refresh_from_db()
    assert table_config(single_table) == before
    assert not TableChange.objects.exists()


def test_a_change_never_reaches_a_round_in_play(client, table_admin, alice, single_table):
    wallet_rebuy(player=alice, table=single_table, amount=100_00, reference="admin-rebuy")
    in_play = betting.round_open(table=single_table, player=alice)
    client.force_login(table_admin)
    assert change(client, single_table, tie_pays=9).status_code == 302
    in_play.refresh_from_db()
    assert in_play.rules["tie_pays"] == 8
    betting.bet_place(round=in_play, player=alice, kind="tie", amount=100)
    rounds.round_play(round_id=in_play.pk)
    single_table.refresh_from_db()  # as the next request loads it
    next_round = betting.round_open(table=single_table, player=alice)
    assert next_round.rules["tie_pays"] == 9


def test_support_cannot_change_tables(client, support_user, single_table):
    client.force_login(support_user)
    assert change(client, single_table, tie_pays=9).status_code == 403
    single_table.refresh_from_db()
    assert single_table.tie_pays == 8


def test_nobody_can_edit_the_audit_log(client, admin_user, table_admin, single_table):
    client.force_login(table_admin)
    change(client, single_table, tie_pays=9)
    log = TableChange.objects.get()
    client.force_login(admin_user)
    url = reverse("admin:support_tablechange_change", args=[log.pk])
    assert client.get(url).status_code == 200  # readable
    client.post(url, {"after": "{}"})
    assert (
        client.post(reverse("admin:support_tablechange_delete", args=[log.pk])).status_code == 403
    )
    log.refresh_from_db()
    assert log.after["tie_pays"] == 9


def test_table_admin_can_create_a_table_and_it_is_logged(client, table_admin):
    client.force_login(table_admin)
    template = Table(name="New", slug="new-table")
    response = client.post(reverse("admin:baccarat_table_add"), form_data(template))
    assert response.status_code == 302, response.context["adminform"].form.errors
    table = Table.objects.get(slug="new-table")
    assert TableChange.objects.get(table=table).before is None
