"""The player's protocol as a CSV file a spreadsheet opens as it is."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from baccarat.models import Round, Table
from baccarat.play import betting, rounds
from baccarat.protocol.exports import csv_safe, euros
from wallet import services as wallet

BOM = "\ufeff"
# The banker wins with 3 + 4 = 7 against the player's 9 + 2 + 5 = 16, a 6.
BANKER_WINS = "9S 3H 2D 4C 5H 6D"


def _export(client: Any, delimiter: str = ",", **params: Any) -> list[dict[str, str]]:
    response = client.get(reverse("baccarat:protocol_export"), params)
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    reader = csv.DictReader(io.StringIO(text.removeprefix(BOM)), delimiter=delimiter)
    return list(reader)


def _played_round(player: Any, table: Table, stakes: dict[str, int] | None = None) -> Round:
    round = betting.round_open(table=table, player=player)
    for kind, amount in (stakes or {"player": 100}).items():
        betting.bet_place(round=round, player=player, kind=kind, amount=amount)
    return rounds.round_play(round_id=round.pk).round


@pytest.fixture
def banker_round(
    alice: Any, cut_table: Table, rigged_shoe: Callable[..., Any]
) -> Callable[..., Round]:
    """Alice, 50.00 on her stack, plays one coup the banker wins with ``stakes``."""

    def play(stakes: dict[str, int]) -> Round:
        rigged_shoe(cut_table, BANKER_WINS, alice)
        wallet.wallet_rebuy(player=alice, table=cut_table, amount=50_00, reference="rebuy")
        return _played_round(alice, cut_table, stakes)

    return play


@pytest.mark.parametrize("cell", ["=1+2", "+1", "-1", "@SUM(1)", "\tx", "\rx"])
def test_csv_safe_neutralises_a_formula(cell: str) -> None:
    assert csv_safe(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["", "Golden", "9S 2D 5H", "a=b"])
def test_csv_safe_leaves_plain_text_alone(cell: str) -> None:
    assert csv_safe(cell) == cell


@pytest.mark.parametrize(
    ("cents", "text"),
    [(1250, "12.50"), (-300, "-3.00"), (0, "0.00"), (5, "0.05"), (-5, "-0.05"), (None, "")],
)
def test_euros_are_decimal_with_a_dot_and_two_places(cents: int | None, text: str) -> None:
    assert euros(cents) == text


def test_export_is_utf8_with_a_bom(client: Any, seated: Any, table: Table) -> None:
    _played_round(seated, table)
    client.force_login(seated)
    response = client.get(reverse("baccarat:protocol_export"))
    assert response.content.startswith(b"\xef\xbb\xbf")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="protocol.csv"'


def test_header_names_every_column_in_english(client: Any, alice: Any) -> None:
    client.force_login(alice)
    text = client.get(reverse("baccarat:protocol_export")).content.decode().removeprefix(BOM)
    header = next(csv.reader(io.StringIO(text)))
    assert header == [
        "Round",
        "Date",
        "Table",
        "Shoe",
        "Hand",
        "Player cards",
        "Banker cards",
        "Player total",
        "Banker total",
        "Outcome",
        "outcome_code",
        "Stake Player",
        "Paid Player",
        "Stake Banker",
        "Paid Banker",
        "Stake Tie",
        "Paid Tie",
        "Stake Player pair",
        "Paid Player pair",
        "Stake Banker pair",
        "Paid Banker pair",
        "Stake",
        "Paid",
        "Commission",
        "Net",
        "Balance before",
        "Balance after",
        "Status",
        "status_code",
        "Void reason",
    ]


def test_amounts_are_euros_and_a_loss_stays_a_number(
    client: Any, alice: Any, banker_round: Callable[..., Round]
) -> None:
    banker_round({"player": 300})
    client.force_login(alice)
    [row] = _export(client)
    assert (row["Stake"], row["Paid"], row["Commission"]) == ("3.00", "0.00", "0.00")
    assert row["Net"] == "-3.00"
    assert (row["Balance before"], row["Balance after"]) == ("50.00", "47.00")


def test_each_spot_has_its_own_stake_and_paid_columns(
    client: Any, alice: Any, banker_round: Callable[..., Round]
) -> None:
    banker_round({"player": 300, "tie": 100})
    client.force_login(alice)
    [row] = _export(client)
    assert (row["Stake Player"], row["Paid Player"]) == ("3.00", "0.00")
    assert (row["Stake Tie"], row["Paid Tie"]) == ("1.00", "0.00")
    assert (row["Stake Banker"], row["Paid Banker"]) == ("", "")
    assert (row["Stake Banker pair"], row["Paid Banker pair"]) == ("", "")


def test_outcome_and_status_have_words_and_codes(
    client: Any, alice: Any, banker_round: Callable[..., Round]
) -> None:
    banker_round({"banker": 1000})
    client.force_login(alice)
    [row] = _export(client)
    assert (row["Outcome"], row["outcome_code"]) == ("Banker", "banker")
    assert (row["Status"], row["status_code"]) == ("Played", "played")


def test_words_are_in_the_players_language(
    client: Any, alice: Any, banker_round: Callable[..., Round]
) -> None:
    alice.language = "de"
    alice.save()
    banker_round({"banker": 1000})
    client.force_login(alice)
    [row] = _export(client, delimiter=";")
    assert (row["Ergebnis"], row["outcome_code"]) == ("Bank", "banker")
    assert (row["Status"], row["status_code"]) == ("Gespielt", "played")
    # The round and the hand number are two columns with two names.
    assert "Runde" in row and "Hand" in row


def test_a_void_round_shows_its_reason(
    client: Any, seated: Any, support: Any, table: Table
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    rounds.round_lock(round_id=round.pk)
    rounds.round_void(round_id=round.pk, reason="-Shuffler jam", by=support)
    client.force_login(seated)
    [row] = _export(client)
    assert (row["Status"], row["status_code"]) == ("Void", "void")
    assert row["Void reason"] == "'-Shuffler jam"
    assert (row["Outcome"], row["outcome_code"], row["Net"]) == ("", "", "0.00")


@pytest.mark.parametrize(
    ("zone", "local"),
    [
        ("Europe/Berlin", "2026-11-30T14:02:11+01:00"),
        ("Europe/Berlin", "2026-07-01T15:02:11+02:00"),
        ("America/New_York", "2026-11-30T08:02:11-05:00"),
    ],
)
def test_times_are_local_with_their_offset(
    client: Any, seated: Any, table: Table, settings: Any, zone: str, local: str
) -> None:
    settings.TIME_ZONE = zone
    round = _played_round(seated, table)
    utc = datetime.fromisoformat(local).astimezone(UTC)
    Round.objects.filter(pk=round.pk).update(created_at=utc)
    client.force_login(seated)
    [row] = _export(client)
    assert row["Date"] == local


def test_table_names_cannot_become_formulas(client: Any, alice: Any) -> None:
    hyperlink = Table.objects.create(name='=HYPERLINK("x")', slug="hyperlink")
    summing = Table.objects.create(name="@SUM(1)", slug="summing")
    for reference, evil in enumerate([hyperlink, summing]):
        wallet.wallet_rebuy(player=alice, table=evil, amount=10_00, reference=f"r{reference}")
        _played_round(alice, evil)
    client.force_login(alice)
    names = {row["Table"] for row in _export(client)}
    assert names == {'\'=HYPERLINK("x")', "'@SUM(1)"}


def test_another_players_rounds_are_absent(
    client: Any, seated: Any, bob: Any, table: Table
) -> None:
    mine = _played_round(seated, table)
    wallet.wallet_rebuy(player=bob, table=table, amount=10_00, reference="bob")
    _played_round(bob, table)
    client.force_login(seated)
    assert [row["Round"] for row in _export(client)] == [str(mine.pk)]


def test_filters_still_apply(client: Any, seated: Any, table: Table) -> None:
    other = Table.objects.create(name="Other", slug="other")
    wallet.wallet_rebuy(player=seated, table=other, amount=10_00, reference="other")
    _played_round(seated, table)
    there = _played_round(seated, other)
    client.force_login(seated)
    assert [row["Round"] for row in _export(client, table=other.pk)] == [str(there.pk)]


def test_query_count_does_not_grow_with_the_rounds(
    client: Any, seated: Any, table: Table, django_assert_max_num_queries: Any
) -> None:
    client.force_login(seated)
    _played_round(seated, table, {"player": 100, "tie": 100})
    with django_assert_max_num_queries(8):
        client.get(reverse("baccarat:protocol_export"))
    for _ in range(12):
        _played_round(seated, table, {"player": 100, "tie": 100})
    with django_assert_max_num_queries(8):
        response = client.get(reverse("baccarat:protocol_export"))
    assert len(response.content.decode().strip().splitlines()) == 14


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_a_spreadsheet_in_the_players_language_opens_it_in_columns(
    client: Any, alice: Any, banker_round: Callable[..., Round], language: str
) -> None:
    """Semicolons between the columns and a decimal comma, as German, Italian and Dutch
    spreadsheets read a CSV; the page says so beside the link."""
    alice.language = language
    alice.save()
    banker_round({"banker": 1000})
    client.force_login(alice)
    text = client.get(reverse("baccarat:protocol_export")).content.decode().removeprefix(BOM)
    header, row = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert len(header) == len(row) > 20
    # The banker's 10,00 paid 19,50 (commission 0,50): amounts with a decimal comma.
    assert "10,00" in row and "19,50" in row and "0,50" in row
    assert not [cell for cell in row if "." in cell and cell.replace(".", "").isdigit()]
    page = client.get(reverse("baccarat:protocol_list")).content.decode()
    with translation.override(language):
        note = gettext(
            "columns divided by semicolons, amounts with a decimal comma, as a spreadsheet"
            " in your language opens it"
        )
    assert escape(note) in page


def test_an_english_export_keeps_commas_and_a_decimal_point(
    client: Any, alice: Any, banker_round: Callable[..., Round]
) -> None:
    banker_round({"banker": 1000})
    client.force_login(alice)
    [row] = _export(client)
    assert row["Stake"] == "10.00" and row["Paid"] == "19.50"


def test_an_invalid_filter_exports_nothing_and_says_why(
    client: Any, seated: Any, table: Table
) -> None:
    _played_round(seated, table)
    client.force_login(seated)
    for params, error in (
        ({"date_from": "yesterday"}, "Enter a valid date."),
        ({"table": "999999"}, "You have played no rounds at that table."),
        ({"outcome": "dragon"}, "Select a valid choice."),
    ):
        response = client.get(reverse("baccarat:protocol_export"), params)
        assert response.status_code == 400
        assert response["Content-Type"].startswith("text/html")
        assert error in response.content.decode()
