"""Shared test fixtures: a game's observable state, a private state folder, a patient mock clock."""

from __future__ import annotations

import pytest
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


def pytest_collection_modifyitems(items) -> None:
    """Tests marked ``pty`` or ``bench`` are ``slow`` too: ``-m "not slow"`` is the fast subset."""
    for item in items:
        if item.get_closest_marker("pty") or item.get_closest_marker("bench"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _private_state_home(tmp_path_factory, monkeypatch):
    """Seat tokens that clients remember (``client.seats``) and the history hosts write
    (``waddle.history``) go to fresh folders, never the user's own ``~/.local``."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


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
