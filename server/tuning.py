"""Garbage-collector settings for a process that hosts tables: :func:`tune_gc` once, and
the :func:`collect_young` task while it serves.

CPython's cyclic garbage collector stops the whole process while it walks the objects
it tracks, and every action in flight waits (``docs/benchmarks.md``, Server). With its
defaults the walks grow with what the host holds: a full collection over the maps,
games and connections of 500 tables took 100-400 ms. Young collections are no cure by
themselves: CPython starts one after so many allocations net of deallocations, but a
busy host's allocations die young and cancel out, while what each connection waits with
(trio's coroutines and cancel scopes, remade with every message) piles up in the young
generation unseen: 20,000-38,000 objects, 17-25 ms of CPU a collection, at 250 tables.

What the host does instead (generational freezing):

- ``gc.freeze()`` once the host is set up: what exists then (modules, the table, its
  map) lives as long as the process, so the collector never walks it again;
- a young collection every :data:`YOUNG_INTERVAL` seconds (:func:`collect_young`), so
  each walks only what the last tenth of a second made, a few thousand objects at most;
  CPython's own young collections stay on (every :data:`GEN0_THRESHOLD` allocations)
  for a program that does not run the task;
- after each collection, ``gc.freeze()`` again: whatever survived it (a new table, a
  connection, a game, a connection's waiting coroutines) joins the frozen objects, so no
  collection walks it again and the older generations stay empty: no collection is long.

What it costs: a reference cycle that becomes garbage after surviving one young
collection is never collected (objects without cycles are freed by reference counting
as always, frozen or not). The host makes none: four-bot games played with the
collector off leave no object that only a collection would free (``benchmarks/server.py``,
reference cycles); ``docs/benchmarks.md`` also gives the resident memory at the start and
the end of a 10-minute run of 1,000 tables.

The ``waddle`` commands that run a host as a program (``serve``, ``host``, ``play``)
host inside :func:`tuned_gc` (:func:`tune_gc`, undone when they return, so a
command run in-process, as the tests do, leaves the collector as it found it) and run
:func:`collect_young` beside the host
(:attr:`server.host.ServerConfig.tasks`); the library (:class:`server.Host`,
:class:`server.Table`) never does, so a program embedding the host keeps its own
collector settings.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import Iterator

import trio

log = logging.getLogger("waddle.server")
#: Allocations (net of deallocations) of tracked objects between CPython's own young collections.
GEN0_THRESHOLD = 10_000
#: Seconds between the young collections of :func:`collect_young`.
YOUNG_INTERVAL = 0.1


def tune_gc() -> None:
    """Collect once, freeze what survives, and from then on freeze what survives each
    collection (see the module docstring); CPython's young collections every
    :data:`GEN0_THRESHOLD` allocations.

    Call it once the host is set up, before it serves; a second call only freezes again.
    Frozen objects are still freed by reference counting; only reference cycles among
    them are never collected.
    """
    gc.collect()
    gc.freeze()
    first, second, third = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, second, third)
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)
    log.debug("garbage collector tuned: %d objects frozen, thresholds %s",
              gc.get_freeze_count(), gc.get_threshold())


@contextlib.contextmanager
def tuned_gc() -> Iterator[None]:
    """:func:`tune_gc` on entry; on exit (however the block ends) the collector as it was
    found: its thresholds, no freezing after collections, and the frozen objects back
    among those it walks."""
    thresholds = gc.get_threshold()
    tune_gc()
    try:
        yield
    finally:
        if _freeze_survivors in gc.callbacks:
            gc.callbacks.remove(_freeze_survivors)
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def _freeze_survivors(phase: str, info: dict) -> None:
    """A ``gc.callbacks`` entry: once a collection is over, freeze what it left."""
    if phase == "stop":
        gc.freeze()


async def collect_young(interval: float = YOUNG_INTERVAL) -> None:
    """Run a young collection every ``interval`` seconds, until cancelled (after
    :func:`tune_gc`, what survives it is frozen). Each walks only what was made since
    the last: at 1,000 tables a few thousand objects, a few milliseconds."""
    while True:
        await trio.sleep(interval)
        gc.collect(0)
