"""Garbage-collector settings for a process that hosts tables: call :func:`tune_gc` once.

CPython's cyclic garbage collector stops the whole process while it walks the objects
it tracks; a full collection over everything a busy host holds (maps, games,
connections) took 100-400 ms at 500 tables in ``benchmarks/server.py``, and every
action in flight waited for it (``docs/benchmarks.md``, Server). Two settings remove
most of that tail:

- ``gc.freeze()`` once the host is set up: what exists then (modules, the table, its
  map) lives as long as the process, so the collector stops walking it;
- a larger first-generation threshold (:data:`GEN0_THRESHOLD` instead of CPython's
  700), so the young collections that lead to full ones run less often.

The ``waddle`` commands that run a host as a program (``serve``, ``host``, ``play``)
call it; the library (:class:`server.Host`, :class:`server.Table`) never does, so a
program embedding the host keeps its own collector settings.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger("waddle.server")
#: Allocations (net of deallocations) of tracked objects between young collections.
GEN0_THRESHOLD = 10_000


def tune_gc() -> None:
    """Collect once, freeze what survives, and raise the first-generation threshold.

    Call it once the host is set up, before it serves. Idempotent in effect: a second
    call freezes what was made since. Frozen objects are still freed by reference
    counting; only reference cycles among them are never collected.
    """
    gc.collect()
    gc.freeze()
    first, second, third = gc.get_threshold()
    gc.set_threshold(max(first, GEN0_THRESHOLD), second, third)
    log.debug("garbage collector tuned: %d objects frozen, thresholds %s",
              gc.get_freeze_count(), gc.get_threshold())


class Collector:
    """placeholder"""

    async def run(self) -> None:
        import trio
        await trio.sleep_forever()
