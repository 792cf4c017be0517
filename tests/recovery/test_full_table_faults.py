"""The full table when processes die: the timer's worker killed (the sweep deals), and a
web process killed under a browser's live events (it reconnects to another process and
misses nothing, sees nothing twice)."""

from __future__ import annotations

import os
import re
import signal
from collections import Counter

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Shoe, Table, TableEvent
from tests.conftest import PASSWORD
from tests.recovery.conftest import DEADLINE, Client, Cluster, new_token, wait_for
from wallet import services as wallet

pytestmark = [pytest.mark.recovery, pytest.mark.django_db(transaction=True)]


def salon(slug: str, betting: int = 4) -> Table:
    return Table.objects.create(
        name=slug,
        slug=slug,
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
        betting_seconds=betting,
        cycle_seconds=1,
    )


def seated(base: str, player, table: Table, seat: int) -> Client:
    client = Client(base)
    client.sign_in(player.username, PASSWORD)
    status, page = client.get(f"/tables/{table.slug}/")
    assert status == 200, page[:500]
    status, text = client.post(
        f"/tables/{table.slug}/sit/", {"seat": seat, "amount": 100, "token": new_token()}
    )
    assert status == 302, text[:2000]
    return client


def stack(player, table: Table) -> int:
    return wallet.stack_account(player=player, table=table).balance


def cut_and_open(table: Table, first: Client, second: Client) -> Round:
    """Seat 1 declines the cut, seat 2 cuts; the worker then opens a round."""
    wait_for(
        lambda: Shoe.objects.filter(table=table, cut_offer_seat=1).exists(),
        timeout=DEADLINE,
        what="the cut offer",
    )
    assert first.post(f"/tables/{table.slug}/cut/", {"accept": "no"})[0] == 302
    assert second.post(f"/tables/{table.slug}/cut/", {"accept": "yes", "position": 120})[0] == 302
    return wait_for(
        lambda: Round.objects.filter(table=table, shared=True, state=Round.State.BETTING).first(),
        timeout=DEADLINE,
        what="a round to open",
    )


def test_the_sweep_deals_when_the_timers_worker_died(
    cluster: Cluster, make_player, show_logs_on_failure
) -> None:
    table = salon("timer-dies")
    alice, bob = make_player("t-alice"), make_player("t-bob")
    _web, base = cluster.start_web()
    a, b = seated(base, alice, table, 1), seated(base, bob, table, 2)
    round = cut_and_open(table, a, b)
    assert a.post(f"/tables/{table.slug}/bet/", {"kind": "banker", "amount": 500})[0] == 302
    assert b.post(f"/tables/{table.slug}/bet/", {"kind": "player", "amount": 500})[0] == 302
    assert a.post(f"/tables/{table.slug}/deal/", {})[0] == 302  # bob never decides
    # The worker holding the countdown to the deadline dies; a new one starts.
    assert cluster.worker is not None
    cluster.worker.kill()
    cluster.start_worker()
    settled = wait_for(
        lambda: Round.objects.filter(pk=round.pk, state=Round.State.SETTLED).first(),
        timeout=DEADLINE,
        what="the sweep to close betting and deal",
    )
    assert settled.completion == Round.Completion.PLAYED
    assert Play.objects.get(round=round, player=bob).decision == Play.Decision.TIMED_OUT
    assert Play.objects.get(round=round, player=alice).stake_total == 500
    assert audit_violations() == []


def test_a_tick_that_kills_its_worker_is_run_a_bounded_number_of_times_then_the_round_voided(
    cluster: Cluster, make_player, show_logs_on_failure
) -> None:
    """Every tick dies inside the dealing transaction (a prefork pool process SIGKILLed
    after the stakes are locked). A task is sent again only after its delay and run at
    most CASINO_TASK_MAX_RUNS times (two here), then dropped; every tick counts an
    attempt on the round, and once they pass CASINO_RECOVERY_MAX_ATTEMPTS the round is
    voided: the stake back, support alerted, nothing dealt."""
    table = salon("tick-kills", betting=2)
    alice, bob = make_player("k-alice"), make_player("k-bob")
    assert cluster.worker is not None and cluster.beat is not None
    cluster.beat.kill()  # at first only the timer's own tasks tick the table
    cluster.worker.kill()
    dies = {"CASINO_TASK_MAX_RUNS": "2", "CELERY_WORKER_LOST_WAIT": "1"}
    faulty = cluster.start_worker(
        "after_stake", pool="prefork", settings={**dies, "CASINO_RECOVERY_MAX_ATTEMPTS": "99"}
    )
    try:
        _web, base = cluster.start_web()
        a, b = seated(base, alice, table, 1), seated(base, bob, table, 2)
        round = cut_and_open(table, a, b)  # opening a round is not where it dies
        assert a.post(f"/tables/{table.slug}/bet/", {"kind": "banker", "amount": 500})[0] == 302
        assert a.post(f"/tables/{table.slug}/deal/", {})[0] == 302  # bob never decides
        wait_for(lambda: "] dropped" in faulty.tail(100_000), timeout=DEADLINE, what="a drop")
        log = faulty.tail(100_000)
    finally:
        faulty.kill()
    stuck = Round.objects.get(pk=round.pk)
    assert stuck.state == Round.State.BETTING and stuck.recovery_attempts >= 2
    delays = set(re.findall(r"\] retry: Retry in (\d+)s", log))
    assert delays == {str(django_settings.CASINO_TASK_RETRY_SECONDS)}
    retried = Counter(re.findall(r"Task baccarat\.tasks\.\w+\[([0-9a-f-]+)\] retry:", log))
    assert max(retried.values()) == 1, retried  # run twice at most
    dropped = re.findall(r"task baccarat\.tasks\.\w+\[([0-9a-f-]+)\] dropped", log)
    assert dropped and set(dropped) <= set(retried), (dropped, retried)
    # The same worker, now with the escalation in reach; beat's sweeps tick the table.
    faulty = cluster.start_worker(
        "after_stake",
        pool="prefork",
        settings={**dies, "CASINO_RECOVERY_MAX_ATTEMPTS": str(stuck.recovery_attempts)},
    )
    try:
        cluster.start_beat()
        voided = wait_for(
            lambda: Round.objects.filter(pk=round.pk, state=Round.State.VOID).first(),
            timeout=DEADLINE,
            what="the round to be given up",
            step=0.2,
        )
    finally:
        faulty.kill()
    cluster.start_worker()
    assert voided.needs_attention and voided.void_cause == Round.VoidCause.NOT_COMPLETED
    assert f"after {stuck.recovery_attempts} attempts" in voided.void_reason
    assert voided.dealt_at is None and voided.reserved_cards == ""
    assert Play.objects.get(round=round, player=alice).stake_total == 500
    assert stack(alice, table) == 100_00  # the stake came back from escrow
    assert audit_violations() == []


def test_a_killed_web_process_loses_no_event(
    cluster: Cluster, make_player, browser, show_logs_on_failure
) -> None:
    table = salon("web-dies", betting=30)
    alice, bob, watcher = make_player("w-alice"), make_player("w-bob"), make_player("w-eve")
    asgi, base = cluster.start_asgi(workers=2)
    context = browser.new_context(base_url=base)
    try:
        viewer = Client(base)
        viewer.sign_in(watcher.username, PASSWORD)
        context.add_cookies([{"name": c.name, "value": c.value, "url": base} for c in viewer.jar])
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"/tables/{table.slug}/")
        first_seq = table.event_seq
        wait_for(
            lambda: page.evaluate("window.tableEvents.hello.length"), timeout=30, what="the stream"
        )
        a, b = seated(base, alice, table, 1), seated(base, bob, table, 2)
        round = cut_and_open(table, a, b)
        wait_for(
            lambda: page.evaluate("window.tableEvents.seqs.length") >= 8,
            timeout=30,
            what="the first events in the browser",
        )
        serving = page.evaluate("window.tableEvents.hello[0]")
        os.kill(serving, signal.SIGKILL)  # the web process holding the browser's stream
        # Events go on while the browser reconnects to the other process.
        assert a.post(f"/tables/{table.slug}/bet/", {"kind": "banker", "amount": 500})[0] == 302
        assert b.post(f"/tables/{table.slug}/bet/", {"kind": "player", "amount": 500})[0] == 302
        assert a.post(f"/tables/{table.slug}/deal/", {})[0] == 302
        assert b.post(f"/tables/{table.slug}/deal/", {})[0] == 302
        wait_for(
            lambda: Round.objects.filter(pk=round.pk, state=Round.State.SETTLED).exists(),
            timeout=DEADLINE,
            what="the round to be dealt",
        )
        last = TableEvent.objects.filter(table=table).order_by("-seq").first().seq
        wait_for(
            lambda: page.evaluate("window.tableEvents.seqs.slice(-1)[0]") >= last,
            timeout=30,
            what="the browser to catch up",
        )
        seqs = page.evaluate("window.tableEvents.seqs")
        hello = page.evaluate("window.tableEvents.hello")
        assert len(hello) >= 2 and hello[-1] != serving, hello  # served by another process
        assert seqs == list(range(first_seq + 1, seqs[-1] + 1)), seqs  # none missing, none twice
        expect(page.locator(".result-banner")).to_be_visible(timeout=15_000)  # after the reveal
    finally:
        context.close()
        asgi.kill()
