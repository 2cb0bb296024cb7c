"""Reading a game record or a host's save file, once or as it grows.

A save file is a record plus a ``host`` part (``docs/protocol.md``, Saving and
resuming), rewritten atomically now and then (the start, the end, a stop), and a journal
beside it (``FILE.journal``, :mod:`waddle.journal`) that every action reaches before anyone
is told of it. :func:`read_record` reads and parses one, with its journal's actions;
:func:`seat_names` takes from the ``host`` part only the seats' names (never a token);
:class:`FileWatch` tells when the file changed, for a viewer that follows a running host
at a gentle pace. This module is the one place that knows how a save is laid out on disk:
a save that keeps its actions in a journal beside it would be read (and watched) here,
the viewer unchanged.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from waddle.errors import RecordError
from waddle.files import MAX_RECORD_BYTES, parse_json, read_text
from waddle.journal import extend, journal_path
from waddle.ruleset import ruleset_of_record

#: Seconds between two looks at a followed file.
POLL_SECONDS = 1.0


def read_record(path: str, *, problem: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """The parsed record (or save file) at ``path`` (``-``: standard input); a save file
    with a journal beside it comes with the journal's actions and take-backs played in
    (:func:`with_journal`; what of the journal is left out is told to ``problem``).

    Raises:
        waddle.errors.RecordError: it cannot be read, is over
            :data:`~waddle.files.MAX_RECORD_BYTES`, is not JSON (nested too deeply
            included) or not an object, or (a save file) does not replay (naming the
            file and the problem).
    """
    source = "<stdin>" if path == "-" else path
    try:
        text = read_text(sys.stdin if path == "-" else path, MAX_RECORD_BYTES)
    except (OSError, ValueError) as exc:
        raise RecordError(f"{source}: cannot read the record: {exc}") from None
    try:
        data = parse_json(text)
    except ValueError as exc:
        raise RecordError(f"{source}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a record must be a JSON object")
    if path != "-" and isinstance(data.get("host"), dict) and journal_path(path).exists():
        data = with_journal(data, path, problem)
    return data


def with_journal(data: dict[str, Any], path: str, problem: Callable[[str], None]) -> dict[str, Any]:
    """The save file ``data`` read from ``path`` with what its journal adds: the record of
    the match it reaches (:meth:`waddle.ruleset.Match.record`), its ``host`` part kept.

    Raises:
        waddle.errors.RecordError: the save does not replay, or its journal cannot be read.
    """
    ruleset = ruleset_of_record(data)
    if ruleset is None:
        return data  # not a record of a known game: the caller says so
    match = ruleset.load(data, source=path)
    host = data["host"]
    version = host.get("version")
    try:
        journal = extend(match, path, table=str(host.get("table", "")),
                         version=version if type(version) is int else 0)
    except OSError as exc:
        raise RecordError(f"{path}: cannot read its journal: {exc}") from None
    if journal.problem:
        problem(journal.problem)
    bots = host.get("bots")
    if isinstance(bots, list):  # who chose each action (choosers), the journal's too
        bots = list(bots)
        for entry in journal.entries:
            if entry.undo:
                del bots[-1:]
            else:
                bots.append(entry.bot)
    return {**match.record(), "host": {**host, "bots": bots}}


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
    """Tells whether the save file at ``path`` or its journal changed since the last look
    (their sizes and modification times)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._seen = self._stamp()

    def _stamp(self) -> tuple[tuple[int, int] | None, ...] | None:
        stamps = tuple(_stamp(file) for file in (self.path, journal_path(self.path)))
        return None if stamps[0] is None else stamps

    def changed(self) -> bool:
        """Whether the file looks different from the last time this was asked (a file
        gone for a moment, as an atomic rewrite may leave it, is not a change)."""
        stamp = self._stamp()
        if stamp is None or stamp == self._seen:
            return False
        self._seen = stamp
        return True


def _stamp(path: str | os.PathLike) -> tuple[int, int] | None:
    """A file's size and modification time (``None``: it is not there now)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns
