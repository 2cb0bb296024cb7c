"""The Waddle Downtown benchmark runs at its smallest setting and prints its figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.bench


def load_benchmark():
    path = Path(__file__).parent.parent / "benchmarks" / "downtown.py"
    spec = importlib.util.spec_from_file_location("benchmark_downtown", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_runs_at_its_smallest_setting(capsys):
    benchmark = load_benchmark()
    benchmark.main(["--smoke"])
    out = capsys.readouterr().out
    assert "step/s" in out and "apply/s" in out and "bare us/game" in out
    assert "search it/s" in out and "greedy moves/s" in out
    assert "after    1 games: search won" in out and "95 % interval" in out


def test_the_wilson_interval():
    benchmark = load_benchmark()
    low, high = benchmark.wilson(120, 200)
    # p = 0.6, n = 200: the 95 % Wilson interval is about 0.531 to 0.665.
    assert round(low, 3) == 0.531 and round(high, 3) == 0.665
    assert benchmark.wilson(0, 2)[0] == 0.0
