"""Issue 6: a web or worker process killed at any point of a round never loses or
re-rolls it.

For each fault point a real ``runserver`` process is killed (SIGKILL) in the middle of
DEAL, a healthy one is started in its place, and the real Celery worker and beat finish
the round. ``RECOVERY_RUNS`` (default 10) runs per fault point.
"""

from __future__ import annotations

import os
import time

import pytest

from baccarat.models import Round, Table
from tests.conftest import PASSWORD
from tests.recovery.checks import assert_final_once, assert_shoe_advanced_once
from tests.recovery.conftest import DEADLINE, Client, Cluster, new_token, wait_for
from wallet.models import Transaction

pytestmark = [pytest.mark.recovery, pytest.mark.django_db(transaction=True)]

RUNS = int(os.environ.get("RECOVERY_RUNS", "10"))
SIGKILL = -9
# Where the web process dies, and who completes the round. At a single-player table the
# cards are shown in the settle's transaction (``round_settle``): no "after_deal" point.
FAULTS = {
    "after_stake": Round.Completion.SERVER,
    "before_commit": Round.Completion.SERVER,
    "after_commit": Round.Completion.PLAYED,
}
SPOTS = ["banker", "player", "tie"]


def cut_card_table(slug: str) -> Table:
    """An eight-deck shoe kept across rounds: a double settlement would show in it."""
    return Table.objects.create(
        name=slug,
        slug=slug,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
    )


def round_state(round_id: int) -> Round:
    return Round.objects.get(pk=round_id)


def is_final(round_id: int) -> Round | None:
    round = round_state(round_id)
    return round if round.is_final else None


def deal_into_crash(
    cluster: Cluster, *, player: object, table: Table, fault: str, spot: str
) -> tuple[int, str]:
    """Sign in, rebuy, bet and DEAL on a web server that dies at ``fault``."""
    web, base = cluster.start_web(fault)
    client = Client(base)
    client.sign_in(player.username, PASSWORD)  # type: ignore[attr-defined]
    status, page = client.get(f"/tables/{table.slug}/")
    assert status == 200, page[:1000]
    status, text = client.post(f"/tables/{table.slug}/rebuy/", {"amount": 10, "token": new_token()})
    assert status == 302, text[:2000]
    status, text = client.post(f"/tables/{table.slug}/bet/", {"kind": spot, "amount": 200})
    assert status == 302, text[:2000]
    round = Round.objects.get(table=table, plays__player=player, state=Round.State.BETTING)
    error = client.post_expecting_drop(f"/tables/{table.slug}/deal/", {"round": round.pk})
    assert web.wait_dead(30) == SIGKILL, web.tail()
    return round.pk, error


def after_the_crash(round_id: int, fault: str) -> None:
    """What the dead web process left behind: exactly the work before its fault point."""
    round = round_state(round_id)
    settles = Transaction.objects.filter(round_id=round_id, kind=Transaction.Kind.SETTLE)
    if fault == "after_commit":
        assert round.state == Round.State.SETTLED
        assert round.completion == Round.Completion.PLAYED
        return
    if round.state == Round.State.SETTLED:
        # The recovery task may already have been quicker than this look.
        assert round.completion == Round.Completion.SERVER
        return
    assert round.state == Round.State.LOCKED, round.state
    assert not settles.exists()
    assert Transaction.objects.filter(round_id=round_id, kind=Transaction.Kind.STAKE).count() == 1
    assert round.dealt_at is None  # dealing and settling commit together, or not at all


@pytest.mark.parametrize("fault", list(FAULTS))
def test_web_killed_at_fault_point(
    fault: str, cluster: Cluster, make_player, show_logs_on_failure: None
) -> None:
    player = make_player(f"crash-{fault.replace('_', '-')}")
    table = cut_card_table(f"crash-{fault.replace('_', '-')}")
    round_ids: list[int] = []
    started = time.monotonic()
    for run in range(RUNS):
        cluster.ensure_background()
        round_id, _error = deal_into_crash(
            cluster, player=player, table=table, fault=fault, spot=SPOTS[run % len(SPOTS)]
        )
        round_ids.append(round_id)
        after_the_crash(round_id, fault)

        # The web server comes back without the fault; the worker finishes the round.
        web, base = cluster.start_web()
        wait_for(
            lambda round_id=round_id: is_final(round_id),
            timeout=DEADLINE,
            what=f"round {round_id} (run {run}, {fault}) to become final",
        )
        assert_final_once(round_id, completion=FAULTS[fault])

        # The player sees it in the protocol and can play on.
        client = Client(base)
        client.sign_in(player.username, PASSWORD)
        status, page = client.get(f"/protocol/{round_id}/")
        assert status == 200, page[:1000]
        status, page = client.get(f"/tables/{table.slug}/")
        assert status == 200, page[:1000]
        web.kill()
    assert_shoe_advanced_once(round_ids)
    # Nothing is settled twice by the recovery ticks that keep coming.
    cluster.wait_recovery_ticks(2)
    for round_id in round_ids:
        assert_final_once(round_id, completion=FAULTS[fault])
    print(f"{fault}: {RUNS} runs in {time.monotonic() - started:.1f}s")


def test_worker_killed_mid_recovery(cluster: Cluster, make_player, show_logs_on_failure) -> None:
    """The worker dies inside the settling transaction; a new worker finishes the round."""
    player = make_player("crash-worker")
    table = cut_card_table("crash-worker")
    assert cluster.worker is not None
    cluster.worker.kill()
    # A prefork worker: the pool process running the task dies, the parent sees the
    # WorkerLostError and (reject_on_worker_lost) puts the message back.
    faulty = cluster.start_worker("before_commit", pool="prefork")
    try:
        round_id, _error = deal_into_crash(
            cluster, player=player, table=table, fault="after_stake", spot="banker"
        )
        wait_for(
            lambda: "signal 9" in faulty.tail(400),
            timeout=DEADLINE,
            what="the worker to be killed in the settling transaction",
        )
        # The parent process notices the lost pool process and rejects the message
        # (acks_late + reject_on_worker_lost) so that it is delivered again.
        wait_for(
            lambda: "WorkerLostError" in faulty.tail(400),
            timeout=DEADLINE,
            what="the worker to report the lost pool process",
        )
        round = round_state(round_id)
        assert round.state == Round.State.LOCKED
        assert round.dealt_at is None  # the deal was rolled back with the settlement
        assert not Transaction.objects.filter(round_id=round_id, kind=Transaction.Kind.SETTLE)
    finally:
        faulty.kill()
    cluster.start_worker()
    web, _base = cluster.start_web()
    wait_for(
        lambda: is_final(round_id),
        timeout=DEADLINE,
        what=f"round {round_id} to be finished by the new worker",
    )
    assert_final_once(round_id, completion=Round.Completion.SERVER)
    assert_shoe_advanced_once([round_id])
    web.kill()
