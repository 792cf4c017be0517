"""Players of a single-player table over HTTP, for ``manage.py bench`` and ``soak``.

Each player is one browser: its own client and cookie jar (:mod:`loadtest.loadclient`).
It signs in, opens the table and buys chips, then plays rounds as the page sends them:
the chips are laid out in the browser and DEAL sends the layout (the deal form's fields,
read from the board the last answer drew, with ``layout`` and a ``stake_<spot>``; HTMX),
one request a round. Spots alternate between Player and Banker, so every round changes the
layout and stakes one chip. Afterwards it reads its protocol and the cashier. The
framework floor is measured by the same clients: ``/health/`` and a simple signed-in
page, in loops.

Each phase is timed as a whole (its requests per second) and each request on its own;
``on_phase`` is called at the start and end of each phase (the command samples process
CPU there). Nothing here touches the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from loadtest.loadclient import HTMX, browser_client, csrf_token, form_fields, refusal

SPOTS = ("player", "banker")
FLOOR_HEALTH = "/health/"
FLOOR_PAGE = "/accounts/preferences/"
ERRORS_KEPT = 20
DEALT = 'class="board dealing'  # the board of a round just dealt (board.html)


@dataclass(frozen=True)
class Player:
    username: str
    password: str


@dataclass(frozen=True)
class Plan:
    base_url: str
    table: str  # slug of a single-player table
    buy_in: int  # whole euros bought at the table
    chip: int  # cents staked per round
    https_proxy: bool = False
    csrf_cookie: str = "csrftoken"


@dataclass
class Phase:
    name: str
    started: float = 0.0
    ended: float = 0.0
    times: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    rounds: int = 0

    @property
    def seconds(self) -> float:
        return max(self.ended - self.started, 1e-9)


@dataclass
class Run:
    phases: dict[str, Phase] = field(default_factory=dict)
    error_samples: list[str] = field(default_factory=list)
    error_kinds: Counter[str] = field(default_factory=Counter)
    on_phase: Callable[[str, str], None] = lambda name, edge: None
    current: Phase = field(default_factory=lambda: Phase(""))

    def begin(self, name: str) -> Phase:
        self.current = self.phases[name] = Phase(name, started=time.perf_counter())
        self.on_phase(name, "start")
        return self.current

    def end(self) -> None:
        self.current.ended = time.perf_counter()
        self.on_phase(self.current.name, "end")

    def error(self, who: str, endpoint: str, message: str) -> None:
        self.current.errors[endpoint] += 1
        self.error_kinds[f"{endpoint}: {message}"[:160]] += 1
        if len(self.error_samples) < ERRORS_KEPT:
            self.error_samples.append(f"{who}: {endpoint}: {message}")

    @property
    def errors(self) -> int:
        return sum(sum(phase.errors.values()) for phase in self.phases.values())


class SessionPlayer:
    """One player's browser at the single-player table."""

    def __init__(self, player: Player, plan: Plan, run: Run) -> None:
        self.player = player
        self.plan = plan
        self.run = run
        self.page = f"/tables/{plan.table}/"
        self.client = browser_client(plan.base_url, https_proxy=plan.https_proxy)
        self.spot = secrets.randbelow(2)
        self.signed_in = False
        self.board: str | None = None  # the board the last answer drew (its deal fields)

    async def close(self) -> None:
        await self.client.aclose()

    async def sign_in(self) -> bool:
        if await self.request("login form", "GET", "/accounts/login/") is None:
            return False
        data = {"username": self.player.username, "password": self.player.password}
        answer = await self.request("login", "POST", "/accounts/login/", data=self._form(data))
        if answer is None:
            return False
        if answer.status_code != 302:
            self.run.error(self.player.username, "login", f"refused ({answer.status_code})")
            return False
        self.signed_in = True
        return True

    async def sit(self) -> bool:
        """Open the table (its first shoe is shuffled then) and buy chips."""
        if await self.request("table page", "GET", self.page) is None:
            return False
        token = f"bench-{secrets.token_hex(8)}"
        data = {"amount": str(self.plan.buy_in), "token": token}
        self.board = await self.action("rebuy", "rebuy/", data)
        return self.board is not None

    async def play_round(self) -> bool:
        if self.board is None:  # after an error: the page as it is now
            page = await self.request("table page", "GET", self.page)
            if page is None:
                return False
            self.board = page.text
        self.spot = 1 - self.spot  # alternate: the layout changes every round
        data = {
            **form_fields(self.board, "deal-form"),
            "layout": "on",
            f"stake_{SPOTS[self.spot]}": str(self.plan.chip),
        }
        self.board = await self.action("deal", "deal/", data)
        if self.board is None:
            return False
        if DEALT not in self.board:
            self.run.error(self.player.username, "deal", "answered without a deal")
            self.board = None
            return False
        self.run.current.rounds += 1
        return True

    async def hit(self, name: str, url: str) -> bool:
        return await self.request(name, "GET", url) is not None

    # HTTP ------------------------------------------------------------------------------

    def _form(self, data: dict[str, str]) -> dict[str, str]:
        return {**data, "csrfmiddlewaretoken": csrf_token(self.client, self.plan.csrf_cookie)}

    async def action(self, name: str, action: str, data: dict[str, str]) -> str | None:
        """A POST at the table as HTMX sends it: the board's HTML, or None if refused."""
        answer = await self.request(
            name, "POST", self.page + action, data=self._form(data), headers=HTMX
        )
        if answer is None:
            return None
        refused = refusal(answer.text)
        if refused:
            self.run.error(self.player.username, name, f"refused: {refused}")
            return None
        return answer.text

    async def request(
        self, name: str, method: str, url: str, **kwargs: Any
    ) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            answer = await self.client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            self.run.error(self.player.username, name, f"{type(error).__name__}: {error}")
            return None
        self.run.current.times[name].append(time.perf_counter() - started)
        if answer.status_code >= 400:
            hint = " (rate limit: start the server with CASINO_RATE_TABLE=)" * (
                answer.status_code == 429
            )
            self.run.error(self.player.username, name, f"status {answer.status_code}{hint}")
            return None
        return answer


async def _each(players: list[SessionPlayer], step: Callable[[SessionPlayer], Any]) -> None:
    await asyncio.gather(*(step(p) for p in players if p.signed_in))


async def _loop_for(seconds: float, players: list[SessionPlayer], name: str, url: str) -> None:
    deadline = time.perf_counter() + seconds

    async def loop(player: SessionPlayer) -> None:
        while time.perf_counter() < deadline:
            await player.hit(name, url)

    await _each(players, loop)


async def _signed_in(specs: list[Player], plan: Plan, run: Run) -> list[SessionPlayer]:
    players = [SessionPlayer(spec, plan, run) for spec in specs]
    run.begin("sign in")
    await asyncio.gather(*(p.sign_in() for p in players))
    run.end()
    run.begin("sit")
    await _each(players, SessionPlayer.sit)
    run.end()
    return players


async def bench_run(
    *,
    specs: list[Player],
    plan: Plan,
    rounds: int,
    floor_seconds: float,
    page_visits: int,
    on_phase: Callable[[str, str], None],
) -> Run:
    """Whole sessions at once, one per player: sign in, the floor, sit, rounds, the
    protocol and the cashier. Each phase waits for every player to finish it."""
    run = Run(on_phase=on_phase)
    players = await _signed_in(specs, plan, run)
    try:
        for name, url in (("health", FLOOR_HEALTH), ("simple page", FLOOR_PAGE)):
            run.begin(f"floor {name}")
            await _loop_for(floor_seconds, players, name, url)
            run.end()

        async def play(player: SessionPlayer) -> None:
            for _ in range(rounds):
                if not await player.play_round():
                    return  # an error is counted; the round may be in any state now

        run.begin("rounds")
        await _each(players, play)
        run.end()

        async def visit(player: SessionPlayer) -> None:
            for _ in range(page_visits):
                await player.hit("protocol", "/protocol/")
                await player.hit("cashier", "/cashier/")

        run.begin("protocol and cashier")
        await _each(players, visit)
        run.end()
    finally:
        await asyncio.gather(*(p.close() for p in players))
    return run


async def soak_run(
    *,
    specs: list[Player],
    plan: Plan,
    rate: float,
    seconds: float,
    sample_every: float,
    sample: Callable[[float], None],
) -> Run:
    """Rounds at a fixed rate (rounds per second, spread over the players) for
    ``seconds``; ``sample(elapsed)`` runs in a thread every ``sample_every`` seconds."""
    run = Run()
    players = await _signed_in(specs, plan, run)
    interval = 1 / rate
    phase = run.begin("rounds")
    start = phase.started
    slots = iter(range(10**12))

    async def play(player: SessionPlayer) -> None:
        while True:
            due = start + next(slots) * interval
            if due - start >= seconds:
                return
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            if not await player.play_round():
                await asyncio.sleep(1)  # an error is counted; do not spin on it

    stop = asyncio.Event()

    async def sampler() -> None:
        ticks = 0
        while not stop.is_set():
            await asyncio.to_thread(sample, time.perf_counter() - start)
            ticks += 1
            wait = max(0.0, start + ticks * sample_every - time.perf_counter())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)

    sampling = asyncio.create_task(sampler())
    try:
        await _each(players, play)
    finally:
        stop.set()
        await sampling
        run.end()
        await asyncio.to_thread(sample, time.perf_counter() - start)
        await asyncio.gather(*(p.close() for p in players))
    return run
