"""Each benchmark runs at its smallest setting and prints its figures with the same-run
baseline (figures are measured by the benchmarks, never asserted here: docs/benchmarks.md)."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


@pytest.mark.parametrize("script, args, words", [
    ("engine.py", ["--seconds", "0.05", "--seeds", "1"], ["players", "bare"]),
    ("ui.py", ["--frames", "3", "--runs", "1"], ["80x24", "plain", "start-up"]),
    ("server.py", ["--smoke"], ["plain trio TCP echo", "write-ahead on", "write-ahead off",
                                "host RSS", "host collections", "largest measured count"]),
])
def test_a_benchmark_runs_at_its_smallest_setting(script, args, words):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert all(word in done.stdout for word in words), done.stdout
    assert "Traceback" not in done.stderr
