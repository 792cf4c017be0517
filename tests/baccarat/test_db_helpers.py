"""``save_all``: one plain UPDATE for one object, one bulk UPDATE for several."""

from __future__ import annotations

from typing import Any

from baccarat import betting
from baccarat.db import save_all
from baccarat.models import Bet, Table


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
