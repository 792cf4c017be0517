"""A single-seat table's layout under the player's row lock, raced by real threads
(PostgreSQL): presses at the same moment run one after the other, none is lost and none
is played twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import make_player
from wallet import services as wallet
from wallet.models import Transaction

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def golden(db: None) -> Table:
    return Table.objects.create(name="Golden", slug="golden-race", decks=8)


def test_eight_chips_at_once_all_land_on_one_round(golden: Table, racers: Any) -> None:
    player = make_player("chips")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="chips")
    chip = betting.chip_edit(kind="banker", amount=500, take_back=False)
    results = racers.run([lambda: betting.layout_edit(table=golden, player=player, edit=chip)] * 8)
    assert not [r for r in results if isinstance(r, Exception)], results
    play = Play.objects.get(round__table=golden, player=player)
    assert play.round.state == Round.State.BETTING
    assert play.stake_total == 8 * 500
    assert {bet.kind: bet.stake for bet in play.bets.all()} == {"banker": 8 * 500}


def test_eight_posts_of_one_chip_at_once_place_it_once(golden: Table, racers: Any) -> None:
    """A chip's request sent eight times at once with its key (a client's retries): one
    chip; the seven repeats find its key under the seat lock and change nothing."""
    player = make_player("keyedchips")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="keyedchips")
    chip = betting.chip_edit(kind="banker", amount=500, take_back=False)
    results = racers.run(
        [lambda: betting.layout_edit(table=golden, player=player, edit=chip, token="chip1")] * 8
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(result is not None for result in results) == 1
    play = Play.objects.get(round__table=golden, player=player)
    assert play.stake_total == 500 and play.chip_keys == "chip1"


def test_eight_deal_presses_at_once_play_the_round_once(golden: Table, racers: Any) -> None:
    player = make_player("presses")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="presses")
    chip = betting.chip_edit(kind="player", amount=500, take_back=False)
    round_id = betting.layout_edit(table=golden, player=player, edit=chip).round.pk
    results = racers.run(
        [lambda: rounds.layout_deal(table=golden, player=player, round_id=round_id, after=None)] * 8
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(result is not None for result in results) == 1  # the others: a double press
    assert Round.objects.get(pk=round_id).state == Round.State.SETTLED
    assert Round.objects.filter(table=golden).count() == 1
    for kind in (Transaction.Kind.STAKE, Transaction.Kind.SETTLE):
        assert Transaction.objects.filter(round_id=round_id, kind=kind).count() == 1
    assert audit_violations() == []


def test_eight_deals_with_the_layout_at_once_play_one_round(golden: Table, racers: Any) -> None:
    """A double click on DEAL as the page's script sends it (the layout, after the last
    round): one round is dealt with it, the other presses find it dealt."""
    player = make_player("layouts")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="layouts")
    first = rounds.layout_deal(
        table=golden, player=player, round_id=None, after=None, stakes={"tie": 100}
    )
    assert first is not None
    after = first.round.pk
    results = racers.run(
        [
            lambda: rounds.layout_deal(
                table=golden, player=player, round_id=None, after=after, stakes={"banker": 500}
            )
        ]
        * 8
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(result is not None for result in results) == 1
    dealt = Round.objects.filter(table=golden).exclude(pk=after).get()
    assert dealt.state == Round.State.SETTLED
    assert {bet.kind: bet.stake for bet in Play.objects.get(round=dealt).bets.all()} == {
        "banker": 500
    }
    assert Transaction.objects.filter(round_id=dealt.pk, kind=Transaction.Kind.STAKE).count() == 1
    assert audit_violations() == []


def _keyed_deal(table: Table, player: Any, stakes: dict[str, int], token: str) -> Any:
    return rounds.layout_deal(
        table=table, player=player, round_id=None, after=None, stakes=stakes, token=token
    )


def test_four_deals_with_one_key_at_once_deal_one_round(golden: Table, racers: Any) -> None:
    """A client's retries of one press, without the page's round fields, and their
    layouts told apart: one round, every answer that round, settled."""
    player = make_player("retries")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="retries")
    layouts = [{"banker": 500}, {"player": 500}, {"tie": 100}, {"banker": 1000}]
    results = racers.run(
        [lambda s=s: _keyed_deal(golden, player, s, "press1") for s in layouts]  # type: ignore[misc]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    dealt = Round.objects.get(table=golden)
    assert dealt.state == Round.State.SETTLED
    assert {r.round.pk for r in results} == {dealt.pk}  # type: ignore[attr-defined]
    assert sum(not r.repeated for r in results) == 1  # type: ignore[attr-defined]
    for kind in (Transaction.Kind.STAKE, Transaction.Kind.SETTLE):
        assert Transaction.objects.filter(round_id=dealt.pk, kind=kind).count() == 1
    assert audit_violations() == []


def test_a_late_repeat_after_the_settle_moves_nothing(golden: Table, racers: Any) -> None:
    player = make_player("late")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="late")
    first = _keyed_deal(golden, player, {"banker": 500}, "press1")
    assert first is not None and first.round.state == Round.State.SETTLED
    ledger = (
        Transaction.objects.count(),
        wallet.stack_account(player=player, table=golden).balance,
    )
    again = racers.run([lambda: _keyed_deal(golden, player, {"player": 900}, "press1")] * 4)
    assert not [r for r in again if isinstance(r, Exception)], again
    assert {r.round.pk for r in again} == {first.round.pk}  # type: ignore[attr-defined]
    assert (
        Transaction.objects.count(),
        wallet.stack_account(player=player, table=golden).balance,
    ) == ledger
    # Two rounds later the key is past the plays DEAL reads: the constraint refuses it
    # (PostgreSQL's transaction undone whole), and nothing is dealt.
    _keyed_deal(golden, player, {"banker": 500}, "press2")
    _keyed_deal(golden, player, {"banker": 500}, "press3")
    ledger = (Transaction.objects.count(), Round.objects.filter(table=golden).count())
    late = racers.run([lambda: _keyed_deal(golden, player, {"tie": 100}, "press1")] * 4)
    assert late == [None] * 4
    assert (Transaction.objects.count(), Round.objects.filter(table=golden).count()) == ledger
    assert audit_violations() == []


def test_four_posts_of_one_deal_at_once_deal_one_round(golden: Table, racers: Any) -> None:
    """The finding of issue 40: four DEALs without the page's round fields (a client's
    retry, a resubmit) at the same moment; with one key they deal one round."""
    player = make_player("posts")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="posts")
    clients = [Client() for _ in range(4)]
    for client in clients:
        client.force_login(player)
    url = reverse("baccarat:table_deal", args=[golden.slug])
    data = {"layout": "on", "stake_banker": "500", "token": "press1"}
    answers = racers.run(
        [lambda c=c: c.post(url, data, HTTP_HX_REQUEST="true") for c in clients]  # type: ignore[misc]
    )
    assert [getattr(a, "status_code", a) for a in answers] == [200] * 4
    # Each answered as the first press: the round dealt, no refusal ("still being
    # completed") for a repeat that came while it was settled.
    for answer in answers:
        assert b'class="board dealing' in answer.content, answer  # type: ignore[attr-defined]
        assert b"form-errors" not in answer.content  # type: ignore[attr-defined]
    # And late, one after the other, once the round is settled.
    for client in clients:
        assert b'class="board dealing' in client.post(url, data, HTTP_HX_REQUEST="true").content
    dealt = Round.objects.get(table=golden)
    assert dealt.state == Round.State.SETTLED
    assert Transaction.objects.filter(kind=Transaction.Kind.STAKE).count() == 1
    assert audit_violations() == []


def test_four_rebuys_with_one_token_at_once_move_the_chips_once(golden: Table, racers: Any) -> None:
    """The buy-in panel's token (issued with the form) raced: one rebuy."""
    player = make_player("rebuyonce")
    clients = [Client() for _ in range(4)]
    for client in clients:
        client.force_login(player)
    url = reverse("baccarat:table_rebuy", args=[golden.slug])
    data = {"amount": 30, "token": "rb1"}
    answers = racers.run(
        [lambda c=c: c.post(url, data, HTTP_HX_REQUEST="true") for c in clients]  # type: ignore[misc]
    )
    assert [getattr(a, "status_code", a) for a in answers] == [200] * 4
    assert wallet.stack_account(player=player, table=golden).balance == 30_00
    assert Transaction.objects.filter(kind=Transaction.Kind.REBUY).count() == 1
    assert audit_violations() == []


def test_four_practice_starts_with_one_key_at_once_open_one_session(racers: Any) -> None:
    from baccarat.models import PracticeSession
    from baccarat.play.practice import practice_start

    player = make_player("practisers")
    start = {
        "player": player,
        "decks": 8,
        "starting_chips": 1000_00,
        "hands": 20,
        "tie_pays": 8,
        "pairs_enabled": False,
        "commission": "five_percent",
        "token": "00112233aabbccdd",
    }
    results = racers.run([lambda: practice_start(**start)] * 4)
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({session.pk for session in results}) == 1  # type: ignore[union-attr]
    assert PracticeSession.objects.filter(player=player).count() == 1
    assert Transaction.objects.filter(kind=Transaction.Kind.PRACTICE_FUND).count() == 1
    assert audit_violations() == []
