"""Every benchmark script runs at its smallest setting (``--smoke``), so none can break
unnoticed: each script in ``benchmarks/`` must take ``--smoke`` and print its figures.
The figures themselves are not checked here (docs/benchmarks.md records them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


def test_the_benchmarks_are_found():
    assert {"downtown.py", "engine.py", "hex_search.py", "server.py", "ui.py"} <= {script.name for script in SCRIPTS}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_benchmark_runs_at_its_smallest_setting(script):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's code, not another install's
    done = subprocess.run([sys.executable, str(script), "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), f"{script.name} --smoke printed nothing"
    assert "Traceback" not in done.stderr
