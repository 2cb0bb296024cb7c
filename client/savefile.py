"""Reading a game record or a host's save file, once or as it grows.

A save file is a record plus a ``host`` part (``docs/protocol.md``, Saving and
resuming); the host rewrites it atomically after every action, so a read gives the whole
file as it was at one moment. :func:`read_record` reads and parses one;
:func:`seat_names` takes from the ``host`` part only the seats' names (never a token);
:class:`FileWatch` tells when the file changed, for a viewer that follows a running host
at a gentle pace. This module is the one place that knows how a save is laid out on disk:
a save that keeps its actions in a journal beside it would be read (and watched) here,
the viewer unchanged.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from waddle.errors import RecordError

#: Seconds between two looks at a followed file.
POLL_SECONDS = 1.0


def read_record(path: str) -> dict[str, Any]:
    """The parsed record (or save file) at ``path`` (``-``: standard input).

    Raises:
        waddle.errors.RecordError: it cannot be read, is not JSON or not an object
            (naming the file and the problem).
    """
    source = "<stdin>" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{source}: cannot read the record: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordError(f"{source}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a record must be a JSON object")
    return data


def seat_names(data: Mapping[str, Any]) -> dict[str, str]:
    """Seat label -> the player's name, from a save file's ``host`` part (empty for a bare
    record or a part that is not as expected); names are not cleaned here."""
    host = data.get("host")
    seats = host.get("seats") if isinstance(host, Mapping) else None
    names: dict[str, str] = {}
    for seat in seats if isinstance(seats, list) else ():
        if isinstance(seat, Mapping):
            label = seat.get("label", seat.get("colour"))  # protocol 1 saves: colour
            if isinstance(label, str) and isinstance(seat.get("name"), str):
                names[label] = seat["name"]
    return names


def choosers(data: Mapping[str, Any], actions: int) -> list[str | None]:
    """For each of the record's ``actions``, the bot kind that chose it (``None``: its
    player), from a save file's ``host`` part; all ``None`` when it does not say."""
    host = data.get("host")
    bots = host.get("bots") if isinstance(host, Mapping) else None
    if isinstance(bots, list) and len(bots) == actions and all(b is None or isinstance(b, str) for b in bots):
        return list(bots)
    return [None] * actions


class FileWatch:
    """Tells whether the file at ``path`` changed since the last look (its size and
    modification time)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._seen = self._stamp()

    def _stamp(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_size, stat.st_mtime_ns

    def changed(self) -> bool:
        """Whether the file looks different from the last time this was asked (a file
        gone for a moment, as an atomic rewrite may leave it, is not a change)."""
        stamp = self._stamp()
        if stamp is None or stamp == self._seen:
            return False
        self._seen = stamp
        return True
