"""DEAL's idempotency key at a single-seat table: one press is one key (the page's board
carries a fresh one with every answer, its server-rendered form too); a repeat with it
(a client's retry, a resubmitted form) deals nothing and moves nothing, whatever its
other fields say, and is answered with the round the first press dealt."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Table
from baccarat.play import rounds
from wallet import services as wallet
from wallet.models import Entry, Transaction

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(name: str, table: Table) -> str:
    return reverse(f"baccarat:{name}", args=[table.slug])


def _deal(client: Any, table: Table, stakes: dict[str, int], **fields: Any) -> Any:
    data = {"layout": "on", **{f"stake_{kind}": v for kind, v in stakes.items()}, **fields}
    return client.post(_url("table_deal", table), data, **HTMX)


def _ledger(player: Any, table: Table) -> tuple[int, int, int, int]:
    stack = wallet.stack_account(player=player, table=table).balance
    return stack, Round.objects.count(), Transaction.objects.count(), Entry.objects.count()


def _token(html: bytes) -> str:
    found = re.search(rb'form="deal-form" name="token" value="([0-9a-f]+)"', html)
    assert found is not None, "the board carries the DEAL's key"
    return found.group(1).decode()


def _hands(html: bytes) -> list[bytes]:
    """The cards the answer's board deals, as drawn, in the order they are turned."""
    return re.findall(rb'<li class="playing-card.*?</li>', html)


def test_a_repeated_deal_answers_the_first_round_and_moves_nothing(
    client_alice: Any, seated: Any, table: Table
) -> None:
    first = _deal(client_alice, table, {"banker": 500}, token="press1")
    assert first.status_code == 200 and b"form-errors" not in first.content
    round = Round.objects.get()
    assert round.state == Round.State.SETTLED
    before = _ledger(seated, table)
    again = _deal(client_alice, table, {"banker": 500}, token="press1")
    assert again.status_code == 200 and b"form-errors" not in again.content
    assert _ledger(seated, table) == before  # no second round, no posting
    # The same answer: that round's cards dealt again on the board, its result.
    assert b'class="board dealing' in again.content
    assert _hands(again.content) == _hands(first.content) != []
    assert f'name="after" value="{round.pk}"'.encode() in again.content
    assert Play.objects.get().deal_token == "press1"


def test_a_repeat_with_other_fields_is_still_the_first_press(
    client_alice: Any, seated: Any, table: Table
) -> None:
    _deal(client_alice, table, {"banker": 500}, token="press1")
    round = Round.objects.get()
    before = _ledger(seated, table)
    for fields in (
        {"stakes": {"player": 2000, "tie": 100}},
        {"stakes": {"banker": 500}, "after": round.pk},
        {"stakes": {"banker": 500}, "round": round.pk},
        {"stakes": {}, "layout": ""},
    ):
        stakes = fields.pop("stakes")
        answer = _deal(client_alice, table, stakes, token="press1", **fields)
        assert answer.status_code == 200 and b"form-errors" not in answer.content
        assert _ledger(seated, table) == before
    assert {bet.kind: bet.stake for bet in Play.objects.get().bets.all()} == {"banker": 500}


def test_a_fresh_key_deals_again(client_alice: Any, seated: Any, table: Table) -> None:
    first = _deal(client_alice, table, {"banker": 500}, token="press1")
    second = _deal(client_alice, table, {"banker": 500}, token=_token(first.content))
    assert b"form-errors" not in second.content
    assert Round.objects.filter(state=Round.State.SETTLED).count() == 2
    assert Transaction.objects.filter(kind=Transaction.Kind.STAKE).count() == 2


def test_every_answer_and_page_carries_a_fresh_key(
    client_alice: Any, seated: Any, table: Table
) -> None:
    page = client_alice.get(_url("table", table)).content
    other = client_alice.get(_url("table", table)).content
    answer = _deal(client_alice, table, {"banker": 500}, token=_token(page)).content
    keys = {_token(page), _token(other), _token(answer)}
    assert len(keys) == 3


def test_a_page_without_javascript_deals_once_per_form(
    client_alice: Any, seated: Any, table: Table
) -> None:
    """The plain form: each chip a POST, DEAL a POST with the page's hidden fields; the
    same form sent again (a resubmit after a lost answer) deals nothing."""
    client_alice.post(_url("table_bet", table), {"kind": "player", "amount": 500})
    page = client_alice.get(_url("table", table)).content
    fields = {
        "round": re.search(rb'name="round" value="(\d*)"', page).group(1).decode(),  # type: ignore[union-attr]
        "after": "",
        "token": _token(page),
    }
    answer = client_alice.post(_url("table_deal", table), fields)
    assert answer.status_code == 302
    round = Round.objects.get()
    assert round.state == Round.State.SETTLED
    before = _ledger(seated, table)
    # Resent with the round left out too: only the key tells it is the same press.
    again = client_alice.post(_url("table_deal", table), {**fields, "round": ""})
    assert again.status_code == 302
    assert _ledger(seated, table) == before
    # The next page's form deals the next round.
    page = client_alice.get(_url("table", table)).content
    assert _token(page) != fields["token"]
    client_alice.post(_url("table_deal", table), {"after": str(round.pk), "token": _token(page)})
    assert Round.objects.filter(state=Round.State.SETTLED).count() == 2


def test_a_late_repeat_after_other_rounds_deals_nothing(
    client_alice: Any, seated: Any, table: Table
) -> None:
    """A key older than the plays DEAL reads is refused by the constraint: the whole lock
    is undone and the table answered as it is now."""
    for token in ("press1", "press2", "press3"):
        _deal(client_alice, table, {"banker": 500}, token=token)
    before = _ledger(seated, table)
    answer = _deal(client_alice, table, {"player": 500}, token="press1")
    assert answer.status_code == 200 and b"form-errors" not in answer.content
    assert b'class="board dealing' not in answer.content  # not the old round as if new
    assert _ledger(seated, table) == before
    assert audit_violations() == []


def test_a_repeat_completes_a_deal_whose_settle_was_cut_short(
    seated: Any, table: Table, monkeypatch: Any
) -> None:
    """The first press locked its round (stake escrowed, cards reserved) and died before
    the settle: its repeat settles it with those cards and stakes nothing more."""

    def crash(**kwargs: Any) -> Any:
        raise RuntimeError("worker died")

    monkeypatch.setattr(rounds, "round_settle", crash)
    with pytest.raises(RuntimeError):
        rounds.layout_deal(
            table=table,
            player=seated,
            round_id=None,
            after=None,
            stakes={"tie": 100},
            token="press1",
        )
    monkeypatch.undo()
    locked = Round.objects.get()
    assert locked.state == Round.State.LOCKED
    stakes = Transaction.objects.filter(kind=Transaction.Kind.STAKE).count()
    result = rounds.layout_deal(
        table=table,
        player=seated,
        round_id=None,
        after=None,
        stakes={"banker": 500},
        token="press1",
    )
    assert result is not None and result.repeated and result.round.pk == locked.pk
    assert result.round.state == Round.State.SETTLED
    assert result.round.reserved_cards == locked.reserved_cards
    assert Round.objects.count() == 1
    assert Transaction.objects.filter(kind=Transaction.Kind.STAKE).count() == stakes
    assert audit_violations() == []


def test_the_first_press_answers_its_round_when_a_repeat_settled_it_first(
    seated: Any, table: Table, monkeypatch: Any
) -> None:
    """A repeat that comes between the first press's lock and its settle settles the
    round itself; the first press still answers with the round dealt."""
    settle = rounds.round_settle
    repeats: list[Any] = []

    def repeat_first(**kwargs: Any) -> Any:
        monkeypatch.setattr(rounds, "round_settle", settle)  # the repeat settles as usual
        if not repeats:
            repeats.append(
                rounds.layout_deal(
                    table=table,
                    player=seated,
                    round_id=None,
                    after=None,
                    stakes={"tie": 100},
                    token="press1",
                )
            )
        return settle(**kwargs)

    monkeypatch.setattr(rounds, "round_settle", repeat_first)
    first = rounds.layout_deal(
        table=table,
        player=seated,
        round_id=None,
        after=None,
        stakes={"banker": 500},
        token="press1",
    )
    (repeat,) = repeats
    assert repeat is not None and repeat.repeated
    assert first is not None and first.round.pk == repeat.round.pk
    assert first.round.state == Round.State.SETTLED
    (play,) = first.round.settled_plays  # type: ignore[attr-defined]
    assert {bet.kind: bet.stake for bet in play.bets.all()} == {"banker": 500}
    assert Transaction.objects.filter(kind=Transaction.Kind.STAKE).count() == 1
    assert audit_violations() == []
