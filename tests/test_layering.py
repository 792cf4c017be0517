"""The rooms' doors: the wallet knows nothing of the game, the engine nothing of Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", python_files("wallet"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_wallet_imports_nothing_of_the_game(path: Path) -> None:
    game = {m for m in imported_modules(path) if m == "baccarat" or m.startswith("baccarat.")}
    assert not game, f"{path.relative_to(ROOT)} imports {sorted(game)}"


@pytest.mark.parametrize(
    "path", python_files("baccarat/engine"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_engine_imports_no_django(path: Path) -> None:
    outside = {
        m
        for m in imported_modules(path)
        if m.split(".")[0] in {"django", "baccarat", "wallet", "casino", "celery"}
        and not m.startswith("baccarat.engine")
    }
    assert not outside, f"{path.relative_to(ROOT)} imports {sorted(outside)}"


@pytest.mark.parametrize(
    "path",
    python_files("wallet") + python_files("baccarat"),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_lower_rooms_never_import_the_project_room_at_run_time(path: Path) -> None:
    """``casino`` uses ``baccarat``, which uses ``wallet``: never the other way round
    (a type-only import of the user model excepted)."""
    tree = ast.parse(path.read_text())
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only.update(id(child) for child in ast.walk(node))
    upward = []
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("casino"):
            upward.append(node.module)
        elif isinstance(node, ast.Import):
            upward += [a.name for a in node.names if a.name.startswith("casino")]
    allowed = {"baccarat/admin.py": {"casino.support.models"}}  # the table audit log
    rel = str(path.relative_to(ROOT))
    assert set(upward) <= allowed.get(rel, set()), f"{rel} imports {upward}"
