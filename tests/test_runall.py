"""``manage.py runall``: which processes it starts, with what, and what it refuses."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.management.commands.runall import Command, roles_of


def test_roles_are_all_or_a_list_of_web_worker_beat() -> None:
    assert roles_of("all") == ["web", "worker", "beat"]
    assert roles_of("beat,web") == ["web", "beat"]
    with pytest.raises(CommandError, match="--role"):
        roles_of("web,cron")


def test_web_processes_pool_connections_and_the_worker_never_does(monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    options = {
        "addr": "0.0.0.0:8000",
        "workers": 4,
        "reload": False,
        "db_pool": 8,
        "worker_concurrency": 2,
    }
    commands = Command()._commands(["web", "worker", "beat"], options)
    web, web_env = commands["web"]
    assert web[web.index("--workers") + 1] == "4"
    assert web[web.index("--timeout-graceful-shutdown") + 1] == "5"
    assert web_env["DATABASE_POOL_SIZE"] == "8"
    worker, worker_env = commands["worker"]
    assert worker[worker.index("--concurrency") + 1] == "2"
    assert worker_env["DATABASE_POOL_SIZE"] == "0"
    assert commands["beat"][1]["DATABASE_POOL_SIZE"] == "0"
    only_web = Command()._commands(["web"], {**options, "workers": 1})
    assert list(only_web) == ["web"] and "--workers" not in only_web["web"][0]


def test_production_refuses_debug_on(settings) -> None:
    settings.DEBUG = True
    with pytest.raises(CommandError, match="DEBUG=0"):
        call_command("runall", production=True)


def test_debug_off_refuses_to_start_without_allowed_hosts_or_with_reload(
    settings, monkeypatch, db
) -> None:
    settings.DEBUG = False
    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    with pytest.raises(CommandError) as refused:
        call_command("runall", reload=True)
    assert "ALLOWED_HOSTS is not set" in str(refused.value)
    assert "--reload is for development" in str(refused.value)


def test_debug_off_on_a_worker_machine_needs_no_allowed_hosts(settings, monkeypatch, db) -> None:
    settings.DEBUG = False
    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE")  # the tests' own; a deploy check error
    Command()._refuse_production_pitfalls(["worker"], reload=False)  # no refusal


def test_several_workers_cannot_reload() -> None:
    with pytest.raises(CommandError, match="--reload"):
        call_command("runall", reload=True, workers=2)
