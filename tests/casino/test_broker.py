"""The embedded broker never shows a consumer a half-written message."""

from __future__ import annotations

import builtins
import os

import pytest
from kombu import Connection
from kombu.transport import filesystem

from casino.runtime.broker import Transport


def visible_while_writing(transport, folder, monkeypatch) -> list[tuple[str, int]]:
    """Publish one message; while its bytes are being written, note every file a
    consumer would pick up (``*.<queue>.msg``) and its size at that moment."""
    seen: list[tuple[str, int]] = []
    real_open = builtins.open

    class Spy:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data):
            for name in os.listdir(folder):
                if name.endswith(".jobs.msg"):
                    seen.append((name, os.path.getsize(os.path.join(folder, name))))
            return self.handle.write(data)

        def __getattr__(self, name):
            return getattr(self.handle, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return self.handle.__exit__(*exc)

    def spying_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return Spy(handle) if "w" in mode and str(file).startswith(folder) else handle

    options = {"data_folder_in": folder, "data_folder_out": folder}
    with Connection(transport=transport, transport_options=options) as connection:
        queue = connection.SimpleQueue("jobs")
        monkeypatch.setattr(builtins, "open", spying_open)
        queue.put({"task": "recover_rounds"})
        monkeypatch.setattr(builtins, "open", real_open)
        assert queue.get(timeout=1).payload == {"task": "recover_rounds"}
    return seen


def test_a_message_is_invisible_until_complete(tmp_path, monkeypatch):
    assert visible_while_writing(Transport, str(tmp_path), monkeypatch) == []


def test_the_stock_transport_shows_an_empty_file(tmp_path, monkeypatch):
    # Why casino.runtime.broker exists: Kombu's own channel exposes the file before writing it.
    seen = visible_while_writing(filesystem.Transport, str(tmp_path), monkeypatch)
    if not seen:
        pytest.skip("this Kombu version no longer exposes partial files")
    assert seen[0][1] == 0


def test_a_worker_leaves_the_checkout_untouched(tmp_path) -> None:
    """Kombu's exchange tables go under the var folder, not into ``./control``."""
    import shutil
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")

    def status() -> str:
        return subprocess.run(
            [git, "status", "--porcelain", "--untracked-files=all"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    before = status()
    had_control = (root / "control").exists()  # an older checkout's leftovers
    var = tmp_path / "var"
    env = {
        **os.environ,
        "CASINO_VAR_DIR": str(var),
        "CELERY_BROKER_URL": "filesystem://",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino",
            "worker",
            "--pool=solo",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            "git@%h",
        ],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        control = var / "celery" / "control"
        while time.monotonic() < deadline and not any(control.glob("*.exchange")):
            time.sleep(0.2)
        assert any(control.glob("*.exchange")), "the worker wrote no exchange table"
    finally:
        worker.terminate()
        worker.wait(30)
    assert (root / "control").exists() == had_control
    assert status() == before
