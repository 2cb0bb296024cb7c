"""Bringing many tables' saves to the disk together: one :class:`Flusher` for a club.

Each table's saver (:class:`server.persistence.Saver`) brings its journal to the disk at
most every second while actions come. A club of 1,000 tables doing so one ``fsync`` at a
time would ask the disk for some 600 flushes a second (each about 1 ms here: 0.5 to 1.5 s
of them a second) and the host for as many worker-thread jobs. A flusher gathers what the
savers ask for while a flush is under way and brings the next batch to the disk in one
worker-thread job: one ``sync`` of every file system (a few ms), then each file's own
``fsync`` (fast once its data is on the disk, and the one that reports its error). A
batch of one saver's files is flushed by their ``fsync`` alone.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

#: A file to bring to the disk: an open file descriptor, or a path to open.
File = int | Path


class Flusher:
    """Brings files to the disk in batches (see the module docstring). ``offload`` runs
    each batch's blocking work (``await offload(function, *args)``: a worker thread)."""

    def __init__(self, offload: Callable[..., Awaitable[Any]] = trio.to_thread.run_sync) -> None:
        self._offload = offload
        self._next: list[_Request] = []
        self._busy = False
        self._done = trio.Event()

    async def sync(self, *files: File) -> OSError | None:
        """Bring ``files`` to the disk, in the batch under way's next; the first error
        (``None``: all are on the disk). Never raises ``OSError``."""
        request = _Request(files)
        self._next.append(request)
        while not request.answered:
            if self._busy:
                await self._done.wait()
            else:
                await self._flush()
        return request.error

    async def _flush(self) -> None:
        batch, self._next = self._next, []
        self._busy = True
        try:
            errors = await self._offload(flush, [request.files for request in batch])
        except BaseException:
            self._next[:0] = batch  # not flushed: the next batch's
            raise
        finally:
            self._busy = False
            done, self._done = self._done, trio.Event()
            done.set()
        for request, error in zip(batch, errors, strict=True):
            request.answered, request.error = True, error


class _Request:
    def __init__(self, files: tuple[File, ...]) -> None:
        self.files = files
        self.answered = False
        self.error: OSError | None = None


def flush(batches: list[tuple[File, ...]]) -> list[OSError | None]:
    """Bring every file of ``batches`` to the disk (blocking: in a worker thread); each
    batch's first error, ``None`` for a batch all on the disk."""
    if len(batches) > 1 and hasattr(os, "sync"):
        os.sync()
    return [_fsync_all(files) for files in batches]


def _fsync_all(files: tuple[File, ...]) -> OSError | None:
    try:
        for file in files:
            if isinstance(file, int):
                os.fsync(file)
                continue
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        return exc
    return None
