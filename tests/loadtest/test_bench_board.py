"""``manage.py bench_board`` prints the CPU of drawing a statistics panel per shoe size."""

from __future__ import annotations

import io
import re

from django.core.management import call_command


def test_it_prints_a_figure_per_shoe_size() -> None:
    out = io.StringIO()
    call_command("bench_board", coups=[3, 80], repeat=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert [int(line.split()[0]) for line in lines] == [3, 80]
    assert all(re.search(r"\d+\.\d\d ms of CPU per panel$", line) for line in lines)
