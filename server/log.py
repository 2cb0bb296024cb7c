"""The event log of a table: numbered events, encoded once per distinct audience.

Event 1 is ``started``; each applied action is the next event (``played``). A game with
secrets shows an event differently to different audiences (a seat, or the spectators:
:data:`waddle.ruleset.Audience`), so each version keeps one frame per audience; when
every audience sees the same (the hex game, always) one frame serves them all, encoded
once. A resumed table starts its log at the saved version: a client that needs older
events gets a snapshot instead (:meth:`EventLog.frames_after` says ``None``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from protocol.framing import encode
from waddle.ruleset import Audience

#: One version's frames: one for everybody, or one per audience (spectators first, then
#: seat 0, 1, ...).
Entry = bytes | tuple[bytes, ...]


def audiences(seats: int) -> list[Audience]:
    """The audiences of a table of ``seats`` seats, in :data:`Entry` order: the
    spectators (``None``), then seats ``0 .. seats-1``."""
    return [None, *range(seats)]


def entry_for(payloads: Sequence[Any], message: Callable[[Any], Any],
              known: tuple[Any, bytes] | None = None) -> Entry:
    """The frames of one event: ``payloads`` holds what each audience sees (in
    :func:`audiences` order), ``message(payload)`` the message carrying it; ``known``, a
    payload object already encoded and its frame (the mover's, sent first). Payloads all
    equal (a game without secrets): one frame, encoded once, stands for all; else each
    distinct payload object is encoded once, and equal frames still collapse to one."""
    encoded: dict[int, bytes] = {} if known is None else {id(known[0]): known[1]}
    if payloads.count(payloads[0]) == len(payloads):
        return encoded.get(id(payloads[0])) or encode(message(payloads[0]))
    frames = []
    for payload in payloads:
        frame = encoded.get(id(payload))
        if frame is None:
            frame = encoded[id(payload)] = encode(message(payload))
        frames.append(frame)
    return frames[0] if all(f == frames[0] for f in frames) else tuple(frames)


def frame_of(entry: Entry, audience: Audience) -> bytes:
    """The frame of ``entry`` for ``audience``."""
    if isinstance(entry, bytes):
        return entry
    return entry[0 if audience is None else audience + 1]


class EventLog:
    """The frames of every event from version ``base + 1`` on (``base`` 0: all of them)."""

    def __init__(self, base: int = 0) -> None:
        self.base = base
        self._entries: list[Entry] = []

    @property
    def version(self) -> int:
        """The last event's version (``base`` before any)."""
        return self.base + len(self._entries)

    def append(self, entry: Entry) -> int:
        """Add the next event's frames; return its version."""
        self._entries.append(entry)
        return self.version

    def last(self) -> Entry:
        """The last event's frames."""
        return self._entries[-1]

    def frames_after(self, version: int, audience: Audience) -> Sequence[bytes] | None:
        """``audience``'s frames of every event after ``version``, or ``None`` when they
        are not all here (``version`` 0, before ``base``, or ahead of the log): send a
        snapshot instead."""
        if not (1 <= version <= self.version and version >= self.base):
            return None
        return [frame_of(entry, audience) for entry in self._entries[version - self.base:]]
