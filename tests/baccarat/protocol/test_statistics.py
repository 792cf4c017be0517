"""The player's statistics page: the balance from the ledger, the result by bet beside the
exact odds' expectation, rounds and minutes per day; its filter, its scope (the player's
own rounds and tables, no practice, no void) and what it costs."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

import polib
import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation

from baccarat.engine.enums import BetKind, CommissionMode
from baccarat.engine.odds import exact_odds
from baccarat.models import (
    Bet,
    Play,
    Round,
    StatisticsBalance,
    StatisticsHour,
    StatisticsMark,
    Table,
    hour_floor,
)
from baccarat.play.rounds import round_void
from baccarat.protocol import charts, hours, statistics
from baccarat.protocol.statistics import Figures, Scope, activity, balance_unit, counted_figures
from baccarat.tasks import statistics_sum_hours
from wallet import services as wallet
from wallet.models import Account, Entry, Transaction

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_kept_figures() -> None:
    # Ids come again after a test's rollback: no test sees another's figures.
    cache.clear()


URL = reverse("baccarat:protocol_statistics")
CARDS = "9HKD7C5S2C"


def at(days_ago: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    """A moment ``days_ago`` days before today, in the active time zone."""
    day = timezone.localdate() - timedelta(days=days_ago)
    return timezone.make_aware(datetime(day.year, day.month, day.day, hour, minute, second))


def settled_round(
    player: Any,
    table: Table,
    when: datetime,
    bets: dict[str, tuple[int, int]],
    *,
    state: str = Round.State.SETTLED,
) -> Round:
    """A round of ``player``'s at ``table`` with ``bets`` (spot: (stake, paid back)), its
    stake and settlement posted in the ledger, all dated ``when``."""
    round = Round.objects.create(
        table=table,
        rules=table.rule_snapshot(),
        state=state,
        reserved_cards=CARDS,
        outcome=Round.Outcome.PLAYER,
        void_reason="Dealing error" if state == Round.State.VOID else "",
    )
    stake = sum(s for s, _paid in bets.values())
    paid = sum(p for _stake, p in bets.values()) if state == Round.State.SETTLED else stake
    play = Play.objects.create(
        round=round, player=player, table=table, stake_total=stake, payout_total=paid
    )
    Bet.objects.bulk_create(
        [Bet(play=play, kind=kind, stake=s, payout=p) for kind, (s, p) in bets.items()]
    )
    postings = [
        wallet.wallet_stake(
            player=player, table=table, round=round, amount=stake, reference=f"s-{round.pk}"
        ),
        wallet.wallet_settle(
            player=player,
            table=table,
            round=round,
            stake=stake,
            payout=paid,
            reference=f"p-{round.pk}",
        ),
    ]
    Round.objects.filter(pk=round.pk).update(created_at=when)
    Play.objects.filter(pk=play.pk).update(created_at=when)
    Transaction.objects.filter(pk__in=[t.pk for t in postings]).update(created_at=when)
    return round


def rebuy(player: Any, table: Table, amount: int, when: datetime) -> None:
    posted = wallet.wallet_rebuy(player=player, table=table, amount=amount, reference=f"r-{when}")
    Transaction.objects.filter(pk=posted.pk).update(created_at=when)


@pytest.fixture
def history(alice: Any, bob: Any) -> dict[str, Any]:
    """Alice's rounds: at an 8-deck table (5 % commission, tie 8 to 1, pairs) 40 days ago
    and 3 days ago, at a 6-deck table (banker three-card 7 pushes, tie 9 to 1) 3 days ago;
    a void round, a practice session's round; and Bob's round at a table of his own."""
    Transaction.objects.filter(player=alice).update(created_at=at(41, 9))  # her wallet
    eight = Table.objects.create(name="Eight", slug="eight", decks=8, pairs_enabled=True)
    six = Table.objects.create(
        name="Six",
        slug="six",
        decks=6,
        commission=Table.Commission.BANKER_SEVEN,
        tie_pays=9,
    )
    rebuy(alice, eight, 200_00, at(40, 9, 59))
    rebuy(alice, six, 100_00, at(3, 11, 59))
    settled_round(alice, eight, at(40, 10, 0, 5), {"player": (10_00, 20_00)})
    settled_round(alice, eight, at(40, 10, 0, 40), {"banker": (20_00, 0), "tie": (5_00, 0)})
    settled_round(alice, eight, at(40, 10, 3), {"banker": (10_00, 19_50)})
    settled_round(alice, six, at(3, 12, 0), {"banker": (10_00, 20_00), "tie": (2_00, 0)})
    settled_round(alice, eight, at(3, 12, 30), {"player_pair": (5_00, 60_00)})
    settled_round(alice, eight, at(3, 13), {"player": (50_00, 0)}, state=Round.State.VOID)
    practice = Table.objects.create(
        name="Practice", slug="practice-alice", kind=Table.Kind.PRACTICE, owner=alice
    )
    wallet.wallet_practice_fund(player=alice, table=practice, amount=1000_00, reference="pf")
    settled_round(alice, practice, at(3, 14), {"banker": (500_00, 0)})
    bobs = Table.objects.create(name="Bob's", slug="bobs")
    rebuy(bob, bobs, 50_00, at(2, 9))
    settled_round(bob, bobs, at(2, 10), {"tie": (10_00, 90_00)})
    return {"eight": eight, "six": six, "practice": practice, "bobs": bobs}


# How far the player's hours are summed when the figures are read: every hour that is
# over, none (every round counted from its rows), or those before ten days ago (the
# rounds of forty days ago from the hours, those of three days ago from their rows).
SUMMED = ("all hours", "no hour", "hours before ten days ago")


def no_hour_summed(monkeypatch: Any) -> None:
    """The page finds none of the player's hours summed: it counts every round."""
    monkeypatch.setattr(
        statistics,
        "hours_summed",
        lambda player, now=None: StatisticsMark(player=player, through=hours.BEGINNING),
    )


@pytest.fixture(params=SUMMED)
def summed(request: Any, monkeypatch: Any) -> str:
    if request.param == "no hour":
        no_hour_summed(monkeypatch)
    elif request.param == "hours before ten days ago":
        real = hours.hours_summed
        monkeypatch.setattr(
            statistics, "hours_summed", lambda player, now=None: real(player, now=at(10, 0))
        )
    return str(request.param)


def figures(scope: Scope) -> Figures:
    return counted_figures(scope)


def edge(decks: int, kind: str, commission: str = "five_percent", tie_pays: int = 8) -> Fraction:
    return exact_odds(decks).house_edge(
        BetKind(kind), commission=CommissionMode(commission), tie_pays=tie_pays
    )


def test_the_result_by_bet_beside_the_exact_expectation(
    alice: Any, history: Any, summed: str
) -> None:
    results = {found.kind: found for found in figures(Scope(player=alice)).bets}
    assert list(results) == ["player", "banker", "tie", "player_pair"]  # layout order
    banker = results["banker"]
    assert (banker.bets, banker.staked, banker.result) == (3, 40_00, -20_00 + 9_50 + 10_00)
    assert banker.expected_exact == -(
        30_00 * edge(8, "banker") + 10_00 * edge(6, "banker", "banker_seven")
    )
    assert banker.expected == round(banker.expected_exact)
    tie = results["tie"]
    assert (tie.staked, tie.result) == (7_00, -7_00)
    assert tie.expected_exact == -(5_00 * edge(8, "tie") + 2_00 * edge(6, "tie", tie_pays=9))
    assert results["player"].expected_exact == -10_00 * edge(8, "player")
    assert results["player_pair"].result == 55_00
    assert results["player_pair"].expected_exact == -5_00 * edge(8, "player_pair")
    # The weighted edge is the expectation over the stakes.
    assert banker.house_edge == -banker.expected_exact / 40_00


def test_rounds_and_minutes_per_day(alice: Any, history: Any, summed: str) -> None:
    days = figures(Scope(player=alice)).days
    assert [(d.day, d.rounds, d.minutes) for d in days] == [
        (at(40, 0).date(), 3, 2),  # 10:00:05 and 10:00:40 share a minute
        (at(3, 0).date(), 2, 2),
    ]
    assert [d.result for d in days] == [10_00 - 25_00 + 9_50, 10_00 - 2_00 + 55_00]
    unit, bars = activity(days, first=at(40, 0).date(), last=at(0, 0).date())
    assert unit == "day" and len(bars) == 41
    assert sum(bar.rounds for bar in bars) == 5 and bars[-1].rounds == 0


def test_more_than_four_hundred_days_are_drawn_a_week_a_bar(alice: Any, history: Any) -> None:
    days = figures(Scope(player=alice)).days
    unit, bars = activity(days, first=at(500, 0).date(), last=at(0, 0).date())
    assert unit == "week" and len(bars) in (72, 73)
    assert all(bar.day.weekday() == 0 for bar in bars)
    assert sum(bar.rounds for bar in bars) == 5


def _balances(player: Any, kinds: tuple[str, ...], **extra: Any) -> int:
    accounts = Account.objects.filter(owner=player, kind__in=kinds, **extra)
    return sum(accounts.values_list("balance", flat=True))


def test_the_balance_from_the_first_posting_to_now(alice: Any, history: Any, summed: str) -> None:
    balance = figures(Scope(player=alice)).balance
    assert balance is not None
    assert balance.start == at(41, 9) and balance.unit == "day"  # 41 days: 984 hours
    first, last = balance.points[0], balance.points[-1]
    assert (first.wallet, first.stacks) == (0, 0)
    assert last.wallet == _balances(alice, ("wallet",))
    assert last.stacks == _balances(alice, ("stack",), table__kind="single")  # not practice
    # After the rebuy at the eight-deck table and before the first round.
    assert (balance.points[1].wallet, balance.points[1].stacks) == (
        settings.CASINO_STARTING_CHIPS,
        0,
    )
    assert [p.when for p in balance.points] == sorted(p.when for p in balance.points)


@pytest.mark.parametrize("days_ago", [6, 12])
def test_the_balance_of_a_period_starts_from_what_was_there(
    alice: Any, history: Any, summed: str, days_ago: int
) -> None:
    start = at(days_ago, 0)
    balance = figures(Scope(player=alice, start=start, table=history["eight"].pk)).balance
    assert balance is not None and balance.start == start
    # 200 in, +10, -25, +9.50 forty days ago: the stack at the eight-deck table.
    assert balance.points[0].stacks == 200_00 + 10_00 - 25_00 + 9_50
    assert balance.points[-1].stacks == _balances(alice, ("stack",), table=history["eight"])
    assert balance.points[0].wallet == settings.CASINO_STARTING_CHIPS - 200_00


def test_the_unit_of_the_balance_keeps_the_points_few() -> None:
    start = at(0, 0)
    assert balance_unit(start, start + timedelta(days=7)) == "hour"
    assert balance_unit(start, start + timedelta(days=365)) == "day"
    assert balance_unit(start, start + timedelta(days=3 * 365)) == "week"
    assert balance_unit(start, start + timedelta(days=30 * 365)) == "month"


def test_the_page_shows_every_section(client: Any, alice: Any, history: Any) -> None:
    client.force_login(alice)
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    for heading in ("Balance over time", "Result by bet", "Rounds and time played"):
        assert heading in html
    assert html.count('role="img"') == 4
    for name in ("stats-balance", "stats-results", "stats-rounds", "stats-minutes"):
        assert f'aria-labelledby="{name}-heading' in html
    assert "€40.00" in html  # the banker's stakes
    assert "Practice" not in re.sub(r"Practice sessions are left out", "", html)


def test_the_period_and_the_table_narrow_the_figures(
    client: Any, alice: Any, history: Any, summed: str
) -> None:
    client.force_login(alice)
    recent = client.get(URL, {"period": "7"}).context["page"]
    assert recent.activity.rounds == "2"
    assert [row.label for row in recent.results.rows] == ["Banker", "Tie", "Player pair"]
    six = client.get(URL, {"table": history["six"].pk}).context["page"]
    assert six.activity.rounds == "1"
    dated = client.get(
        URL, {"date_from": at(40, 0).date().isoformat(), "date_to": at(40, 0).date().isoformat()}
    ).context["page"]
    assert dated.activity.rounds == "3"
    # The dates within the period: nothing is both.
    neither = client.get(URL, {"period": "7", "date_to": at(40, 0).date().isoformat()}).context[
        "page"
    ]
    assert neither.activity is None and neither.results is None


def _figures(page: Any) -> tuple[Any, ...]:
    return (page.results.rows, page.results.total, page.activity.rows, page.balance.rows)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"date_from": "yesterday"}, "date_from"),
        ({"date_to": "2024-02-30"}, "date_to"),
        ({"period": "365"}, "period"),
        ({"table": "x"}, "table"),
        ({"date_from": "2025-03-02", "date_to": "2025-03-01"}, "__all__"),
    ],
)
def test_bad_input_changes_nothing_and_says_why_in_german(
    client: Any, alice: Any, history: Any, query: dict[str, str], field: str
) -> None:
    alice.language = "de"
    alice.save()
    client.force_login(alice)
    everything = _figures(client.get(URL).context["page"])
    rows = (Round.objects.count(), Play.objects.count(), Entry.objects.count())
    response = client.get(URL, query)
    assert response.status_code == 200
    form = response.context["form"]
    assert field in form.errors
    assert _figures(response.context["page"]) == everything
    assert (Round.objects.count(), Play.objects.count(), Entry.objects.count()) == rows
    german = {entry.msgid: entry.msgstr for entry in polib.pofile(_po("de"))}
    with translation.override("de"):
        message = str(form.errors[field][0])
    assert message in response.content.decode()
    if field == "__all__":
        assert message == german["The start date is after the end date."]


def _po(language: str) -> str:
    return str(settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po")


def test_another_players_table_is_refused(client: Any, alice: Any, history: Any) -> None:
    client.force_login(alice)
    everything = _figures(client.get(URL).context["page"])
    for table in (history["bobs"], history["practice"]):
        response = client.get(URL, {"table": table.pk})
        assert response.status_code == 200
        assert response.context["form"].errors["table"] == [
            "You have played no rounds at that table."
        ]
        assert _figures(response.context["page"]) == everything
    choices = [value for value, _label in response.context["form"].fields["table"].choices]
    assert choices == ["", history["eight"].pk, history["six"].pk]


def test_a_player_without_rounds_sees_an_empty_page(client: Any, bob: Any) -> None:
    client.force_login(bob)
    response = client.get(URL)
    assert response.status_code == 200
    page = response.context["page"]
    assert page.results is None and page.activity is None and page.balance is not None
    assert "No settled rounds with a stake in this selection." in response.content.decode()


def test_the_page_costs_a_few_statements(
    client: Any, alice: Any, history: Any, django_assert_max_num_queries: Any
) -> None:
    client.force_login(alice)
    client.get(URL)  # the odds' first enumeration, the hours summed
    # Session, user, the filter's tables, the newest posting (the figures' key), the mark,
    # the accounts, the first posting (an open start); the summed hours (their rounds and
    # bets, the balances before the start, their moves); the last hour's entries and
    # their balances, bets and days. As many whatever the history.
    for query in ({"period": "30", "table": history["eight"].pk}, {}):
        cache.clear()
        with django_assert_max_num_queries(12):
            client.get(URL, query)
    # A round later the summed hours' figures are kept: the last hour's are read.
    settled_round(alice, history["eight"], timezone.now(), {"banker": (1_00, 0)})
    with django_assert_max_num_queries(10):
        page = client.get(URL).context["page"]
    assert page.activity.rounds == "6"


def test_anonymous_is_sent_to_log_in(client: Any) -> None:
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_only_get(client: Any, alice: Any) -> None:
    client.force_login(alice)
    assert client.post(URL).status_code == 405


def test_names_are_escaped(client: Any, alice: Any, history: Any) -> None:
    Table.objects.filter(pk=history["eight"].pk).update(name='<img src=x onerror="alert(1)">')
    client.force_login(alice)
    html = client.get(URL).content.decode()
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


def test_the_protocol_links_to_the_statistics(client: Any, alice: Any) -> None:
    client.force_login(alice)
    assert f'href="{URL}"' in client.get(reverse("baccarat:protocol_list")).content.decode()


# The charts, without a database ---------------------------------------------------------


def test_a_charts_text_is_escaped_and_it_is_an_image() -> None:
    svg = charts.result_chart(rows=[charts.ResultRow('<b>"Tie"</b>', -5_00, -71)], labelledby="a b")
    assert "<b>" not in svg and "&lt;b&gt;&quot;Tie&quot;&lt;/b&gt;" in svg
    assert svg.startswith('<svg class="stats-chart stats-results" viewBox="0 0 560 ')
    assert 'role="img" aria-labelledby="a b"' in svg


def test_a_value_axis_has_round_steps() -> None:
    assert charts.ticks(0, 9_73, least=100) == [0, 500, 1000]
    assert charts.ticks(-1_234_00, 5_000_00, least=100) == [-200000, 0, 200000, 400000, 600000]
    assert charts.ticks(0, 0) == [0, 1]
    assert charts.nice_step(37, 4) == 10


def test_balance_steps_hold_until_the_next_moment() -> None:
    start = at(1, 0)
    svg = charts.balance_chart(
        moments=[start, start + timedelta(hours=12), start + timedelta(hours=24)],
        lines=[charts.Line("stats-line-wallet", [0, 10_00, 10_00])],
        labelledby="x",
    )
    path = re.search(r'd="([^"]+)"', svg)
    assert path is not None
    # M at the start, H to the next moment, V to its value; the last step flat.
    assert re.fullmatch(r"M90\.0 [\d.]+H320\.0V[\d.]+H550\.0V[\d.]+", path.group(1))


def test_money_on_an_axis_in_whole_euros() -> None:
    with translation.override("de"):
        assert charts.money_tick(1_500_00) == "1.500\u00a0€"
        assert charts.money_tick(-50) == "−0,50\u00a0€"
    with translation.override("en"):
        assert charts.money_tick(2_000_00) == "€2,000"


def test_the_figures_are_kept_until_the_ledger_moves(
    client: Any, alice: Any, history: Any, django_assert_max_num_queries: Any
) -> None:
    client.force_login(alice)
    first = client.get(URL).context["page"]
    with django_assert_max_num_queries(4):  # session, user, tables, the newest posting
        kept = client.get(URL).context["page"]
    assert kept.activity.rounds == first.activity.rounds == "5"
    settled_round(alice, history["eight"], timezone.now(), {"banker": (1_00, 0)})
    moved = client.get(URL).context["page"]
    assert moved.activity.rounds == "6"


# The summed hours -------------------------------------------------------------------------


def test_hours_are_summed_once(alice: Any, history: Any, django_assert_num_queries: Any) -> None:
    through = hours.hours_summed(alice).through
    assert through == hour_floor(timezone.now() - hours.GRACE)
    rows = list(StatisticsHour.objects.filter(player=alice).values_list("hour", "rounds"))
    # Forty days ago 10:00 (three rounds), three days ago 12:00 (two tables) and 12:30.
    assert sorted(rounds for _hour, rounds in rows) == [1, 1, 3]
    balances = StatisticsBalance.objects.filter(account__owner=alice)
    # The wallet and the two tables' stacks; not the practice session's.
    assert set(balances.values_list("account__kind", "account__table")) == {
        ("wallet", None),
        ("stack", history["eight"].pk),
        ("stack", history["six"].pk),
    }
    with django_assert_num_queries(1):  # the mark, and nothing to sum
        assert hours.hours_summed(alice).through == through


def test_a_round_not_over_when_its_hour_was_summed_counts_once_it_is(
    alice: Any, history: Any
) -> None:
    open_round = Round.objects.create(
        table=history["eight"],
        rules=history["eight"].rule_snapshot(),
        state=Round.State.LOCKED,
        reserved_cards=CARDS,
    )
    play = Play.objects.create(
        round=open_round, player=alice, table=history["eight"], stake_total=4_00
    )
    Bet.objects.create(play=play, kind="player", stake=4_00)
    Play.objects.filter(pk=play.pk).update(created_at=at(5, 10))
    before = [(day.day, day.rounds) for day in figures(Scope(player=alice)).days]
    assert StatisticsMark.objects.get(player=alice).waiting == [play.pk]
    Round.objects.filter(pk=open_round.pk).update(state=Round.State.SETTLED)
    Play.objects.filter(pk=play.pk).update(payout_total=8_00)
    Bet.objects.filter(play=play).update(payout=8_00)
    after = figures(Scope(player=alice))
    assert sorted([*before, (at(5, 0).date(), 1)]) == [(day.day, day.rounds) for day in after.days]
    assert {found.kind: found.bets for found in after.bets}["player"] == 2
    assert StatisticsMark.objects.get(player=alice).waiting == []


def test_a_settled_round_voided_later_is_summed_again_without_it(alice: Any, history: Any) -> None:
    banker = {found.kind: found for found in figures(Scope(player=alice)).bets}["banker"]
    assert banker.bets == 3
    voided = Play.objects.get(player=alice, created_at=at(40, 10, 3)).round
    round_void(round_id=voided.pk, reason="Shuffler fault", by="support", cause="malfunction")
    assert StatisticsMark.objects.get(player=alice).through == hour_floor(at(40, 10))
    banker = {found.kind: found for found in figures(Scope(player=alice)).bets}["banker"]
    assert (banker.bets, banker.staked) == (2, 30_00)


def test_the_hourly_task_sums_the_hours_of_who_played_lately(
    alice: Any, bob: Any, history: Any, settings: Any
) -> None:
    assert statistics_sum_hours() == 0  # every round of the history began days ago
    assert not StatisticsMark.objects.exists()
    settled_round(alice, history["eight"], timezone.now(), {"banker": (1_00, 0)})
    assert statistics_sum_hours() == 1
    mark = StatisticsMark.objects.get()
    assert (mark.player, mark.through) == (alice, hour_floor(timezone.now() - hours.GRACE))
    assert settings.CELERY_BEAT_SCHEDULE["statistics-sum-hours"] == {
        "task": "baccarat.tasks.statistics_sum_hours",
        "schedule": 3600.0,
    }


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_hours_summed_by_several_requests_at_once_are_summed_once(
    alice: Any, history: Any, racers: Any
) -> None:
    results = racers.run([lambda: hours.hours_summed(alice)] * 8)
    assert not [result for result in results if isinstance(result, Exception)]
    assert StatisticsHour.objects.filter(player=alice).count() == 3
    mark = StatisticsMark.objects.get(player=alice)
    assert mark.revision == 1
    assert {result.through for result in results} == {mark.through}  # type: ignore[attr-defined]


def test_a_round_left_open_costs_one_look_and_no_write(
    alice: Any, history: Any, django_assert_num_queries: Any
) -> None:
    left = Round.objects.create(
        table=history["eight"], rules=history["eight"].rule_snapshot(), reserved_cards=CARDS
    )
    play = Play.objects.create(round=left, player=alice, table=history["eight"])
    Play.objects.filter(pk=play.pk).update(created_at=at(4, 20))
    hours.hours_summed(alice)
    assert StatisticsMark.objects.get(player=alice).waiting == [play.pk]
    with django_assert_num_queries(2):  # the mark, the waiting round
        hours.hours_summed(alice)


def test_a_day_that_does_not_begin_on_the_hour_is_counted_from_its_rounds(
    alice: Any, history: Any, monkeypatch: Any
) -> None:
    # Half an hour off UTC: the period's start falls inside an hour summed as a whole.
    with timezone.override("Asia/Kolkata"):
        start = at(12, 0)
        # A round ten minutes into the day: its hour began half an hour before the day.
        settled_round(alice, history["eight"], start + timedelta(minutes=10), {"player": (4_00, 0)})
        scope = Scope(player=alice, start=start, table=history["eight"].pk)
        hours.hours_summed(alice)
        summed = figures(scope)
        no_hour_summed(monkeypatch)
        cache.clear()
        counted = figures(scope)
    assert summed.balance is not None and counted.balance is not None
    assert [(p.wallet, p.stacks) for p in summed.balance.points] == [
        (p.wallet, p.stacks) for p in counted.balance.points
    ]
    assert summed.balance.points[0].stacks == 200_00 + 10_00 - 25_00 + 9_50
    assert summed.days == counted.days and summed.bets == counted.bets
    assert summed.days[0].day == start.date() and summed.days[0].rounds == 1


def test_a_minute_with_rounds_at_two_tables_counts_once(
    alice: Any, history: Any, summed: str
) -> None:
    # Three days ago at 12:00:30 at the eight-deck table, beside the six-deck table's 12:00.
    settled_round(alice, history["eight"], at(3, 12, 0, 30), {"player": (5_00, 10_00)})
    days = {day.day: day for day in figures(Scope(player=alice)).days}
    assert (days[at(3, 0).date()].rounds, days[at(3, 0).date()].minutes) == (3, 2)
