"""Garbage-collector settings for a process that hosts tables: call :func:`tune_gc` once.

CPython's cyclic garbage collector stops the whole process while it walks the objects
it tracks, and every action in flight waits (``docs/benchmarks.md``, Server). With its
defaults the walks grow with what the host holds: a full collection over the maps,
games and connections of 500 tables took 100-400 ms, and even young collections, which
walk everything made since the last one, took 50-190 ms once the collections of a busy
host came seldom enough to be few.

What the host does instead (generational freezing):

- ``gc.freeze()`` once the host is set up: what exists then (modules, the table, its
  map) lives as long as the process, so the collector never walks it again;
- young collections every :data:`GEN0_THRESHOLD` allocations (net of deallocations)
  of tracked objects, as CPython does, each short since it walks only what was made
  since the last one;
- after each collection, ``gc.freeze()`` again: whatever survived it (a new table, a
  connection, a game) joins the frozen objects, so no collection ever walks it again and
  the older generations stay empty: no collection is long.

What it costs: a reference cycle that becomes garbage after surviving one young
collection is never collected (objects without cycles are freed by reference counting
as always). The host makes almost none: 4 unreachable objects per game, measured in
``docs/benchmarks.md``, which also gives the resident memory at the start and the end of
a 10-minute run of 1,000 tables.

The ``waddle`` commands that run a host as a program (``serve``, ``host``, ``play``)
call it; the library (:class:`server.Host`, :class:`server.Table`) never does, so a
program embedding the host keeps its own collector settings.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger("waddle.server")
#: Allocations (net of deallocations) of tracked objects between young collections.
GEN0_THRESHOLD = 2_000


def tune_gc() -> None:
    """Collect once, freeze what survives, and from then on freeze what survives each
    collection (see the module docstring), young collections every :data:`GEN0_THRESHOLD`
    allocations.

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


def _freeze_survivors(phase: str, info: dict) -> None:
    """A ``gc.callbacks`` entry: once a collection is over, freeze what it left."""
    if phase == "stop":
        gc.freeze()
