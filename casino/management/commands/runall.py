"""``make run``: the web server, a Celery worker and Celery beat, stopped together.

The web server is uvicorn (ASGI), as in production, so the full table's live events
stream here too; ``--reload`` restarts it when the code changes.

Each child runs in a session of its own, so a Ctrl-C reaches only this command,
which then stops all three and waits for them. If one of them dies, the others
are stopped too and the exit status says so.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the web server, a Celery worker and Celery beat until Ctrl-C."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000")
        parser.add_argument("--reload", action="store_true", help="Restart on code changes.")

    def handle(self, *args: Any, **options: Any) -> None:
        python = sys.executable
        host, _, port = options["addr"].rpartition(":")
        web = [python, "-m", "uvicorn", "casino.asgi:application", "--host", host or "127.0.0.1"]
        # Live streams never finish by themselves: on Ctrl-C, close them after 5 s (the
        # browsers come back by Last-Event-ID) instead of waiting for them.
        web += ["--port", port, "--log-level", "info", "--timeout-graceful-shutdown", "5"]
        if options["reload"]:
            web += ["--reload", "--reload-dir", "baccarat", "--reload-dir", "casino"]
            web += ["--reload-dir", "wallet", "--reload-dir", "templates"]
        commands = {
            "web": web,
            "worker": [python, "-m", "celery", "-A", "casino", "worker", "--loglevel=INFO"],
            "beat": [python, "-m", "celery", "-A", "casino", "beat", "--loglevel=INFO"],
        }
        children = {
            name: subprocess.Popen(command, start_new_session=True)  # noqa: S603
            for name, command in commands.items()
        }
        stopping = False

        def stop(signum: int, frame: FrameType | None) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        self.stdout.write(f"Casino on http://{options['addr']}/ (Ctrl-C stops all three)")
        failed = ""
        while not stopping and not failed:
            failed = next((name for name, c in children.items() if c.poll() is not None), "")
            time.sleep(0.2)
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if failed:
            self.stderr.write(f"{failed} stopped unexpectedly; stopped the others.")
            sys.exit(1)
        self.stdout.write("Stopped web server, worker and beat.")
