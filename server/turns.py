"""Whose turn, and what is legal: what a table tells the connections that asked for it.

A connection asks in ``hello`` (``docs/protocol.md``, "Whose turn, and what is legal"):
``to_act`` (every event and snapshot it gets names the seats that may act now) or
``legal`` (that, and to a seat that may act, its legal actions: the game's own list,
:meth:`waddle.ruleset.Match.legal`). A connection that asked neither gets the frames
everybody gets, so a lean client pays nothing. The table stays game-blind: both come
from the ruleset interface.

The two fields are the last of ``started``, ``played`` and ``undone``
(:mod:`protocol.messages`) and left out when unset, so a frame told them is the frame
everybody gets with them appended (:func:`with_fields`): an event is encoded once, as
before, and what a connection that asked gets costs the encoding of the fields alone.
:class:`Told` makes one event's frames for the connections that asked, each distinct
frame once (in the hex game one frame with ``to_act`` serves every connection but the
seat to act, which gets its legal actions too); :func:`retold` is the last event of a
catch-up told what is true now.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

import msgspec

from server.log import Entry, frame_of
from waddle.ruleset import Audience, Match

#: What a connection asked to be told with each event: nothing (``None``), who may act
#: (``"to_act"``), or that and its seat's legal actions (``"legal"``).
Asks = Literal["to_act", "legal"] | None

_encode = msgspec.json.Encoder().encode


def asks_of(hello: Any) -> Asks:
    """What a ``hello`` asked for (``legal`` includes ``to_act``)."""
    return "legal" if hello.legal else "to_act" if hello.to_act else None


def told(match: Match | None, audience: Audience, asks: Asks,
         to_act: list[int] | None = None) -> dict[str, Any]:
    """The fields to add to an event or snapshot for a connection of ``audience`` that
    asked ``asks``, ``match`` as it is now: ``to_act`` (seat numbers, lowest first; given,
    or asked of the match), and ``legal`` for a seat that may act when it asked and the
    game lists them; none without a match or a question."""
    if asks is None or match is None:
        return {}
    to_act = sorted(match.to_act()) if to_act is None else to_act
    fields: dict[str, Any] = {"to_act": to_act}
    if asks == "legal" and audience in to_act:
        legal = match.legal(audience)
        if legal is not None:
            fields["legal"] = legal
    return fields


def with_fields(frame: bytes, fields: dict[str, Any]) -> bytes:
    """``frame`` (an event's, without ``to_act`` and ``legal``) with ``fields`` (some of
    them, in that order) appended: the frame of the same message with those fields set,
    byte for byte, since they are its last and an unset one is left out."""
    if not fields:
        return frame
    body = frame[4:-1] + b"," + _encode(fields)[1:]
    return len(body).to_bytes(4, "big") + body


class Told:
    """The frames of one event (``entry``: everybody's, by audience) for the connections
    that asked, made when first needed and shared by every connection that gets the same
    bytes; ``match`` as the event left it."""

    def __init__(self, match: Match, entry: Entry) -> None:
        self.match, self.entry = match, entry
        self._frames: dict[tuple[int, Audience], bytes] = {}

    @functools.cached_property
    def to_act(self) -> list[int]:
        """Who may act after the event, lowest first (asked of the match only when a
        connection asked: none that did, no work)."""
        return sorted(self.match.to_act())

    def frame(self, audience: Audience, asks: Asks) -> bytes:
        """The frame for a connection of ``audience`` that asked ``asks`` (not ``None``)."""
        plain = frame_of(self.entry, audience)
        own = asks == "legal" and audience in self.to_act
        key = (id(plain), audience if own else None)  # who may act: the same for all
        frame = self._frames.get(key)
        if frame is None:
            frame = self._frames[key] = with_fields(plain, told(self.match, audience, asks, self.to_act))
        return frame


def retold(frame: bytes, match: Match, audience: Audience, asks: Asks) -> bytes:
    """A logged event's ``frame`` (as everybody gets it) with what a connection of
    ``audience`` that asked ``asks`` is told now: the last event of a catch-up."""
    return with_fields(frame, told(match, audience, asks))
