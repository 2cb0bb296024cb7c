"""Run an arena's schedule: every game on its own local host, in up to ``jobs`` worker
processes at once, results handed on as each game ends; Ctrl-C stops cleanly with the
results so far."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from client.arena.entrants import Entrant
from client.arena.schedule import Seating
from client.arena.table import GameResult, Job, Limits, play_game, quiet_worker


class Arena(msgspec.Struct, frozen=True):
    """What an arena plays: the ``game`` (a ruleset name) with its ``options`` (``None``:
    the defaults), the ``entrants``, the per-game ``limits`` and ``records``, a directory
    to save every game record in (``None``: none saved)."""

    game: str
    entrants: tuple[Entrant, ...]
    options: Any = None
    limits: Limits = Limits()
    records: str | None = None


def run(arena: Arena, plan: Sequence[Seating], *, jobs: int = 1,
        on_result: Callable[[GameResult], None] | None = None) -> tuple[list[GameResult], bool]:
    """Play every game of ``plan``; return ``(results, interrupted)``: the results in
    schedule order, and whether Ctrl-C stopped the run first (then the games that had
    ended). ``on_result`` is called with each result as its game ends (in any order).
    ``jobs``: worker processes (1: in this process)."""
    work = [Job(arena.game, arena.entrants, seating, arena.options, arena.limits, arena.records)
            for seating in plan]
    results: list[GameResult] = []

    def done(result: GameResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    interrupted = False
    try:
        if jobs <= 1:
            for job in work:
                done(play_game(job))
        else:
            _parallel(work, jobs, done)
    except KeyboardInterrupt:
        interrupted = True
    return sorted(results, key=lambda r: r.index), interrupted


def _parallel(work: list[Job], jobs: int, done: Callable[[GameResult], None]) -> None:
    """Play ``work`` in ``jobs`` worker processes (spawned: nothing of this process's state
    is shared); on Ctrl-C stop them (their external commands killed) and re-raise."""
    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=quiet_worker)
    try:
        for result in pool.imap_unordered(play_game, work):
            done(result)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
