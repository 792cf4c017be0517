"""The rooms and their doors (docs/architecture.md): ``casino`` uses ``baccarat``, which
uses ``wallet``; inside the game each room uses only the rooms below it; the engine knows
no Django; ``loadtest`` loads the product and nothing of the product imports it; and no
module imports itself back through others, at the top of a file or inside a function."""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("casino", "baccarat", "wallet")
PACKAGES = (*PRODUCT, "loadtest")

# The game's rooms from the bottom up: a module may import its own room and the rooms of
# the layers below its own, nothing beside or above it.
GAME_LAYERS: list[set[str]] = [
    {"engine"},  # pure rules, roads, odds
    {"models", "errors"},
    {"db", "rules", "forms", "admin_forms"},  # written-out SQL, rule sets, forms
    {"events"},  # the events outbox
    {"integrity"},  # shoes, fairness, reversals, audit
    {"board"},  # what a table's page reads and draws
    {"play"},  # a round at any table: bets, lock/deal/settle/void, stacks, practice
    {"protocol"},
    {"full"},  # the full table: croupier, seats, chat, live stream
    {"single"},  # the table's URLs, the single-seat table
    {"recovery"},  # the sweep, across the rooms
    {"tasks", "admin", "urls", "apps", "management"},
]
GAME_RANK = {room: rank for rank, rooms in enumerate(GAME_LAYERS) for room in rooms}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def _own(name: str) -> str | None:
    """The product module an imported name lands in (``baccarat.full.seats.seat_take``
    is ``baccarat.full.seats``), or None outside the project."""
    while name:
        if name in modules():
            return name
        name = name.rpartition(".")[0]
    return None


@cache
def imports(module: str) -> frozenset[str]:
    """The project's modules that ``module`` imports at run time, anywhere in the file (an
    import only for type checking, under ``if TYPE_CHECKING:``, is not one)."""
    tree = ast.parse(modules()[module].read_text())
    type_only = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for child in ast.walk(node)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            found.update(_own(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found.add(_own(f"{node.module}.{alias.name}") or _own(node.module))
    return frozenset(name for name in found if name and name != module)


def room(module: str) -> str:
    """``baccarat.full.seats`` is in the room ``full``, ``baccarat.recovery`` is one."""
    return module.split(".")[1] if module.count(".") else ""


@pytest.mark.parametrize("module", [m for m in modules() if m.startswith("wallet")])
def test_the_wallet_imports_nothing_of_the_game_or_the_project(module: str) -> None:
    outside = {m for m in imports(module) if not m.startswith("wallet")}
    assert not outside, f"{module} imports {sorted(outside)}"


@pytest.mark.parametrize("module", [m for m in modules() if m.startswith("baccarat.engine")])
def test_the_engine_imports_no_django_and_nothing_of_the_game(module: str) -> None:
    tree = ast.parse(modules()[module].read_text())
    roots = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    }
    assert not roots & {"django", "celery", *PACKAGES} - {"baccarat"}
    assert all(m.startswith("baccarat.engine") for m in imports(module)), sorted(imports(module))


@pytest.mark.parametrize("module", [m for m in modules() if m.startswith(("baccarat", "wallet"))])
def test_the_lower_rooms_never_import_the_project(module: str) -> None:
    """The user model under ``if TYPE_CHECKING:`` is the one exception: a type, no import."""
    upward = {m for m in imports(module) if m.startswith("casino")}
    assert not upward, f"{module} imports {sorted(upward)}"


@pytest.mark.parametrize("module", [m for m in modules() if m.startswith(PRODUCT)])
def test_nothing_of_the_product_imports_the_load_tools(module: str) -> None:
    tools = {m for m in imports(module) if m.startswith("loadtest")}
    assert not tools, f"{module} imports {sorted(tools)}"


def test_every_room_of_the_game_has_its_layer() -> None:
    rooms = {room(m) for m in modules() if m.startswith("baccarat.")}
    assert rooms - {""} == set(GAME_RANK)


@pytest.mark.parametrize("module", [m for m in modules() if m.startswith("baccarat.")])
def test_a_room_of_the_game_imports_only_the_rooms_below_it(module: str) -> None:
    own = room(module)
    wrong = sorted(
        m
        for m in imports(module)
        if m.startswith("baccarat.") and room(m) != own and GAME_RANK[room(m)] >= GAME_RANK[own]
    )
    assert not wrong, f"{module} (room {own!r}) imports {wrong}: beside or above it"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_back_through_others() -> None:
    graph = {module: set(imports(module)) for module in modules()}
    assert _cycles(graph) == []


def _package_room(module: str) -> str:
    """A sub-package is a room (``casino.security``, ``baccarat.full``); a module at the
    top of its package is one of its own (``casino.asgi``, ``baccarat.recovery``)."""
    parts = module.split(".")
    if len(parts) > 2 and (ROOT / parts[0] / parts[1]).is_dir():
        return ".".join(parts[:2])
    return module


def test_no_room_imports_itself_back_through_others() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for module in modules():
        for other in imports(module):
            if _package_room(other) != _package_room(module):
                graph[_package_room(module)].add(_package_room(other))
    assert _cycles(dict(graph)) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
