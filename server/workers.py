"""A worker process for a club host's CPU-heavy pure work: preparing each new game.

A worker thread keeps a host's event loop free of blocking calls, not of Python's global
lock: a thread making a hex game's standard map (7 ms for 4 players) holds the lock as
long, in 5 ms slices the loop waits out. A club of 1,000 tables starts some 20 hex
games a second: 15 % of the host's one core went to maps (docs/benchmarks.md). A
:class:`Workers` runs such work in a process of its own, on another core; the loop only
waits (in a worker thread, without the lock) for the answer.

The work must be a picklable function of picklable arguments, with a picklable result
(a ruleset's ``prepare``: its options, players and seed in, a
:class:`waddle.ruleset.Prepared` out). The process is started (``spawn``: a fresh
interpreter, never a copy of the host's threads) at the first call; if it dies, the
next call starts another. It ends with its host: a host killed (SIGKILL, a closed
terminal) leaves no worker behind, since the worker watches its parent's sentinel
(:func:`_end_with_parent`; a ``ProcessPoolExecutor``'s workers otherwise wait for work
forever).
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import trio

log = logging.getLogger("waddle.server")


class Workers:
    """Runs work in a worker process (see the module docstring): ``await workers.run(function, *args)``."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the worker process: its result, or the exception it raised.
        If the process died meanwhile, once more in a new one."""
        try:
            return await self._run(function, args)
        except BrokenProcessPool:
            log.warning("the worker process died; starting another")
            self._pool = None
            return await self._run(function, args)

    async def _run(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_end_with_parent)
        future = self._pool.submit(function, *args)
        try:
            return await trio.to_thread.run_sync(future.result, abandon_on_cancel=True)
        except trio.Cancelled:
            future.cancel()
            raise

    def close(self) -> None:
        """Stop the worker process (work not begun is dropped; a piece begun, a few
        milliseconds of it, is finished first); a later :meth:`run` starts another.

        Waits for the pool's own thread to end: left running, it raced Python's exit hook
        for process pools (``concurrent.futures.process._python_exit`` writes to a pipe the
        thread closes as it ends), and the host's last line was a traceback ("Exception
        ignored in: <module 'threading'> ... OSError: [Errno 9] Bad file descriptor"),
        once in some ten stops of a club on Python 3.11. The exit hook waits for that
        thread anyway, so this adds no wait that was not there."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _end_with_parent() -> None:
    """In the worker process: exit as soon as the host that started it is gone (a thread
    waiting on :func:`multiprocessing.parent_process`'s sentinel, which is ready when the
    parent ends, however it ended)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)  # the host is gone: nobody is left to take an answer

    threading.Thread(target=watch, name="waddle-worker-parent", daemon=True).start()
