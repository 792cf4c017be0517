"""``manage.py table_bots`` against the ASGI app under uvicorn: real sessions, real streams."""

from __future__ import annotations

import asyncio
import io
import json
import threading

from django.core.management import call_command
from django.db import connections

from baccarat.models import Table
from loadtest.bots import Start, page_fetches_board


def test_bots_play_a_full_table_over_http_without_errors(asgi_server: str) -> None:
    out = io.StringIO()

    def run() -> None:
        # In a thread of its own: the command runs an event loop, and the browser tests
        # of the same session keep one running in this thread.
        try:
            call_command(
                "table_bots",
                tables=1,
                seats=3,
                rounds=2,
                base_url=asgi_server,
                betting_seconds=10,  # ample: the round deals once every bot decided
                cycle_seconds=1,
                arrival_seconds=1,
                think_seconds=0.5,
                tag="test",
                json=True,
                timeout=25,
                stdout=out,
            )
        finally:
            connections.close_all()

    bots = threading.Thread(target=run)
    bots.start()
    bots.join(120)
    assert not bots.is_alive(), "the bots did not finish"
    summary = json.loads(out.getvalue())

    assert summary["errors"] == 0, summary["error_samples"]
    assert summary["results_per_bot"] == {"bot-1-1": 2, "bot-1-2": 2, "bot-1-3": 2}
    assert summary["ledger"]["clean"], summary["ledger"]["violations"]
    assert summary["rounds_played"] >= 2
    assert summary["propagation_ms"]["count"] > 0
    assert summary["requests_ms"]["sit"]["count"] == 3
    # What the bots' own process took before each request went out, kept apart.
    play = summary["in_play"]
    sent = sum(stats["count"] for stats in summary["requests_ms"].values())
    assert summary["queued_ms"]["count"] == sent
    # The bots' event loop, watched all along, and once every table had dealt a coup.
    assert 0 < play["loop_late_ms"]["count"] < summary["loop_late_ms"]["count"]
    # In play: after each bot's first result, its second round's Deal or Pass (and its
    # leaving), no sitting down; the table's events after its first result.
    decided = [play["requests_ms"].get(name, {"count": 0})["count"] for name in ("deal", "pass")]
    assert sum(decided) == 3
    assert "sit" not in play["requests_ms"]
    assert play["requests_ms"]["exit"]["count"] == 3
    assert 0 < play["propagation_all_ms"]["count"] < summary["propagation_all_ms"]["count"]
    # The server runs in this process here: only the bots' own CPU is measured.
    assert set(summary["cpu_ms"]) == {"client"}
    assert summary["cpu_ms"]["client"]["per_round"] > 0
    # The run's table is closed afterwards; its rows stay for the ledger.
    assert Table.objects.get(slug="bots-test-1").is_active is False


def test_no_bot_sits_before_every_bot_is_signed_in() -> None:
    """The login storm stays out of the rounds' figures: :class:`Start` lets the bots
    go only when the last one arrived (or failed)."""
    start = Start(3)
    order: list[str] = []

    async def bot(name: str, delay: float, fails: bool = False) -> None:
        await asyncio.sleep(delay)
        order.append(f"{name} ready")
        start.arrive()
        if fails:
            return
        await start.go.wait()
        order.append(f"{name} sits")

    async def run() -> None:
        await asyncio.gather(bot("a", 0), bot("b", 0.05, fails=True), bot("c", 0.1))

    # In a thread of its own: the browser tests of the same session keep a loop running.
    worker = threading.Thread(target=lambda: asyncio.run(run()))
    worker.start()
    worker.join(10)
    assert order[:3] == ["a ready", "b ready", "c ready"]
    assert sorted(order[3:]) == ["a sits", "c sits"]


def test_the_bots_fetch_their_board_where_the_page_does() -> None:
    """The page's own sitting down, a new shoe and its cut fetch the board; another seat's
    cut offer, or one passed on, is drawn from the event, unless the cut's form is on the
    page (offered to this player, their answer not back yet)."""
    offer = {"kind": "cut_offer", "seat": 2}
    declined = {"kind": "cut_declined", "seat": 1}
    assert page_fetches_board({"kind": "sit", "player": "ann"}, "ann")
    assert not page_fetches_board({"kind": "sit", "player": "bo"}, "ann")
    assert page_fetches_board({"kind": "shoe_new"}, "ann", seat=3)
    assert page_fetches_board({"kind": "burn"}, "ann", seat=3)
    assert not page_fetches_board(offer, "ann", seat=3)
    assert page_fetches_board(offer, "ann", seat=2)
    assert not page_fetches_board(declined, "ann", seat=3)
    assert page_fetches_board(declined, "ann", seat=1, offered=True)
    assert page_fetches_board(offer, "ann", seat=1, offered=True)
    assert not page_fetches_board(offer, "ann")  # not seated: a spectator's page
