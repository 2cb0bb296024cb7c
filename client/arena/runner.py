"""Run an arena's schedule: every game on its own local host, in up to ``jobs`` worker
processes at once, results handed on as each game ends; Ctrl-C stops cleanly with the
results so far, and so does a run whose worker process died or in which no game ends for
longer than a game may last."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import msgspec

from client.arena.entrants import Entrant
from client.arena.schedule import Seating
from client.arena.table import GameResult, Job, Limits, play_game, quiet_worker

#: What :func:`run` says when Ctrl-C stopped it.
INTERRUPTED = "stopped by Ctrl-C"
#: Seconds beyond a game's limit to wait for the next result before giving up on the workers.
PATIENCE = 120.0


class Stalled(Exception):
    """A worker process died, or no game ended for longer than any game may last."""


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
        on_result: Callable[[GameResult], None] | None = None) -> tuple[list[GameResult], str | None]:
    """Play every game of ``plan``; return ``(results, stopped)``: the results in schedule
    order, and why the run stopped before the end (``None``: it did not; else
    :data:`INTERRUPTED`, or that no game ended in time), with the games that had ended.
    ``on_result`` is called with each result as its game ends (in any order). ``jobs``:
    worker processes (1: in this process)."""
    work = [Job(arena.game, arena.entrants, seating, arena.options, arena.limits, arena.records)
            for seating in plan]
    results: list[GameResult] = []

    def done(result: GameResult) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    stopped = None
    try:
        if jobs <= 1:
            for job in work:
                done(play_game(job))
        else:
            _parallel(work, jobs, done, arena.limits.game + arena.limits.join * len(arena.entrants) + PATIENCE)
    except KeyboardInterrupt:
        stopped = INTERRUPTED
    except Stalled as exc:
        stopped = str(exc)
    return sorted(results, key=lambda r: r.index), stopped


def _parallel(work: list[Job], jobs: int, done: Callable[[GameResult], None], patience: float) -> None:
    """Play ``work`` in ``jobs`` worker processes (spawned: nothing of this process's state
    is shared). On Ctrl-C, a worker process that died, or no result for ``patience``
    seconds (:class:`Stalled`), stop the workers (their external commands killed) and
    re-raise.

    Finished games arrive through a queue that each future's callback fills, not
    :func:`concurrent.futures.wait`: that takes every pending future's lock in turn, and
    a Ctrl-C between two of them left the locks held and the workers' results waiting on
    them forever."""
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=quiet_worker)
    finished: queue.SimpleQueue[Future] = queue.SimpleQueue()
    pending = [pool.submit(play_game, job) for job in work]
    try:
        for future in pending:
            future.add_done_callback(finished.put)
        for _ in pending:
            try:
                future = finished.get(timeout=patience)
            except queue.Empty:
                raise Stalled(f"stopped: no game ended for {patience:g} s") from None
            try:
                done(future.result())
            except BrokenProcessPool:
                raise Stalled("stopped: a worker process died") from None
    except BaseException:
        for future in pending:
            future.cancel()
        _stop(multiprocessing.active_children())
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop(processes: list, grace: float = 2.0) -> None:
    """Terminate ``processes`` (their handler kills their external commands; a stopped
    worker is continued so that it can), and kill those still alive after ``grace``
    seconds (a stuck worker)."""
    for process in processes:
        process.terminate()
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)
    for process in processes:
        process.join(grace)
        if process.is_alive():
            process.kill()
            process.join()
