"""A production web process without collected static files refuses to start, saying
what to run, instead of answering every page with a 500."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings


def production(tmp_path: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "startup-test-" + "x" * 50,
        "STATIC_ROOT": str(tmp_path / "static"),
        "CASINO_VAR_DIR": str(tmp_path / "var"),
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env


@pytest.mark.parametrize("entry", ["casino.asgi", "casino.wsgi"])
def test_the_web_process_needs_collectstatic(tmp_path: Path, entry: str) -> None:
    env = production(tmp_path)
    start = [sys.executable, "-c", f"import {entry}"]
    refused = subprocess.run(start, env=env, capture_output=True, text=True, cwd=settings.BASE_DIR)
    assert refused.returncode != 0
    assert "run `python manage.py collectstatic --noinput`" in refused.stderr

    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(collect, env=env, check=True, cwd=settings.BASE_DIR)
    started = subprocess.run(start, env=env, capture_output=True, text=True, cwd=settings.BASE_DIR)
    assert started.returncode == 0, started.stderr
