"""Bots that play full tables over HTTP as browsers do, and what they measured.

Used by ``manage.py table_bots`` for tests and benchmarks. Each bot is one player with its
own HTTP client and cookie jar: it signs in, opens the table page and its event stream,
sits down once every bot got that far (:class:`Start`; then each at a random moment of
the arrival window), and for each round lays a bet out as
the page does (sent once the chips pause, and with Deal) and presses Deal (now and then
Pass), cuts or declines a shoe offered to it, and leaves
after a number of results. With ``Plan.refresh_board`` it also fetches its own board when
the page does (``static/js/full_table.js``): once per burst of events that the page
cannot draw from their data alone (:func:`page_fetches_board`), the load of real
browsers.

Nothing here touches the database: the bots see the server only through HTTP, so they can
measure a server in other processes. Times are the host's clock (``time.time()``), the
same clock as the events' ``at`` when the bots run on the server's host.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from loadtest.loadclient import HTMX, browser_client, csrf_token, refusal

CHIP = 500  # cents: every bet is one to three chips of 5 €
BOARD_DEBOUNCE_SECONDS = 0.06  # as the page: one board request per burst of events
LAYOUT_PAUSE_SECONDS = 0.4  # as the page (LAYOUT_PAUSE_MS): the chips sent after a pause
STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)  # the server sends a keep-alive every 15 s
STREAM_RETRIES = 5

# What the page draws from an event's data alone (static/js/full_table.js, ``draw``):
# another seat's chips and decision, another player sitting down or leaving, a round's
# opening, the end of betting, the chat, a new shoe's cut offered to another seat or
# passed on. Every other event (a round's cards, a new shoe, its cut and burn, a void)
# makes it fetch its board, and so does its own sitting down or leaving, and the cut
# offered to it or passed on while its offer is on the page.
DRAWN_FROM_THE_EVENT = {
    "bets",
    "decision",
    "round_open",
    "betting_closed",
    "chat",
    "chat_removed",
    "chat_unmuted",
}


def page_fetches_board(
    event: dict[str, Any], username: str, *, seat: int | None = None, offered: bool = False
) -> bool:
    """Whether the table's page fetches its board for ``event`` (its own chips and
    decisions come with the answers to its own requests). ``seat``: the page's player's;
    ``offered``: the cut's form is on the page (offered to them, not answered yet)."""
    kind = event["kind"]
    if kind in ("sit", "leave"):
        return event.get("player") == username
    if kind == "cut_offer":
        return offered or (seat is not None and event.get("seat") == seat)
    if kind == "cut_declined":
        return offered
    return kind not in DRAWN_FROM_THE_EVENT


@dataclass(frozen=True)
class BotSpec:
    username: str
    password: str
    table: str  # the table's slug
    seat: int
    buy_in: int  # whole euros brought to the table
    base_url: str = ""  # the server this bot talks to (the plan's when empty)


@dataclass(frozen=True)
class Plan:
    base_url: str
    rounds: int  # results each bot waits for before it leaves
    cut_range: tuple[int, int]  # positions a player may cut the shoe at
    timeout: float  # seconds a bot may take to see its results
    csrf_cookie: str = "csrftoken"
    # Present the connection as HTTPS behind a proxy (the server trusts X-Forwarded-Proto):
    # its cookies are Secure, and the bots keep sending them, as a browser behind TLS.
    https_proxy: bool = False
    refresh_board: bool = False
    seed: int | None = None
    # The players arrive over this many seconds once every bot is signed in: each sits
    # down at a random moment within it (0: all in the same instant).
    arrival_seconds: float = 0.0
    # A player's thinking: a random pause of up to this many seconds before the first chip
    # of a round, and short ones (up to a sixth of it) before each further chip and the
    # decision. 0: every action at once (80 players clicking in the same instant).
    think_seconds: float = 0.0


@dataclass
class Delivery:
    """One event as one bot received it."""

    table: str
    seq: int
    kind: str
    at: float  # written on the server, in the transaction of its change
    received: float
    live: bool  # committed after the bot's stream was open (not read from the backlog)


@dataclass
class Metrics:
    deliveries: list[Delivery] = field(default_factory=list)
    requests: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # The same, for the requests a bot sent once it had seen its table's first result:
    # the tables in play, their opening left out (every seat taken in the same seconds,
    # the shoe offered for the cut and burnt, the first round dealt).
    in_play: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # What the bots' own process took before a request went out (all requests, in play).
    queued: list[float] = field(default_factory=list)
    in_play_queued: list[float] = field(default_factory=list)
    # How late the bots' event loop woke for a timer, every 10 ms of the run (when, how
    # late): while it is late, every bot reads its answers and events late.
    loop_late: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    error_kinds: Counter[str] = field(default_factory=Counter)  # numbers left out
    results: defaultdict[str, dict[int, float]] = field(default_factory=lambda: defaultdict(dict))
    opened: defaultdict[str, dict[int, float]] = field(default_factory=lambda: defaultdict(dict))
    results_seen: dict[str, int] = field(default_factory=dict)
    web_processes: set[int] = field(default_factory=set)
    started: float = 0.0
    finished: float = 0.0


class Start:
    """The bots sit down together, once every one has signed in and opened its stream:
    eighty password checks at once are a login storm, not a table in play, and would
    otherwise land on the first rounds' figures (logins are measured on their own)."""

    def __init__(self, bots: int, on_go: Callable[[], None] | None = None) -> None:
        self.waiting = bots
        self.go = asyncio.Event()
        self.on_go = on_go

    def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0 and not self.go.is_set():
            if self.on_go is not None:
                self.on_go()  # the play begins: what the run measures starts here
            self.go.set()


class Bot:
    """One player at one full table, driven by the table's events."""

    def __init__(
        self,
        spec: BotSpec,
        plan: Plan,
        metrics: Metrics,
        rng: random.Random,
        start: Start | None = None,
    ) -> None:
        self.spec = spec
        self.start = start or Start(1)
        self.arrived = False
        self.plan = plan
        self.metrics = metrics
        self.rng = rng
        self.page = f"/tables/{spec.table}/"
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.connected = asyncio.Event()
        self.dirty = asyncio.Event()
        self.dealt: int | None = None
        self.seat: int | None = None  # from this bot's own ``sit`` event
        # As the page knows them when an event arrives: its player's seat (from the
        # ``sit`` event as it is received), and whether the cut's form is on it (offered
        # to this bot, its answer not read yet).
        self.page_seat: int | None = None
        self.cut_form = False
        self.seated = False  # sat down and not left yet: leave at the end
        self.results = 0
        self.client: httpx.AsyncClient

    # The run ---------------------------------------------------------------------------

    async def run(self) -> None:
        reader = refresher = None
        async with self._client() as self.client:
            try:
                if not await self._login():
                    return
                after = await self._event_seq()
                reader = asyncio.create_task(self._read_events(after))
                await asyncio.wait_for(self.connected.wait(), 30)
                self._arrive()
                await self.start.go.wait()
                await asyncio.sleep(self.rng.uniform(0, self.plan.arrival_seconds))
                token = f"bots-{self.rng.getrandbits(64):x}"
                sit = {"seat": self.spec.seat, "amount": self.spec.buy_in, "token": token}
                if not await self._post("sit", "sit/", **sit):
                    return
                self.seated = True
                if self.plan.refresh_board:
                    refresher = asyncio.create_task(self._refresh_board())
                try:
                    await asyncio.wait_for(self._play(), self.plan.timeout)
                except TimeoutError:
                    self._error(f"the time ran out ({self.plan.timeout:.0f} s)")
            except Exception as error:
                self._error(f"{type(error).__name__}: {error}")
            finally:
                self._arrive()  # a bot that failed before the start does not hold it up
                self.metrics.results_seen[self.spec.username] = self.results
                if self.results < self.plan.rounds:
                    self._error(f"saw {self.results} of {self.plan.rounds} results")
                for task in (refresher, reader):
                    if task is not None:
                        task.cancel()
                if self.seated:
                    await self._post("exit", "exit/")

    def _arrive(self) -> None:
        if not self.arrived:
            self.arrived = True
            self.start.arrive()

    def _client(self) -> httpx.AsyncClient:
        base_url = self.spec.base_url or self.plan.base_url
        return browser_client(base_url, https_proxy=self.plan.https_proxy)

    async def _login(self) -> bool:
        if await self._request("login_form", "GET", "/accounts/login/") is None:
            return False
        response = await self._request(
            "login",
            "POST",
            "/accounts/login/",
            data={
                "username": self.spec.username,
                "password": self.spec.password,
                "csrfmiddlewaretoken": self._csrf(),
            },
        )
        if response is None:
            return False
        if response.status_code != 302:
            self._error(f"login refused ({response.status_code})")
            return False
        return True

    async def _event_seq(self) -> int:
        response = await self._request("page", "GET", self.page)
        found = re.search(r'data-event-seq="(\d+)"', response.text if response else "")
        if found is None:
            raise RuntimeError("the table page shows no event number")
        return int(found.group(1))

    # The game --------------------------------------------------------------------------

    async def _play(self) -> None:
        while self.results < self.plan.rounds:
            event = await self.events.get()
            kind = event["kind"]
            mine = event.get("player") == self.spec.username
            if kind == "sit" and mine:
                self.seat = event["seat"]
            elif self.seat is None:
                continue  # what happened before this bot sat down is not its business
            elif kind == "leave" and mine:
                self.seated = False
                self._error(f"stood up by the server ({event.get('reason')})")
                return
            elif kind == "cut_offer" and event.get("seat") == self.seat:
                await self._cut()
            elif kind == "round_open":
                await self._bet_and_decide()
            elif kind == "result":
                self.results += 1

    async def _think(self, longest: float) -> None:
        if longest > 0:
            await asyncio.sleep(self.rng.uniform(0, longest))

    async def _bet_and_decide(self) -> None:
        """Chips laid out on the page; the layout sent when they pause as long as the
        page waits (LAYOUT_PAUSE_SECONDS), and with Deal."""
        kind = self.rng.choice(["player", "banker", "tie"])
        await self._think(self.plan.think_seconds)
        stake = sent = 0
        for chip in range(self.rng.randint(1, 3)):
            if chip:
                sent = await self._pause(self.plan.think_seconds / 6, kind, stake, sent)
            stake += CHIP
        await self._pause(self.plan.think_seconds / 6, kind, stake, sent)
        if self.rng.random() < 1 / 8:
            await self._post("pass", "pass/")
        else:
            await self._post("deal", "deal/", layout="on", **{f"stake_{kind}": stake})

    async def _pause(self, longest: float, kind: str, stake: int, sent: int) -> int:
        """A pause in the chips of up to ``longest`` seconds: the page sends its layout
        once it has lasted LAYOUT_PAUSE_SECONDS. The stake the server has now."""
        pause = self.rng.uniform(0, longest) if longest > 0 else 0.0
        if pause < LAYOUT_PAUSE_SECONDS or stake == sent:
            await asyncio.sleep(pause)
            return sent
        await asyncio.sleep(LAYOUT_PAUSE_SECONDS)
        fields = {"layout": "on", f"stake_{kind}": stake}
        if not await self._post("layout", "layout/", **fields):
            return sent
        await asyncio.sleep(pause - LAYOUT_PAUSE_SECONDS)
        return stake

    async def _cut(self) -> None:
        if self.rng.random() < 0.5:
            position = self.rng.randint(*self.plan.cut_range)
            await self._post("cut", "cut/", accept="yes", position=position)
        else:
            await self._post("cut", "cut/", accept="no")
        self.cut_form = False  # the answer's board replaced it

    # The events ------------------------------------------------------------------------

    async def _read_events(self, after: int) -> None:
        """Read the table's events into the queue; come back after a drop (an error)."""
        last = after
        for _attempt in range(STREAM_RETRIES + 1):
            try:
                async with self.client.stream(
                    "GET",
                    f"{self.page}events/",
                    params={"after": last},
                    headers={"Accept": "text/event-stream"},
                    timeout=STREAM_TIMEOUT,
                ) as response:
                    if response.status_code != 200:
                        raise RuntimeError(f"status {response.status_code}")
                    connected_at = time.time()
                    async for data in _sse_data(response):
                        received = time.time()
                        event = json.loads(data)
                        if event["kind"] == "hello":
                            self.metrics.web_processes.add(event["pid"])
                            connected_at = received
                            self.connected.set()
                            continue
                        last = self._check_seq(last, event["seq"])
                        self._received(event, received, live=event["at"] >= connected_at)
                raise RuntimeError("the server ended the stream")
            except asyncio.CancelledError:
                raise
            except Exception as error:
                self._error(f"event stream: {type(error).__name__}: {error}")
                await asyncio.sleep(1)

    def _check_seq(self, last: int, seq: int) -> int:
        if seq != last + 1:
            what = "gap" if seq > last + 1 else "duplicate"
            self._error(f"event {what}: {seq} after {last}")
        return max(last, seq)

    def _received(self, event: dict[str, Any], received: float, *, live: bool) -> None:
        table, kind, at = self.spec.table, event["kind"], event["at"]
        self.metrics.deliveries.append(Delivery(table, event["seq"], kind, at, received, live))
        if kind == "round_open":
            self.metrics.opened[table].setdefault(event["round"], at)
        elif kind == "result":
            self.metrics.results[table].setdefault(event["round"], at)
        if kind in ("card", "result"):
            self.dealt = event["round"]
        if kind == "sit" and event.get("player") == self.spec.username:
            self.page_seat = event["seat"]
        self.events.put_nowait(event)
        if page_fetches_board(
            event, self.spec.username, seat=self.page_seat, offered=self.cut_form
        ):
            self.dirty.set()
        if kind == "cut_offer" and event.get("seat") == self.page_seat:
            self.cut_form = True  # on the page once its board is drawn

    async def _refresh_board(self) -> None:
        """The page's answer to events: its own board, once per burst."""
        while True:
            await self.dirty.wait()
            await asyncio.sleep(BOARD_DEBOUNCE_SECONDS)
            self.dirty.clear()
            params = {"dealt": self.dealt} if self.dealt else {}
            self.dealt = None
            await self._request("board", "GET", self.page, params=params, headers=HTMX)

    # HTTP ------------------------------------------------------------------------------

    def _csrf(self) -> str:
        return csrf_token(self.client, self.plan.csrf_cookie)

    async def _post(self, name: str, action: str, **fields: Any) -> bool:
        """An action at the table, as HTMX sends it; False when it failed or was refused."""
        data = {key: str(value) for key, value in fields.items()}
        data["csrfmiddlewaretoken"] = self._csrf()
        response = await self._request(name, "POST", self.page + action, data=data, headers=HTMX)
        if response is None:
            return False
        refused = refusal(response.text)
        if refused:
            self._error(f"{name} refused: {refused}")
            return False
        return True

    async def _request(
        self, name: str, method: str, url: str, **kwargs: Any
    ) -> httpx.Response | None:
        in_play = self.results > 0
        called = time.perf_counter()
        wire: list[float] = []  # when the request's first byte went out (or its connect)

        async def trace(event: str, info: Any) -> None:
            if not wire:
                wire.append(time.perf_counter())

        kwargs.setdefault("extensions", {})["trace"] = trace
        try:
            response = await self.client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            self._error(f"{name}: {type(error).__name__}: {error}")
            return None
        answered = time.perf_counter()
        sent = wire[0] if wire else called
        # A request's time is the browser's: from the wire to its answer read. What the
        # bots' own process took before it went out (eighty browsers' clicks queued in
        # one Python process, where real browsers each have their own machine) is kept
        # apart, as a browser's developer tools show their "queueing".
        self.metrics.requests[name].append(answered - sent)
        self.metrics.queued.append(sent - called)
        if in_play:
            self.metrics.in_play[name].append(answered - sent)
            self.metrics.in_play_queued.append(sent - called)
        if response.status_code >= 400:
            self._error(f"{name}: status {response.status_code}")
            return None
        return response

    def _error(self, message: str) -> None:
        self.metrics.errors.append(f"{self.spec.username} at {self.spec.table}: {message}")
        self.metrics.error_kinds[re.sub(r"\d+", "N", message)] += 1


async def _sse_data(response: httpx.Response) -> AsyncIterator[str]:
    """The ``data`` of each Server-Sent Events message (comments and ids skipped: each
    event carries its number as ``seq``)."""
    lines: list[str] = []
    async for line in response.aiter_lines():
        if not line:
            if lines:
                yield "\n".join(lines)
            lines = []
        elif line.startswith("data:"):
            lines.append(line[5:].removeprefix(" "))


async def bots_run(
    *, specs: list[BotSpec], plan: Plan, on_play: Callable[[], None] | None = None
) -> Metrics:
    """Run every bot at once until each has seen its results (or failed); what they saw.
    ``on_play`` is called once every bot has signed in and opened its stream, as they
    start to sit down."""
    metrics = Metrics(started=time.time())
    seed = plan.seed if plan.seed is not None else random.SystemRandom().getrandbits(32)
    start = Start(len(specs), on_go=on_play)
    bots = [
        Bot(spec, plan, metrics, random.Random(f"{seed}:{spec.username}"), start) for spec in specs
    ]
    watch = asyncio.create_task(_watch_loop(metrics.loop_late))
    try:
        await asyncio.gather(*(bot.run() for bot in bots))
    finally:
        watch.cancel()
    metrics.finished = time.time()
    return metrics


LOOP_TICK_SECONDS = 0.01


async def _watch_loop(late: list[tuple[float, float]]) -> None:
    """How late this process's event loop wakes for a timer of ``LOOP_TICK_SECONDS``."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(LOOP_TICK_SECONDS)
        woke = time.perf_counter() - asked - LOOP_TICK_SECONDS
        late.append((time.time(), max(0.0, woke)))
