"""``save_all``: one plain UPDATE for one object, one bulk UPDATE for several;
``with_bets``: plays with their bets in one query, as the prefetch would leave them."""

from __future__ import annotations

from typing import Any

from baccarat import betting
from baccarat.db import save_all, with_bets
from baccarat.models import Bet, Play, Table


def test_one_object_is_one_plain_update(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    bet = Bet.objects.get()
    bet.stake, bet.payout = 300, 7
    with django_assert_num_queries(1) as queries:
        save_all([bet], ["stake"])
    assert "CASE" not in queries.captured_queries[0]["sql"]
    assert Bet.objects.values_list("stake", "payout").get(pk=bet.pk) == (300, 0)


def test_several_objects_are_one_bulk_update(
    seated: Any, table: Table, django_assert_num_queries: Any
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="player", amount=100)
    betting.bet_place(round=round, player=seated, kind="tie", amount=100)
    bets = list(Bet.objects.order_by("pk"))
    for n, bet in enumerate(bets):
        bet.stake = 200 + n
    with django_assert_num_queries(1):
        save_all(bets, ["stake"])
    with django_assert_num_queries(0):
        save_all([], ["stake"])
    assert list(Bet.objects.order_by("pk").values_list("stake", flat=True)) == [200, 201]


def test_with_bets_reads_plays_and_their_bets_in_one_query(
    seated: Any, bob: Any, table: Table, django_assert_num_queries: Any
) -> None:
    round = betting.round_open(table=table, player=seated)
    betting.bet_place(round=round, player=seated, kind="tie", amount=200)
    betting.bet_place(round=round, player=seated, kind="player", amount=100)
    Play.objects.create(round=round, player=bob, seat=2)  # a play without bets
    with django_assert_num_queries(1):
        plays = with_bets(Play.objects.filter(round=round).order_by("player_id"))
        loaded = {play.player_id: list(play.bets.all()) for play in plays}
        assert all(bet.play is play for play in plays for bet in play.bets.all())
    expected = list(Bet.objects.filter(play__player=seated).order_by("pk"))

    def fields(bet: Bet) -> list[tuple[str, object, type]]:
        return [
            (f.attname, getattr(bet, f.attname), type(getattr(bet, f.attname)))
            for f in Bet._meta.concrete_fields
        ]

    assert [fields(bet) for bet in loaded[seated.pk]] == [fields(bet) for bet in expected]
    assert [b.kind for b in loaded[seated.pk]] == ["tie", "player"]  # as placed: by id
    assert loaded[bob.pk] == []
    # Loaded from the database as any model is: a save updates the row.
    bet = loaded[seated.pk][0]
    assert not bet._state.adding
    bet.payout = 1800
    bet.save()
    assert Bet.objects.count() == 2 and Bet.objects.get(pk=bet.pk).payout == 1800
