"""The UI's analyst: the game's search (``Ruleset.analyse``) run off the UI's event loop.

An :class:`Analyst` takes a batch of positions to analyse (one for a hint or a step of a
replay, every step for a full-game pass), runs them one after another in a worker thread
(:func:`trio.to_thread.run_sync`), and hands each result back on the UI's loop as it comes
(``on_result``), so a full-game pass fills its graph as it goes; ``on_change`` redraws the
progress. A new batch replaces the one running; :meth:`Analyst.cancel` (Esc) stops it
within one iteration of the search (``stop``). The screen never waits for it, and a search
that fails ends its batch with :attr:`Analyst.error` (shown in the panel), never the UI.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from waddle.ruleset import Analysis, Ruleset


@dataclass(eq=False)
class Batch:
    """Positions to analyse: ``jobs`` (``(key, position)`` each) with ``ruleset`` for
    ``seconds`` each; ``what`` names it for people ("hint", "the whole game"); ``done``
    counts the jobs finished; ``stop`` is set to cancel it; ``clock`` times the running
    job (:attr:`progress`)."""

    ruleset: Ruleset
    jobs: Sequence[tuple[Hashable, Any]]
    seconds: float
    what: str
    #: Where the results go (key -> analysis), besides ``on_result``: the analyses of the
    #: replay the batch was asked for, so none lands in another record's.
    into: dict | None = None
    done: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    #: When the job being analysed started (by ``clock``), or ``None``.
    started: float | None = None
    clock: Callable[[], float] = time.monotonic

    @property
    def progress(self) -> float:
        """The share of the work done, 0 to 1: the jobs done, and of the one running the
        share of its seconds gone by (so one long search fills the bar too)."""
        if not self.jobs:
            return 1.0
        running = 0.0 if self.started is None else min(1.0, (self.clock() - self.started) / self.seconds)
        return min(1.0, (self.done + running) / len(self.jobs))


class Analyst:
    """Runs batches of analysis (see the module docstring).

    Args:
        on_result: ``on_result(key, analysis)`` for each job done, on the UI's loop.
        on_change: called when a batch starts, progresses, ends or fails.
    """

    def __init__(self, on_result: Callable[[Hashable, Analysis], None],
                 on_change: Callable[[], None] = lambda: None) -> None:
        self._on_result, self._on_change = on_result, on_change
        self._send, self._receive = trio.open_memory_channel[Batch](math.inf)
        #: The batch being analysed, or ``None``.
        self.batch: Batch | None = None
        #: Why the last batch failed ("" if it did not).
        self.error = ""

    @property
    def busy(self) -> bool:
        """Whether a batch is being analysed."""
        return self.batch is not None

    def request(self, batch: Batch) -> None:
        """Analyse ``batch``, after stopping the one running."""
        self.cancel()
        self.batch, self.error = batch, ""
        self._send.send_nowait(batch)
        self._on_change()

    def cancel(self) -> bool:
        """Stop the batch running; return whether there was one."""
        batch, self.batch = self.batch, None
        if batch is None:
            return False
        batch.stop.set()
        self._on_change()
        return True

    async def run(self) -> None:
        """Analyse the batches asked for, one at a time, until cancelled (then the running
        search is told to stop and left to end in its thread)."""
        async for batch in self._receive:
            try:
                await self._analyse(batch)
            finally:
                batch.stop.set()

    async def _analyse(self, batch: Batch) -> None:
        for key, position in batch.jobs:
            if batch.stop.is_set():
                return
            search = functools.partial(batch.ruleset.analyse, position, batch.seconds, stop=batch.stop.is_set)
            batch.started = batch.clock()
            try:
                analysis = await trio.to_thread.run_sync(search, abandon_on_cancel=True)
            except Exception as exc:  # a search that fails never takes the screen down
                self.error = f"no analysis: {exc}"
                self.batch = None
                self._on_change()
                return
            if batch.stop.is_set():
                return
            batch.done, batch.started = batch.done + 1, None
            if batch.into is not None:
                batch.into[key] = analysis
            self._on_result(key, analysis)
            self._on_change()
        if self.batch is batch:
            self.batch = None
            self._on_change()
