"""Reconnect delays: exponential backoff with jitter (so clients don't reconnect in step).

The ``n``-th delay (from 0) is drawn uniformly from ``[d/2, d]`` with
``d = min(cap, first * factor**n)`` seconds; :meth:`Backoff.reset` starts again after
a connection succeeds. The defaults (0.5 s, doubling, 30 s at most) try a lost host
again within a second, and make at most 8 attempts in the first minute against a host
that is gone (each delay at its shortest: 0.25, 0.5, 1, 2, 4, 8, 15, 15 s, the eighth
attempt after 45.75 s, the ninth after 60.75 s).
"""

from __future__ import annotations

import random


class Backoff:
    """Delays in seconds for successive reconnect attempts.

    Args:
        first: the first delay's upper bound (seconds).
        factor: growth per attempt.
        cap: the largest upper bound (seconds).
        seed: seeds the jitter (``None``: unpredictable).

    Raises:
        ValueError: unless ``0 < first <= cap`` and ``factor >= 1``.
    """

    def __init__(self, first: float = 0.5, factor: float = 2.0, cap: float = 30.0,
                 seed: int | None = None) -> None:
        if not (0 < first <= cap and factor >= 1):
            raise ValueError("backoff needs 0 < first <= cap and factor >= 1")
        self.first, self.factor, self.cap = first, factor, cap
        self.attempts = 0
        self._rng = random.Random(seed)

    def next(self) -> float:
        """The next delay (seconds); each call counts one attempt."""
        bound = min(self.cap, self.first * self.factor ** min(self.attempts, 64))
        self.attempts += 1
        return bound / 2 + self._rng.random() * bound / 2

    def reset(self) -> None:
        """Start again from the first delay (after a successful connection)."""
        self.attempts = 0
