"""Whose turn, and what is legal: what a table tells the connections that asked for it.

A connection asks in ``hello`` (``docs/protocol.md``, "Whose turn, and what is legal"):
``to_act`` (every event and snapshot it gets names the seats that may act now) or
``legal`` (that, and to a seat that may act, its legal actions: the game's own list,
:meth:`waddle.ruleset.Match.legal`). A connection that asked neither gets the frames
everybody gets, so a lean client pays nothing. The table stays game-blind: both come
from the ruleset interface.

:class:`Told` makes one event's frames for the connections that asked, each distinct
frame encoded once (in the hex game one frame with ``to_act`` serves every connection
but the seat to act, which gets its legal actions too). :func:`retold` remakes a logged
frame with what is true now, for the last event of a catch-up.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Literal

import msgspec

from protocol.framing import decoder_for, encode
from protocol.messages import server_message
from waddle.ruleset import Audience, Match

#: What a connection asked to be told with each event: nothing (``None``), who may act
#: (``"to_act"``), or that and its seat's legal actions (``"legal"``).
Asks = Literal["to_act", "legal"] | None


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
            fields["legal"] = list(legal)
    return fields


class Told:
    """The frames of one event for the connections that asked, made when first needed.

    ``payloads``: what each audience sees of the event, in :func:`server.log.audiences`
    order (spectators, then seat 0, 1, ...; one object for all in a game without
    secrets); ``message(payload, **fields)``: the event's message carrying it. Frames
    are shared by every connection that would get the same bytes.
    """

    def __init__(self, match: Match, payloads: Sequence[Any], message: Callable[..., Any]) -> None:
        self.match, self.payloads, self.message = match, payloads, message
        self._frames: dict[tuple[int, Audience], bytes] = {}

    @functools.cached_property
    def to_act(self) -> list[int]:
        """Who may act after the event, lowest first (asked of the match only when a
        connection asked: none that did, no work)."""
        return sorted(self.match.to_act())

    def frame(self, audience: Audience, asks: Asks) -> bytes:
        """The frame for a connection of ``audience`` that asked ``asks`` (not ``None``)."""
        payload = self.payloads[0 if audience is None else audience + 1]
        own = asks == "legal" and audience in self.to_act
        key = (id(payload), audience if own else None)  # who may act: the same for all
        frame = self._frames.get(key)
        if frame is None:
            fields = told(self.match, audience, asks, self.to_act)
            frame = self._frames[key] = encode(self.message(payload, **fields))
        return frame


def retold(frame: bytes, match: Match, audience: Audience, asks: Asks) -> bytes:
    """A logged event's ``frame`` (as everybody gets it) with what a connection of
    ``audience`` that asked ``asks`` is told now: the last event of a catch-up."""
    if asks is None:
        return frame
    message = decoder_for(server_message(match.ruleset)).decode(frame[4:])
    return encode(msgspec.structs.replace(message, **told(match, audience, asks)))
