"""A search budget per move: a time limit, an iteration limit, or both."""

from __future__ import annotations

import time
from collections.abc import Callable


class Budget:
    """How long a search may think about one move.

    Args:
        seconds: the time limit in seconds (``None``: no time limit).
        iterations: the iteration limit (``None``: no limit); with ``seconds=None``
            a search is deterministic for a given seed.

    Raises:
        ValueError: if both limits are ``None``, ``seconds`` is negative, nan or
            infinite, or ``iterations`` is less than 1.
    """

    __slots__ = ("seconds", "iterations")

    def __init__(self, seconds: float | None, iterations: int | None) -> None:
        if seconds is None and iterations is None:
            raise ValueError("the search bot needs a time budget, an iteration budget or both")
        if seconds is not None and not 0 <= seconds < float("inf"):
            raise ValueError("the search bot's time budget must be a finite number of seconds, "
                             f"0 or more, not {seconds}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"the search bot's iteration budget must be positive, not {iterations}")
        self.seconds = seconds
        self.iterations = iterations

    def deadline(self, start: float, share: float = 1.0) -> float | None:
        """When ``share`` of the time of a move begun at ``start`` (:func:`time.perf_counter`)
        is spent, or ``None`` without a time limit."""
        return None if self.seconds is None else start + share * self.seconds

    def run(self, step: Callable[[], object], start: float | None = None,
            stop: Callable[[], bool] | None = None) -> int:
        """Call ``step`` at least once, then until either limit is reached or ``stop()`` is
        true; return the count. The time limit counts from ``start`` (default: now)."""
        deadline = self.deadline(time.perf_counter() if start is None else start)
        step()
        done = 1
        while self.iterations is None or done < self.iterations:
            if deadline is not None and time.perf_counter() >= deadline or stop is not None and stop():
                break
            step()
            done += 1
        return done
