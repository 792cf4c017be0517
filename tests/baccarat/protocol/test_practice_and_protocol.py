from __future__ import annotations

import csv
import io
import re
from typing import Any

from django.urls import reverse

from baccarat.models import PracticeSession, Round, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import practice_for
from wallet.models import Account, Transaction

HTMX = {"HTTP_HX_REQUEST": "true"}


def _wallet(player: Any) -> int:
    return Account.objects.get(kind="wallet", owner=player).balance


def test_practice_session_end_to_end(client: Any, alice: Any) -> None:
    wallet_before = _wallet(alice)
    client.force_login(alice)
    assert client.get(reverse("baccarat:practice_new")).status_code == 200
    response = client.post(
        reverse("baccarat:practice_new"),
        {
            "decks": 8,
            "starting_chips": 1000,
            "hands": 10,
            "tie_pays": 9,
            "pairs_enabled": "on",
            "commission": "banker_seven",
        },
    )
    session = PracticeSession.objects.get(player=alice)
    table = session.table
    assert response.status_code == 302
    assert table.kind == Table.Kind.PRACTICE and table.owner == alice
    assert table.burn == Table.Burn.FIRST_CARD and table.penetration_percent == 89
    page = client.get(reverse("baccarat:table", args=[table.slug]))
    assert page.status_code == 200
    for _ in range(10):
        client.post(
            reverse("baccarat:table_bet", args=[table.slug]),
            {"kind": "banker", "amount": 500},
            **HTMX,
        )
        dealt = client.post(reverse("baccarat:table_deal", args=[table.slug]), {}, **HTMX)
    session.refresh_from_db()
    assert session.state == PracticeSession.State.FINISHED
    # The last DEAL's answer shows the stack after the session returned it: none.
    assert '<span class="outcome">€0.00</span>' in dealt.content.decode().split('id="stack"')[1]
    assert session.hands_played == 10
    assert session.hands_won + session.hands_lost + session.hands_pushed == 10
    assert session.final_chips == 1000_00 + session.net
    assert Account.objects.get(kind="stack", owner=alice, table=table).balance == 0
    assert Transaction.objects.filter(kind="practice_return").count() == 1
    assert _wallet(alice) == wallet_before
    # No eleventh hand.
    response = client.post(
        reverse("baccarat:table_bet", args=[table.slug]), {"kind": "banker", "amount": 500}, **HTMX
    )
    assert Round.objects.filter(table=table).count() == 10
    summary = client.get(reverse("baccarat:practice_summary", args=[session.pk]))
    assert summary.status_code == 200
    assert b"Biggest win" in summary.content


def _played_round(player: Any, table: Table, kind: str = "player") -> Round:
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind=kind, amount=100)
    return rounds.round_play(round_id=round.pk).round


def test_protocol_list_detail_and_export(client: Any, seated: Any, table: Table) -> None:
    rounds = [_played_round(seated, table) for _ in range(3)]
    client.force_login(seated)
    listing = client.get(reverse("baccarat:protocol_list"))
    assert listing.status_code == 200
    for round in rounds:
        assert f"#{round.pk}".encode() in listing.content
    partial = client.get(reverse("baccarat:protocol_list"), {"outcome": "tie"}, **HTMX)
    assert b"<html" not in partial.content
    detail = client.get(reverse("baccarat:protocol_detail", args=[rounds[0].pk]))
    assert detail.status_code == 200
    # Each card once: its symbol (and its name for a screen reader), not its code too.
    cells = detail.content.decode().split(f'data-codes="{rounds[0].player_cards}">', 1)[1]
    shown = re.sub(r"<[^>]+>", " ", cells.split("</td>", 1)[0])
    assert rounds[0].player_cards.split()[0] not in shown.split()
    assert len(re.findall(r'class="card-text', cells.split("</td>", 1)[0])) == len(
        rounds[0].player_cards.split()
    )
    export = client.get(reverse("baccarat:protocol_export"))
    rows = list(csv.reader(io.StringIO(export.content.decode())))
    assert len(rows) == 4
    assert {int(row[0]) for row in rows[1:]} == {r.pk for r in rounds}


def test_protocol_of_another_player_is_404(
    client: Any, seated: Any, bob: Any, table: Table
) -> None:
    round = _played_round(seated, table)
    client.force_login(bob)
    assert client.get(reverse("baccarat:protocol_detail", args=[round.pk])).status_code == 404
    export = client.get(reverse("baccarat:protocol_export"))
    assert len(export.content.decode().strip().splitlines()) == 1


def test_protocol_shows_void_reason(client: Any, seated: Any, support: Any, table: Table) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    rounds.round_lock(round_id=round.pk)
    rounds.round_void(round_id=round.pk, reason="Shuffler jam", by=support)
    client.force_login(seated)
    detail = client.get(reverse("baccarat:protocol_detail", args=[round.pk]))
    assert b"Shuffler jam" in detail.content


# The session's user, the filter's tables, the count for the pages, the page's lines
# (play, round and table in one read; no bets); the session too where it is not cached.
PROTOCOL_LIST_BUDGET = 5


def test_protocol_list_query_count_is_constant(
    client: Any, seated: Any, table: Table, django_assert_max_num_queries: Any
) -> None:
    client.force_login(seated)
    _played_round(seated, table)
    with django_assert_max_num_queries(PROTOCOL_LIST_BUDGET):
        client.get(reverse("baccarat:protocol_list"))
    for _ in range(12):
        _played_round(seated, table)
    with django_assert_max_num_queries(PROTOCOL_LIST_BUDGET):
        response = client.get(reverse("baccarat:protocol_list"))
    assert response.content.count(b"/protocol/") >= 13


def test_protocol_lines_say_how_each_round_ended_in_the_readers_language(
    client: Any, seated: Any, support: Any, table: Table
) -> None:
    played = _played_round(seated, table, "banker")
    recovered = betting.round_open(table=table, player=seated)
    betting.bet_place(round=recovered, player=seated, kind="player", amount=100)
    rounds.round_lock(round_id=recovered.pk)
    rounds.round_settle(round_id=recovered.pk, completion=Round.Completion.SERVER)
    voided = betting.round_open(table=table, player=seated)
    betting.bet_place(round=voided, player=seated, kind="tie", amount=100)
    rounds.round_lock(round_id=voided.pk)
    rounds.round_void(round_id=voided.pk, reason="Shuffler jam", by=support)
    in_practice = _played_round(seated, practice_for(seated).table)
    client.force_login(seated)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("baccarat:protocol_list")).content.decode()
    lines = {
        round.pk: html.split(f">#{round.pk}</a>", 1)[1].split("</tr>", 1)[0]
        for round in (played, recovered, voided, in_practice)
    }
    played.refresh_from_db()
    # The score in words, the winner first (a tie: its word and the total twice).
    p, b = played.player_total, played.banker_total
    score = {
        "player": f"<td>Spieler {p} – Bank {b}</td>",
        "banker": f"<td>Bank {b} – Spieler {p}</td>",
        "tie": f" {p} – {p}</td>",
    }[played.outcome]
    assert score in lines[played.pk] and ":" not in lines[played.pk].split("<td>")[1]
    assert "<td>Gespielt</td>" in lines[played.pk]
    assert "<td>Vom Server abgeschlossen</td>" in lines[recovered.pk]
    assert "<td>—</td>" in lines[voided.pk] and "<td>Annulliert</td>" in lines[voided.pk]
    practice_line = html.split(f">#{in_practice.pk}</a>", 1)[0].rsplit("<tr>", 1)[1]
    assert "<td>Übungsspiel</td>" in practice_line


def test_protocol_filter_bad_dates_shows_error(client: Any, seated: Any) -> None:
    client.force_login(seated)
    response = client.get(
        reverse("baccarat:protocol_list"), {"date_from": "2026-02-01", "date_to": "2026-01-01"}
    )
    assert b"The start date is after the end date." in response.content


def test_protocol_pages_keep_the_filter(client: Any, seated: Any, table: Table) -> None:
    """Past 25 rounds the list pages; Previous and Next keep the chosen filters."""
    for _ in range(26):
        _played_round(seated, table)
    client.force_login(seated)
    first = client.get(reverse("baccarat:protocol_list"), {"table": table.pk}).content.decode()
    assert "Page 1 of 2" in first
    assert f'href="?table={table.pk}&amp;page=2"' in first
    second = client.get(reverse("baccarat:protocol_list"), {"table": table.pk, "page": 2})
    assert f'href="?table={table.pk}&amp;page=1"' in second.content.decode()
    unfiltered = client.get(reverse("baccarat:protocol_list")).content.decode()
    assert 'href="?page=2"' in unfiltered


def test_protocol_filter_offers_the_players_own_tables_in_their_language(
    client: Any, seated: Any, bob: Any, table: Table, cut_table: Table
) -> None:
    """The filter lists the tables the player played at (a practice table as "Practice" in
    their language), not others; another table's id, or a huge one, is refused with the
    form's message and filters nothing."""
    from wallet import services as wallet

    mine = _played_round(seated, table)
    practised = _played_round(seated, practice_for(seated).table)
    wallet.wallet_rebuy(player=bob, table=cut_table, amount=50_00, reference="bob-cut")
    _played_round(bob, cut_table)
    client.force_login(seated)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("baccarat:protocol_list")).content.decode()
    select = html.split('<select name="table"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>Alle Tische</option>' in select
    assert f'<option value="{table.pk}">{table.name}</option>' in select
    assert ">Übungsspiel</option>" in select
    assert f'value="{cut_table.pk}"' not in select
    filtered = client.get(reverse("baccarat:protocol_list"), {"table": table.pk}).content.decode()
    assert f">#{mine.pk}</a>" in filtered and f">#{practised.pk}</a>" not in filtered
    for refused in (cut_table.pk, 10**30, "x"):
        answer = client.get(reverse("baccarat:protocol_list"), {"table": refused})
        assert answer.status_code == 200
        body = answer.content.decode()
        assert "An diesem Tisch haben Sie keine Runden gespielt." in body
        assert f">#{mine.pk}</a>" in body and f">#{practised.pk}</a>" in body  # unfiltered


def test_protocol_lines_link_each_round_and_show_its_local_time(
    client: Any, seated: Any, table: Table
) -> None:
    """The link and the time, put together once per page, are what ``{% url %}`` and
    ``date_format`` in the reader's language and time zone would give."""
    from django.utils import translation
    from django.utils.formats import date_format
    from django.utils.timezone import localtime

    played = [_played_round(seated, table) for _ in range(3)]
    client.force_login(seated)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("baccarat:protocol_list")).content.decode()
    for round in played:
        round.refresh_from_db()
        with translation.override("de"):
            when = date_format(localtime(round.created_at), "SHORT_DATETIME_FORMAT")
        url = reverse("baccarat:protocol_detail", args=[round.pk])
        assert f"<td>{when}</td>" in html.split(f'<a href="{url}">#{round.pk}</a>')[0][-200:]
