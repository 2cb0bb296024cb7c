"""Shared test fixtures: a game's observable state, a private state folder, a patient mock
clock; hypothesis's profiles; and the check that the suite leaves the checkout as it found it."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from trio.testing import MockClock

from waddle import Game


def game_fingerprint(game: Game) -> tuple:
    """Everything a caller can observe about ``game``, as a comparable value.

    Covers the position (tokens, tracks, active hex, half, doubles), the history,
    the legal actions and the full score breakdown of every half.
    """
    result = game.result()
    return (
        game.players, game.half, game.is_over, game.active_hex, game.current_player,
        game.tracks, game.active_track, game.scouted, len(game),
        tuple(sorted(game.tokens.items())), tuple(game.empty_ice),
        tuple(game.doubles_left(p) for p in game.players),
        tuple(game.moves), game.legal_actions(), tuple(game.live_totals()),
        result.finished, result.winners, result.leaders,
        tuple((p, s.waddles, s.pools) for p, s in result.scores.items()),
        tuple(repr(sheet.to_dict()) for sheet in result.halves),
    )


# Hypothesis's profiles, chosen for a loaded two-core machine (``--hypothesis-profile NAME``
# picks another). "suite", the default: no deadline and no ``too_slow`` health check, since
# both measure the wall clock, which a busy machine stretches (a test failed ``too_slow``
# with both cores loaded); the other health checks (``filter_too_much``,
# ``data_too_large``, ...) stay on, since they say a strategy is wrong on any machine.
# A test's own ``max_examples`` sizes it for this profile. "thorough": ten times the
# examples of hypothesis's default, for a change to the rules or the protocol
# (``python -m pytest --hypothesis-profile thorough -m "not slow"``), each test's own
# size scaled with it (``tests/property_kit.py``).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          print_blob=True)
settings.register_profile("thorough", parent=settings.get_profile("suite"), max_examples=1000)
settings.load_profile("suite")


ROOT = Path(__file__).resolve().parent.parent
#: What a test run may add to the checkout: caches of Python, pytest and hypothesis.
_CACHES = ("__pycache__/", ".pytest_cache/", ".hypothesis/")


def _checkout_status() -> list[str] | None:
    """``git status`` of the checkout, ignored files too, without the caches; ``None`` when
    the tests do not run in a git checkout (an unpacked sdist, say)."""
    try:
        done = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"],
                              cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return sorted(line for line in done.stdout.splitlines()
                  if not any(cache in line or line.endswith(cache.rstrip("/")) for cache in _CACHES)
                  and ".egg-info/" not in line)


def pytest_configure(config) -> None:
    """Where ``PYTHONDONTWRITEBYTECODE`` is set, the processes this run starts (xdist's
    workers, each host, screen and bot a test starts: some 300 new interpreters) cache
    the bytecode they compile in a private folder made for the run
    (``PYTHONPYCACHEPREFIX``), removed at its end: nothing is written in the checkout or
    beside the libraries, as the variable asks, and no process compiles every module
    again (12 s of the suite's CPU on two cores)."""
    if hasattr(config, "workerinput") or not os.environ.get("PYTHONDONTWRITEBYTECODE") \
            or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    folder = tempfile.mkdtemp(prefix="waddle-tests-pycache-")
    config.stash[_PYCACHE] = (folder, os.environ.pop("PYTHONDONTWRITEBYTECODE"))
    os.environ["PYTHONPYCACHEPREFIX"] = folder


def pytest_unconfigure(config) -> None:
    """Remove the run's bytecode folder (:func:`pytest_configure`) and put the environment back."""
    made = config.stash.get(_PYCACHE, None)
    if made is not None:
        folder, value = made
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        os.environ["PYTHONDONTWRITEBYTECODE"] = value
        shutil.rmtree(folder, ignore_errors=True)


_PYCACHE = pytest.StashKey[tuple[str, str]]()


def pytest_sessionstart(session) -> None:
    """Note the checkout's ``git status`` (in the controller, not in xdist's workers)."""
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_STATUS] = _checkout_status()


def pytest_sessionfinish(session, exitstatus) -> None:
    """Fail the run when a test left a file in the checkout (a save written to the current
    folder, say): every test writes in its ``tmp_path``."""
    if hasattr(session.config, "workerinput"):
        return
    before = session.config.stash.get(_STATUS, None)
    after = _checkout_status()
    if before is None or after is None or after == before:
        return
    changed = sorted(set(after) ^ set(before))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_line(f"the tests changed the checkout ({ROOT}); git status now differs by:",
                            red=True)
        for line in changed[:20]:
            reporter.write_line(f"  {line}", red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


_STATUS = pytest.StashKey[list[str] | None]()


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto`` (pyproject.toml) starts one worker more than the machine has cores: the
    long tests mostly wait on the processes they started (hosts, screens, ssh), so a third
    worker on two cores keeps both busy (75 s instead of 92 s on two cores; a fourth
    added CPU, not speed)."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items) -> None:
    """Tests marked ``pty`` or ``bench`` are ``slow`` too: ``-m "not slow"`` is the fast subset.

    The slow tests run first (each file's in their order): they are the long ones, mostly
    waiting on real processes, so xdist's workers end together instead of one finishing a
    long pseudo-terminal test alone at the end of the run. This needs ``--dist worksteal``
    (pyproject.toml): xdist's default ``load`` hands each worker a first run of consecutive
    tests, so one worker got every slow test and ran 40 s alone after the other had ended."""
    for item in items:
        if item.get_closest_marker("pty") or item.get_closest_marker("bench"):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: False first


@pytest.fixture(autouse=True)
def _private_state_home(tmp_path_factory, monkeypatch):
    """Seat tokens that clients remember (``client.seats``) and the history hosts write
    (``waddle.history``) go to fresh folders, never the user's own ``~/.local``; so do
    the files commands put in the system's temporary folder (``waddle demo``'s record,
    the SSH gateway's sockets), in this process (``tempfile.tempdir``) and in every
    process a test starts (``TMPDIR``)."""
    # one mkdtemp, not three tmp_path_factory.mktemp: each of those lists every folder made
    # before it in the run to number the next (4 ms a test by the end of a worker's share)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=tmp_path_factory.getbasetemp()))
    for name in ("state", "data", "tmp"):
        (home / name).mkdir()
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("TMPDIR", str(home / "tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(home / "tmp"))


#: Test modules whose helpers keep what they open, and the function that closes it.
_CLOSERS = {"test_server_kit": "close_sockets", "test_server_cli": "close_after_test"}


@pytest.fixture(autouse=True)
def _clients_closed():
    """After each test, what the helpers of the modules in :data:`_CLOSERS` opened (the
    scripted clients' sockets, hosts' pipes) is closed, if the test used them, so that
    none is left to the garbage collector (a ``ResourceWarning``, an error here)."""
    yield
    for module, closer in _CLOSERS.items():
        kit = sys.modules.get(module)
        if kit is not None:
            getattr(kit, closer)()


@pytest.fixture(autouse=True)
def _collector_untouched():
    """A test leaves the garbage collector as it found it: a command that hosts in this
    process tunes it only while it runs (``server.tuning.tuned_gc``). Left frozen, the
    tests after it would run with a collector that never walks what they made (and
    hypothesis warns that its own generator looks unreferenced)."""
    thresholds = gc.get_threshold()
    yield
    ours = [c for c in gc.callbacks if c.__module__ == "server.tuning"]
    assert (gc.get_freeze_count(), gc.get_threshold(), ours) == (0, thresholds, [])


@pytest.fixture(scope="session")
def fingerprint():
    """The function :func:`game_fingerprint` (session-scoped, so hypothesis tests may use it)."""
    return game_fingerprint


@pytest.fixture
def patient_clock() -> MockClock:
    """A mock clock that jumps once every task has waited 50 ms of real time: timeouts,
    backoff and heartbeats cost no wall-clock time, while worker threads (bots thinking,
    the host saving) finish before virtual time moves on."""
    return MockClock(autojump_threshold=0.05)
