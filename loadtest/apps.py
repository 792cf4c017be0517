from __future__ import annotations

from django.apps import AppConfig


class LoadtestConfig(AppConfig):
    name = "loadtest"
    verbose_name = "Load generation and benchmarks"
