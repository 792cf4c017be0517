"""Deal or Pass at a full table with the press's idempotency key: a repeat (a client's
retry) decides nothing, moves nothing and is no error, whatever round the table is at."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from baccarat.full import croupier
from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Table, TableEvent
from tests.baccarat.conftest import make_player, ready, sit
from wallet.models import Transaction

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _moved() -> tuple[int, int]:
    return Transaction.objects.count(), TableEvent.objects.filter(kind="decision").count()


def _dealt_then_next(table: Table, round: Round) -> Round:
    """Everyone decided ``round``: the croupier's step deals it, and once the pause
    between two rounds has passed the next one opens."""
    croupier.table_tick(table_id=table.pk)
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    later = timezone.now() + timedelta(seconds=table.cycle_seconds + 1)
    croupier.table_tick(table_id=table.pk, now=later)
    following = croupier.open_round(table)
    assert following is not None and following.pk != round.pk
    return following


def _token(html: bytes, button: str) -> str:
    form = re.search(rb'<form[^>]*>(?:(?!</form>).)*id="' + button.encode(), html, re.S)
    assert form is not None
    found = re.search(rb'name="token" value="([0-9a-f]+)"', form.group(0))
    assert found is not None, f"the {button} form carries its key"
    return found.group(1).decode()


def test_a_repeated_deal_is_answered_and_stakes_once(salon: Table, client: Any) -> None:
    anna, _ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    client.force_login(anna)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1000, take_back=False)
    page = client.get(reverse("baccarat:table", args=[salon.slug])).content
    token = _token(page, "btn-deal")
    assert _token(page, "btn-pass") == token  # one decision, one key
    url = reverse("baccarat:table_deal", args=[salon.slug])
    first = client.post(url, {"token": token}, **HTMX)
    assert first.status_code == 200 and b"form-errors" not in first.content
    moved = _moved()
    assert _token(first.content, "btn-deal") != token  # the answer's controls: a fresh key
    again = client.post(url, {"token": token}, **HTMX)
    assert again.status_code == 200 and b"form-errors" not in again.content
    # Pass with the same key: the same press, not a second decision.
    passed = client.post(reverse("baccarat:table_pass", args=[salon.slug]), {"token": token})
    assert passed.status_code == 302
    assert _moved() == moved
    assert Play.objects.get(player=anna).decision == Play.Decision.DEAL
    # Without its key a second press is refused, as before.
    refused = client.post(url, {"token": "other"}, **HTMX)
    assert b"form-errors" in refused.content and _moved() == moved


def test_a_late_repeat_after_the_round_deals_nothing(salon: Table, stack_of: Any) -> None:
    anna = sit(salon, "anna", 1)
    first = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1000, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True, token="press1")
    second = _dealt_then_next(salon, first)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    stack, moved = stack_of(anna, salon), _moved()
    # The retry of round one's Deal arrives now: not the Deal of round two.
    decided = croupier.full_decide(table=salon, player=anna, deal=True, token="press1")
    assert decided.mine is None and decided.raised == []
    assert Play.objects.get(round=second, player=anna).decision == ""
    assert (stack_of(anna, salon), _moved()) == (stack, moved)
    # Its own press deals it.
    croupier.full_decide(table=salon, player=anna, deal=True, token="press2")
    assert Play.objects.get(round=second, player=anna).decision == Play.Decision.DEAL
    assert audit_violations() == []


def test_a_repeated_pass_is_answered(salon: Table, stack_of: Any) -> None:
    anna, _ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1000, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=False, token="press1")
    moved = _moved()
    croupier.full_decide(table=salon, player=anna, deal=False, token="press1")
    croupier.full_decide(table=salon, player=anna, deal=True, token="press1")
    assert _moved() == moved and stack_of(anna, salon) == 100_00
    assert Play.objects.get(player=anna).decision == Play.Decision.PASS


def test_a_repeated_sit_brings_its_chips_once(salon: Table, client: Any, stack_of: Any) -> None:
    """The seat's form has had its token (``sit:<table>:<player>:<token>``): checked here
    beside the decision's."""
    anna = make_player("anna")
    client.force_login(anna)
    url = reverse("baccarat:table_sit", args=[salon.slug])
    before = Transaction.objects.count()
    for _ in range(3):
        client.post(url, {"seat": 1, "amount": 20, "token": "sit1"}, **HTMX)
    assert stack_of(anna, salon) == 20_00
    assert Transaction.objects.count() == before + 1


def test_a_first_press_stores_the_play_once_with_its_bets_and_decision(
    salon: Table, stack_of: Any
) -> None:
    """Deal with the page's layout, or Pass, as the player's first change of the round:
    the play is stored with its bets and decision in one write, and the press's repeat
    (its key) stores and moves nothing more, in this round or the next."""
    anna, ben, cara = sit(salon, "anna", 1), sit(salon, "ben", 2), sit(salon, "cara", 3)
    round = ready(salon)
    layout = {"banker": 1000, "tie": 500}
    decided = croupier.full_decide(
        table=salon, player=anna, deal=True, token="first", stakes=layout
    )
    assert decided.mine is not None and decided.mine.play.pk is not None
    assert decided.mine.stack == stack_of(anna, salon) == 85_00
    croupier.full_decide(table=salon, player=ben, deal=False, token="pass1")
    moved = _moved()
    croupier.full_decide(table=salon, player=anna, deal=True, token="first", stakes=layout)
    croupier.full_decide(table=salon, player=ben, deal=False, token="pass1")
    assert _moved() == moved
    anna_play = Play.objects.get(round=round, player=anna)
    assert (anna_play.decision, anna_play.stake_total, anna_play.balance_before) == (
        Play.Decision.DEAL,
        1500,
        100_00,
    )
    assert {bet.kind: bet.stake for bet in anna_play.bets.all()} == layout
    ben_play = Play.objects.get(round=round, player=ben)
    assert (ben_play.decision, ben_play.stake_total, ben_play.bets.count()) == ("pass", 0, 0)
    # The layout the Deal played reaches every page with the decision.
    event = TableEvent.objects.filter(kind="decision").order_by("seq").first()
    assert event is not None and event.data["stakes"] == layout
    # Cara's Deal is the last decision; the next round takes the repeats of the first
    # presses as repeats, not as new decisions.
    croupier.full_decide(table=salon, player=cara, deal=True, stakes={"player": 500})
    second = _dealt_then_next(salon, round)
    moved = _moved()
    decided = croupier.full_decide(
        table=salon, player=anna, deal=True, token="first", stakes=layout
    )
    assert decided.mine is None and _moved() == moved
    assert not Play.objects.filter(round=second, player=anna).exists()
    assert audit_violations() == []
