"""The outbox of a table: every frame it sends during one turn, written when the turn ends.

A *turn* is one call into the table from outside it: a client message handled, a
connection's end, a bot's action, a pause timed out (the table's methods marked
:func:`in_turn`, and :meth:`server.table.Table.handle`). While a turn lasts the
:class:`Outbox` holds what the table sends, per connection, in the order sent; when the
outermost turn ends it hands each connection its frames in one write
(:meth:`server.seats.Peer.send_frames`), the turn's first connection (the sender of the
message) first. So what one client message causes costs each connection one write, and
a frame is written only after all the work the turn did before sending it: an action's
journal line is written before its frames are made (:mod:`server.acts`). A connection's
frames may go before the turn ends: :meth:`Outbox.flush` (the mover's event and ``ack``,
written before the table works out the others' views) and :meth:`Outbox.close` (its
frames, then its ``closing``). Outside a turn a frame is written at once.

The outbox is the table's own, one per table, and only its trio thread uses it; a turn
holds frames whether or not its work awaits (none does: the table's methods are plain
functions), so a turn never mixes into another table's writes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from server.seats import Peer

Method = TypeVar("Method", bound=Callable[..., Any])


class Outbox:
    """The frames one turn of a table sends, held per connection (see the module docstring)."""

    __slots__ = ("_depth", "_held", "_first")

    def __init__(self) -> None:
        self._depth = 0  # turns open (a turn's work may start another: one flush at the outermost's end)
        self._held: dict[Peer, list[bytes]] = {}
        self._first: Peer | None = None

    def turn(self, first: Peer | None = None) -> Outbox:
        """A turn, for ``with``: every frame sent is held until the outermost turn ends,
        then each connection's is written in one write, ``first``'s before the others'
        (``first`` counts only for the outermost turn). The frames are written even when
        the turn's work raises: they tell what happened before it did. (The outbox is its
        own context manager, re-entrant: no object is made per turn.)"""
        if not self._depth:
            self._first = first
        return self

    def __enter__(self) -> None:
        self._depth += 1

    def __exit__(self, *failure: object) -> None:
        self._depth -= 1
        if not self._depth:
            self._write_all()

    def send(self, peer: Peer, frame: bytes) -> None:
        """Send ``peer`` an encoded ``frame``: held until the turn ends, or (no turn) written now."""
        if self._depth:
            self._held.setdefault(peer, []).append(frame)
        else:
            peer.send_frames((frame,))

    def flush(self, peer: Peer) -> None:
        """Write now, in one write, what the turn holds for ``peer`` (nothing held: nothing
        to do); what it is sent later in the turn is held again."""
        frames = self._held.pop(peer, None)
        if frames:
            peer.send_frames(frames)

    def close(self, peer: Peer, code: str, message: str) -> None:
        """Write what the turn holds for ``peer``, then close its connection (``closing``
        with ``code`` and ``message``)."""
        self.flush(peer)
        peer.close(code, message)

    def _write_all(self) -> None:
        held, self._held = self._held, {}
        first, self._first = self._first, None
        frames = held.pop(first, None) if first is not None else None
        if frames:
            first.send_frames(frames)
        for peer, frames in held.items():
            peer.send_frames(frames)


def in_turn(method: Method) -> Method:
    """Run a table's ``method`` as a turn of the table's :class:`Outbox` (``table.outbox``)."""

    @functools.wraps(method)
    def in_a_turn(table: Any, *args: Any, **kwargs: Any) -> Any:
        with table.outbox.turn():
            return method(table, *args, **kwargs)

    return in_a_turn  # type: ignore[return-value]
