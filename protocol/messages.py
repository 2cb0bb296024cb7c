"""The wire messages: msgspec Structs in two tagged unions, one per direction.

Every message is a JSON object whose ``"type"`` field names it (``docs/protocol.md``).
:data:`ClientMessage` is what a client may send, :data:`ServerMessage` what the host
sends. Unknown fields are ignored, so a newer peer may add optional ones; an unknown
``"type"`` is refused as ``bad_message``. Strings and lists are bounded
(``msgspec.Meta``); user text (names, chat) is also cleaned by the host
(:mod:`protocol.text`) before it is stored or sent on.

Actions travel in the record's action form (``docs/records.md``):
``{"type": "place", "hex": [q, r], "double": false}`` or ``{"type": "scout"}``.
Game events travel as the engine's event dicts (``waddle.hex.events``), unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

#: The protocol version spoken here; ``hello`` with another version is refused.
PROTOCOL_VERSION = 1

#: Longest name accepted on the wire (characters); the host keeps at most :data:`NAME_SHOWN`.
MAX_NAME = 64
#: Longest name the host keeps after cleaning (characters).
NAME_SHOWN = 24
#: Longest chat line (characters).
MAX_CHAT = 500
#: Longest join code (characters).
MAX_CODE = 32
#: Longest client action id (characters).
MAX_ID = 64
#: Longest free-form short string: software names, bot kinds, map names (characters).
MAX_LABEL = 64
#: Longest human-readable message from the host (characters).
MAX_MESSAGE = 1000
#: Most seats at a table (the game's limit).
MAX_SEATS = 5

Name = Annotated[str, Meta(max_length=MAX_NAME)]
Label = Annotated[str, Meta(max_length=MAX_LABEL)]
Code = Annotated[str, Meta(max_length=MAX_CODE)]
ActionId = Annotated[str, Meta(min_length=1, max_length=MAX_ID)]
Version = Annotated[int, Meta(ge=0)]
Coord = Annotated[int, Meta(ge=-1000, le=1000)]
Colour = Literal["red", "blue", "yellow", "green", "purple"]
Phase = Literal["lobby", "playing", "finished"]
Text = Annotated[str, Meta(max_length=MAX_MESSAGE)]


class _Message(msgspec.Struct, tag_field="type", kw_only=True):
    """Base of every message: a JSON object tagged by ``"type"``."""


# -- shared pieces -------------------------------------------------------------------


class PlaceAction(msgspec.Struct, tag="place", tag_field="type", kw_only=True):
    """Place a single (or a ``double``) on the ice hex ``[q, r]`` (record action form)."""

    hex: tuple[Coord, Coord]
    double: bool = False


class ScoutAction(msgspec.Struct, tag="scout", tag_field="type", kw_only=True):
    """Scout ahead (record action form)."""


ActionForm = PlaceAction | ScoutAction


class StandardMap(msgspec.Struct, tag="standard", tag_field="kind", kw_only=True):
    """The standard map for the player count, arranged by ``seed`` (``null``: the host picks one)."""

    seed: int | None = None


class BundledMap(msgspec.Struct, tag="bundled", tag_field="kind", kw_only=True):
    """A map bundled with the game, by ``name``."""

    name: Label


class FileMap(msgspec.Struct, tag="file", tag_field="kind", kw_only=True):
    """A map file on the host (``path``). Set only on the host itself, never over the wire."""

    path: Annotated[str, Meta(max_length=4096)]


MapChoice = StandardMap | BundledMap | FileMap


class Settings(msgspec.Struct, kw_only=True):
    """The table's options, set by the host (or the table's owner in the lobby).

    ``players``: seats at the table (2 to 5). ``map``: which map. ``mirror_match``: play
    two halves (RULES.md "Options"). ``realtime_score``: clients may show live scores (a
    display option). ``turn_timer``: seconds a player has per turn before a bot plays for
    them (``null``: no timer). ``bots``: bot kinds (``waddle.hex.bots``) that fill empty
    seats at the start, in seat order (empty: a full table of humans is needed).
    ``seat_order``: the opening turn order; ``"random"`` shuffles the seats at the start
    (seeded by the host's seed, else the standard map's, so a seed reproduces it),
    ``"seated"`` keeps the order of joining, then the bot seats (RULES.md "Setup").
    """

    players: Annotated[int, Meta(ge=2, le=MAX_SEATS)] = 4
    map: MapChoice = msgspec.field(default_factory=StandardMap)
    mirror_match: bool = False
    realtime_score: bool = False
    turn_timer: Annotated[float, Meta(gt=0, le=86400)] | None = None
    bots: Annotated[list[Label], Meta(max_length=MAX_SEATS)] = msgspec.field(default_factory=list)
    seat_order: Literal["random", "seated"] = "random"


class SeatInfo(msgspec.Struct, kw_only=True):
    """One seat as everybody sees it (never its token).

    ``seat``: its place in turn order (0 first). ``bot``: the bot kind playing this seat (a bot seat, or a stand-in for an absent
    player), else ``null``. ``connected``: a human is connected to it. ``standin``: ``bot`` is
    a stand-in playing for the seat's absent player (after the grace period, until they
    reclaim it), not a bot seat; absent from older hosts, so it defaults to ``false``.
    """

    seat: int
    colour: Colour
    name: str
    connected: bool
    ready: bool
    bot: str | None = None
    standin: bool = False


# -- client -> server ----------------------------------------------------------------


class Hello(_Message, tag="hello"):
    """First message of every connection: the protocol version the client speaks."""

    protocol: int
    client: Label = ""


class Join(_Message, tag="join"):
    """Take a seat in the lobby: ``name``, a preferred ``colour`` and the table's ``code``."""

    name: Name
    colour: Colour | None = None
    code: Code | None = None


class Reclaim(_Message, tag="reclaim"):
    """Take back a seat with its secret ``token``; ``last_version``: the last event version seen (0: none)."""

    token: Annotated[str, Meta(max_length=MAX_LABEL)]
    last_version: Version = 0


class Watch(_Message, tag="watch"):
    """Watch as a spectator named ``name``; ``code`` and ``last_version`` as in :class:`Join` and :class:`Reclaim`."""

    name: Name = ""
    code: Code | None = None
    last_version: Version = 0


class Configure(_Message, tag="configure"):
    """Change the table's settings (the owner, in the lobby)."""

    settings: Settings


class Start(_Message, tag="start"):
    """Start the game (the owner, in the lobby)."""


class Ready(_Message, tag="ready"):
    """Say whether this seat is ready; when every seat is ready and the table is full, the game starts."""

    ready: bool = True


class Say(_Message, tag="say"):
    """Send a chat line to everybody at the table."""

    text: Annotated[str, Meta(max_length=MAX_CHAT)]


class Act(_Message, tag="act"):
    """Play ``action`` for this seat.

    ``id``: the client's id for this action (a resend with the same id is applied at
    most once). ``version``: the event version the action was decided on. ``token``: the
    seat's secret token.
    """

    id: ActionId
    version: Version
    token: Annotated[str, Meta(max_length=MAX_LABEL)]
    action: ActionForm


class Ping(_Message, tag="ping"):
    """Heartbeat; the peer answers :class:`Pong` with the same ``nonce``."""

    nonce: int = 0


class Pong(_Message, tag="pong"):
    """Answer to :class:`Ping`."""

    nonce: int = 0


class Leave(_Message, tag="leave"):
    """Leave the table: in the lobby the seat is freed; in a game it is held for a reclaim."""


ClientMessage = Hello | Join | Reclaim | Watch | Configure | Start | Ready | Say | Act | Ping | Pong | Leave


# -- server -> client ----------------------------------------------------------------


class Welcome(_Message, tag="welcome"):
    """Answer to :class:`Hello`: the host speaks this ``protocol``; ``code_required``: joining needs the code.

    ``table``: the table's id, random, kept when a saved game is resumed (empty from a
    host that has none). A client may key what it remembers (its seat token) by the
    host's address and this id, so a token is never offered to another game.
    """

    protocol: int
    server: str
    code_required: bool
    phase: Phase
    table: Label = ""


class Seated(_Message, tag="seated"):
    """You hold the seat of ``colour``. Keep ``token`` secret: it acts for the seat and reclaims it."""

    colour: Colour
    name: str
    token: str


class Watching(_Message, tag="watching"):
    """You are a spectator."""


class Lobby(_Message, tag="lobby"):
    """The table: phase, settings and seats. Sent on joining and whenever any of it changes.

    ``seats`` are in turn order (the opening order once the game starts). ``owner``: the
    colour of the seat that may configure and start (``null``: nobody yet).
    """

    phase: Phase
    settings: Settings
    seats: list[SeatInfo]
    owner: Colour | None = None
    code_required: bool = False


class Started(_Message, tag="started"):
    """Event: the game started. ``record``: the game record with no actions yet (``waddle.hex.record``)."""

    version: Version
    record: dict[str, Any]


class Played(_Message, tag="played"):
    """Event: ``player`` played ``action``; ``events``: the engine's event dicts it caused, in order.

    ``bot``: the bot kind that chose the action for the seat, or ``null`` for the human.
    Replaying ``action`` into a local engine reproduces ``events``.
    """

    version: Version
    player: Colour
    action: ActionForm
    events: list[dict[str, Any]]
    bot: str | None = None


class Snapshot(_Message, tag="snapshot"):
    """The whole table at event ``version``: ``record`` (``null`` in the lobby) and the lobby."""

    version: Version
    record: dict[str, Any] | None
    lobby: Lobby


class Ack(_Message, tag="ack"):
    """Your action ``id`` was applied as event ``version`` (``duplicate``: it was already applied)."""

    id: str
    version: Version
    duplicate: bool = False


class Rejected(_Message, tag="rejected"):
    """Your ``request`` (a message type) was refused; nothing changed.

    ``id``: the action id for an ``act``. ``code``: a rejection code (``docs/protocol.md``).
    """

    request: str
    code: str
    message: Text
    id: str | None = None


class Chat(_Message, tag="chat"):
    """A chat line from ``name`` (``colour``: their seat, ``null`` for a spectator or the host)."""

    name: str
    colour: Colour | None
    text: str


class Closing(_Message, tag="closing"):
    """The host is closing this connection: ``code`` says why (``docs/protocol.md``)."""

    code: str
    message: Text


ServerMessage = (Welcome | Seated | Watching | Lobby | Started | Played | Snapshot | Ack | Rejected
                 | Chat | Ping | Pong | Closing)

#: Rejection codes, in the order the checks run for an ``act``.
ACT_CHECKS = ("bad_message", "bad_token", "not_started", "game_over", "not_your_turn", "illegal",
              "stale")

#: Every rejection code with its meaning (documented in ``docs/protocol.md``).
REJECTIONS: dict[str, str] = {
    "bad_message": "the frame is not a message of this protocol (bad JSON, type or field)",
    "bad_token": "the seat token is wrong, or this connection holds no seat",
    "not_started": "the game has not started",
    "game_over": "the game is over",
    "not_your_turn": "it is another seat's turn",
    "illegal": "the rules forbid the action (the message names the rule)",
    "stale": "the action was decided on an old version; the table has moved on",
    "rate_limited": "too many messages; slow down",
    "bad_code": "the join code is wrong",
    "table_full": "every seat is taken",
    "started": "the game has started; reclaim a seat or watch",
    "already_joined": "this connection already holds a seat or watches",
    "not_joined": "join or watch first",
    "not_owner": "only the table's owner may do this",
    "bad_settings": "the settings cannot be used (the message says why)",
    "cannot_start": "the table cannot start yet (the message says why)",
}

#: Codes of :class:`Closing`.
CLOSINGS: dict[str, str] = {
    "protocol_version": "the client speaks another protocol version",
    "handshake": "no hello within the handshake timeout, or another message first",
    "idle": "nothing received within the idle timeout",
    "frame_too_large": "a frame's length prefix was above the cap, or zero",
    "rate_limited": "far too many messages",
    "replaced": "the seat was reclaimed by another connection",
    "full": "the host serves as many connections as it can; try again later",
    "bye": "the client left",
}
