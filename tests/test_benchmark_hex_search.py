"""The search benchmark runs at its smallest setting and reports what it measured."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.bench
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_hex_search", BENCHMARKS / "hex_search.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_smallest_run_prints_the_win_rate_its_interval_and_both_speeds(bench, capsys):
    bench.main(["--games", "1", "--iterations", "5", "--jobs", "1", "--solver", "3"])
    out = capsys.readouterr().out
    assert "1 games, budget per move: seconds=None iterations=5, seed 1" in out
    assert "'solver': 3" in out and "search win rate" in out and "(95% " in out
    assert "iterations/s: search" in out and ", uct " in out


def test_the_search_levers_are_flags(bench, capsys):
    bench.main(["--games", "1", "--iterations", "5", "--jobs", "1", "--no-common", "--no-touching"])
    out = capsys.readouterr().out
    assert "'touching': False, 'common': False" in out and "'solver': 4" in out


def test_a_game_reports_the_search_seat_from_the_final_totals(bench):
    setup = bench.Setup(None, 5, 2, {"solver": 0})
    outcome = bench.play_game(setup, 3)
    assert outcome.share in (0, 1 / 4, 1 / 3, 1 / 2, 1)
    assert (outcome.share == 1) == (outcome.margin > 0)
    assert outcome.iterations[0] > 0 and outcome.iterations[1] > 0
    again = bench.play_game(setup, 3)
    assert (again.share, again.margin, again.iterations) == (outcome.share, outcome.margin, outcome.iterations)


def test_the_wilson_interval(bench):
    low, high = bench.wilson(60, 100)
    assert (round(low, 4), round(high, 4)) == (0.5020, 0.6906)
    assert bench.wilson(0, 10)[0] == pytest.approx(0) and bench.wilson(10, 10)[1] == pytest.approx(1)
