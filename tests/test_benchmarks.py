"""Every benchmark script runs at its smallest setting (``--smoke``), so none can break
unnoticed: each script in ``benchmarks/`` must take ``--smoke`` and print its figures.
The figures themselves are not checked here (docs/benchmarks.md records them), only that
the ones a script promises are printed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.bench
ROOT = Path(__file__).parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))
#: Words a script's output must hold (the figures the issues ask for).
PRINTED = {"server.py": ["plain trio TCP echo", "write-ahead on", "write-ahead off", "host RSS",
                         "host collections", "largest measured count"],
           "ssh.py": ["to the lobby drawn", "from a key press", "ssh / waddle join", "measure again"],
           "guard.py": ["baseline, no guard", "one address, 15 connections", "1,000 addresses",
                        "compared a minute", "mistyped once, quiet host: in 0.000 s"]}


def test_the_benchmarks_are_found():
    assert {"downtown.py", "engine.py", "hex_search.py", "server.py", "ssh.py", "ui.py"} <= {script.name for script in SCRIPTS}


#: More than ``--smoke`` a script's run here is given: the server's round trip in two
#: rounds (each with fresh servers), so their ratios and median are printed too.
EXTRA = {"server.py": ["--rounds", "2", "--samples", "20"]}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_each_benchmark_runs_at_its_smallest_setting(script):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's code, not another install's
    done = subprocess.run([sys.executable, str(script), "--smoke", *EXTRA.get(script.name, [])], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), f"{script.name} --smoke printed nothing"
    promised = PRINTED.get(script.name, []) if script.name != "ssh.py" or shutil.which("ssh") else []
    missing = [word for word in promised if word not in done.stdout]
    assert not missing, done.stdout
    assert "Traceback" not in done.stderr
    if script.name == "server.py":
        assert_two_rounds(done.stdout)


def assert_two_rounds(stdout: str) -> None:
    """The server benchmark's round trip, in two rounds: each round's figures, then one
    line of their median."""
    assert stdout.count("plain trio TCP echo") == 2
    summary = [line for line in stdout.splitlines() if "in each of 2 rounds" in line]
    assert len(summary) == 1 and summary[0].count("x") == 3, stdout  # two rounds, the median
