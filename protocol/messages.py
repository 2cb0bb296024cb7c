"""The wire messages: msgspec Structs in two tagged unions, one per direction.

Every message is a JSON object whose ``"type"`` field names it (``docs/protocol.md``).
The protocol (version 3; version 2 was its first game-neutral form) is game-neutral: ``welcome`` names the table's game (its ruleset,
:mod:`waddle.ruleset`), and the messages that carry a game's own data are generic in
the ruleset's types: ``act`` its action (``A``), ``configure``/``lobby``/``snapshot`` its
options (``O``), ``played`` its events (``E``), ``started``/``snapshot`` its view data
(``V``), and the events' ``legal`` lists its legal list's entries (``L``). :func:`client_message` and :func:`server_message` give a ruleset's two unions;
:data:`ClientMessage` and :data:`ServerMessage` unparametrised decode those fields as
plain JSON values (what a client does before ``welcome`` names the game).

Unknown fields are ignored, so a newer peer may add optional ones; an unknown
``"type"`` is refused as ``bad_message``. Strings and lists are bounded
(``msgspec.Meta``); user text (names, chat) is also cleaned by the host
(:mod:`protocol.text`) before it is stored or sent on.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType

#: The protocol version spoken here. Version 3 (issue 27) changed the schema and added
#: only what a version 2 peer ignores (optional fields: ``hello.to_act`` and
#: ``hello.legal``, and the events' ``to_act`` and ``legal`` sent only to a connection
#: that asked; the ``sync`` request, which it never sends), so a host still speaks
#: :data:`SPOKEN_VERSIONS`; ``hello`` with another version is refused.
PROTOCOL_VERSION = 3
#: The versions a host answers, oldest first: ``welcome.protocol`` is the client's.
SPOKEN_VERSIONS = (2, 3)

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
#: Longest free-form short string: software names, bot kinds, seat labels, game names (characters).
MAX_LABEL = 64
#: Longest human-readable message from the host (characters).
MAX_MESSAGE = 1000
#: Most seats at a table (any game's limit).
MAX_SEATS = 5
#: Most entries of a seat's legal list (Waddle Downtown's compact list: about 200 at most).
MAX_LEGAL = 10_000

Name = Annotated[str, Meta(max_length=MAX_NAME)]
Label = Annotated[str, Meta(max_length=MAX_LABEL)]
Code = Annotated[str, Meta(max_length=MAX_CODE)]
ActionId = Annotated[str, Meta(min_length=1, max_length=MAX_ID)]
Version = Annotated[int, Meta(ge=0)]
SeatNumber = Annotated[int, Meta(ge=0, lt=MAX_SEATS)]
Phase = Literal["lobby", "playing", "finished"]
Text = Annotated[str, Meta(max_length=MAX_MESSAGE)]

#: A ruleset's action, options, event and view-data types (:mod:`waddle.ruleset`).
A = TypeVar("A")
O = TypeVar("O")  # noqa: E741
E = TypeVar("E")
V = TypeVar("V")
L = TypeVar("L")

#: An event's ``to_act``: the seats that may act now (omitted unless the connection asked).
ToAct = Annotated[list[SeatNumber], Meta(max_length=MAX_SEATS)] | UnsetType


class _Message(msgspec.Struct, tag_field="type", kw_only=True):
    """Base of every message: a JSON object tagged by ``"type"``."""


# -- shared pieces -------------------------------------------------------------------


class Settings(msgspec.Struct, Generic[O], kw_only=True):
    """The table's settings, set by the host (or the table's owner in the lobby).

    ``players``: seats at the table (within the game's range). ``turn_timer``: seconds a
    player has per turn before a bot plays for them (``null``: no timer). ``bots``: bot
    kinds of the game that fill empty seats at the start, in seat order, the last
    repeating (empty: a full table of people is needed). ``seat_order``: the opening turn
    order; ``"random"`` shuffles the seats at the start (seeded by the host's seed, else
    the game's, so a seed reproduces it), ``"seated"`` keeps the order of joining, then
    the bot seats (RULES.md "Setup"). ``hints``: whether the players may ask the search
bot for a hint during the game (``"auto"``: only when a bot sits at the table; the host
cannot stop a client's own search, so this is what the official client obeys and shows
everybody). ``options``: the game's own options (the hex game:
    ``waddle.hex.options.HexOptions``; ``null`` from a client: the game's defaults).
    """

    players: Annotated[int, Meta(ge=2, le=MAX_SEATS)] = 4
    turn_timer: Annotated[float, Meta(gt=0, le=86400)] | None = None
    bots: Annotated[list[Label], Meta(max_length=MAX_SEATS)] = msgspec.field(default_factory=list)
    seat_order: Literal["random", "seated"] = "random"
    hints: Literal["auto", "on", "off"] = "auto"
    options: O | None = None


class SeatInfo(msgspec.Struct, kw_only=True):
    """One seat as everybody sees it (never its token).

    ``seat``: its number (the place in turn order once the game starts; in the lobby, the
    order of joining). ``label``: the seat's name in the game (a colour), unique at the
    table; ``colour``: how it is drawn. ``bot``: the bot kind playing this seat (a bot
    seat, or a stand-in for an absent player), else ``null``. ``connected``: a person is
    connected to it. ``standin``: ``bot`` is a stand-in playing for the seat's absent
    player (after the grace period, until they reclaim it), not a bot seat.
    ``rematch``: once the game is over, this seat's player asked for a rematch (``rematch``
    message). ``waiting``: the table's pause (``Lobby.pause``) waits for this seat's player
    to say ``continue``.
    """

    seat: int
    label: str
    colour: str
    name: str
    connected: bool
    ready: bool
    bot: str | None = None
    standin: bool = False
    rematch: bool = False
    waiting: bool = False


# -- client -> server ----------------------------------------------------------------


class Hello(_Message, tag="hello"):
    """First message of every connection: the protocol version the client speaks, the
    ``game`` it wants to play (a ruleset name; ``null``: whatever the host plays) and the
    ``table`` it wants (a table's id, ``welcome.table``: at a club, straight to that table;
    ``null``: a club's lobby, or the one table of a host that is not a club).

    ``to_act``: every ``started``, ``played``, ``undone`` and ``snapshot`` this connection
    gets says which seats may act (their ``to_act``); ``legal``: that too, and to a seat
    that may act, its legal actions (their ``legal``; ``docs/protocol.md``). Both false:
    neither is sent (a lean client pays nothing for them).
    """

    protocol: int
    client: Label = ""
    game: Label | None = None
    table: Label | None = None
    to_act: bool = False
    legal: bool = False


class Join(_Message, tag="join"):
    """Take a seat in the lobby: ``name``, a preferred seat ``label`` and the table's ``code``."""

    name: Name
    label: Label | None = None
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


class Configure(_Message, Generic[O], tag="configure"):
    """Change the table's settings (the owner, in the lobby)."""

    settings: Settings[O]


class Start(_Message, tag="start"):
    """Start the game (the owner, in the lobby)."""


class Ready(_Message, tag="ready"):
    """Say whether this seat is ready; when every seat is ready and the table is full, the game starts."""

    ready: bool = True


class Say(_Message, tag="say"):
    """Send a chat line to everybody at the table."""

    text: Annotated[str, Meta(max_length=MAX_CHAT)]


class Act(_Message, Generic[A], tag="act"):
    """Play ``action`` (the game's action type) for this seat.

    ``id``: the client's id for this action (a resend with the same id is applied at
    most once). ``version``: the event version the action was decided on. ``token``: the
    seat's secret token.
    """

    id: ActionId
    version: Version
    token: Annotated[str, Meta(max_length=MAX_LABEL)]
    action: A


class Undo(_Message, tag="undo"):
    """Take back this seat's last action (the game's policy; the hex game: while nobody
    has acted since), decided on event ``version``; ``token``: the seat's secret token.
    Answered ``undone`` to all, or ``rejected``."""

    version: Version
    token: Annotated[str, Meta(max_length=MAX_LABEL)]


class Rematch(_Message, tag="rematch"):
    """Once the game is over: ask for (``accept``) or withdraw from a rematch at this table.
    It starts when every connected person has asked (``docs/protocol.md``, Rematch)."""

    accept: bool = True


class Continue(_Message, tag="continue"):
    """Say the table's pause (``Lobby.pause``, e.g. half-time) may end for this seat."""


class Ping(_Message, tag="ping"):
    """Heartbeat; the peer answers :class:`Pong` with the same ``nonce``."""

    nonce: int = 0


class Pong(_Message, tag="pong"):
    """Answer to :class:`Ping`."""

    nonce: int = 0


class Sync(_Message, tag="sync"):
    """Ask for the whole table again: answered with a ``snapshot`` for this connection's
    audience (a client that fell out of step; ``docs/protocol.md``)."""


class Leave(_Message, tag="leave"):
    """Leave the table: in the lobby the seat is freed; in a game it is held for a reclaim."""


# -- the club: client -> server (docs/club.md) ---------------------------------------


class ListTables(_Message, tag="list_tables"):
    """Ask a club for its tables; answered :class:`Tables`."""


class CreateTable(_Message, Generic[O], tag="create_table"):
    """Open a new table at a club: ``game`` (a ruleset name), its ``settings`` (``null``:
    the club's defaults for the game; the game's ``options`` as in :class:`Configure`),
    a ``name`` for people (``null``: one is made; unique in the club, ignoring case) and a
    join ``code`` (``null``: an open table). Answered :class:`TableCreated`; the creator
    then joins it (:class:`JoinTable`) like anybody."""

    game: Label
    settings: Settings[O] | None = None
    name: Name | None = None
    code: Code | None = None


class JoinTable(_Message, tag="join_table"):
    """From a club's lobby, take a seat at ``table`` (an id): the table's ``welcome``, then
    what a :class:`Join` with the same ``name``, ``label`` and ``code`` gets."""

    table: Label
    name: Name
    label: Label | None = None
    code: Code | None = None


class WatchTable(_Message, tag="watch_table"):
    """From a club's lobby, watch ``table``: the table's ``welcome``, then what a
    :class:`Watch` with the same ``name`` and ``code`` gets."""

    table: Label
    name: Name = ""
    code: Code | None = None


class LeaveTable(_Message, tag="leave_table"):
    """At a club's table, go back to the club's lobby (a lobby seat is freed, a game's seat
    held for a reclaim, as :class:`Leave` does): answered with the club's ``welcome``."""


# -- server -> client ----------------------------------------------------------------


class Welcome(_Message, tag="welcome"):
    """Answer to :class:`Hello`: the host speaks this ``protocol`` and plays ``game`` (a
    ruleset name; ``title`` for people); ``code_required``: joining needs the code.

    ``table``: the table's id, random, kept when a saved game is resumed. A client may
    key what it remembers (its seat token) by the host's address and this id, so a
    token is never offered to another game.

    ``club``: the host is a club (many tables; ``leave_table`` goes back to its lobby).
    At a club's lobby ``game`` and ``table`` are empty: send the club's messages
    (``list_tables``, ``create_table``, ``join_table``, ``watch_table``).
    """

    protocol: int
    server: str
    game: Label
    code_required: bool
    phase: Phase
    title: Label = ""
    table: Label = ""
    club: bool = False


class Seated(_Message, tag="seated"):
    """You hold seat ``seat`` (``label``). Keep ``token`` secret: it acts for the seat and reclaims it."""

    seat: int
    label: str
    name: str
    token: str


class Watching(_Message, tag="watching"):
    """You are a spectator."""


class Lobby(_Message, Generic[O], tag="lobby"):
    """The table: phase, settings and seats. Sent on joining and whenever any of it changes.

    ``seats`` are in seat order (the opening turn order once the game starts).
    ``owner``: the number of the seat that may configure and start (``null``: nobody yet).
    ``pause``: what the game is paused for (the hex game: ``"half-time"``), else ``null``;
    ``pause_left``: seconds until it ends by itself, as the host sent this message.
    ``game``: the number of the game at this table (1, then 2 after a rematch, ...).
    """

    phase: Phase
    settings: Settings[O]
    seats: list[SeatInfo]
    owner: int | None = None
    code_required: bool = False
    pause: Label | None = None
    pause_left: Annotated[float, Meta(ge=0)] | None = None
    game: Annotated[int, Meta(ge=1)] = 1


class Started(_Message, Generic[V, L], tag="started"):
    """Event: the game started. ``view``: what this connection may know of it (the game's view data).

    ``to_act`` and ``legal``, here and in every event and snapshot, only to a connection
    that asked in ``hello``: the seats that may act now, and this seat's legal actions
    (the game's legal list: each entry an action to send as it is) when it may act.
    """

    version: Version
    view: V
    to_act: ToAct = UNSET
    legal: Annotated[list[L], Meta(max_length=MAX_LEGAL)] | UnsetType = UNSET


class Played(_Message, Generic[E, L], tag="played"):
    """Event: seat ``seat`` acted; ``events``: what it caused, in order, as this connection may see them.

    ``bot``: the bot kind that chose the action for the seat, or ``null`` for its player.
    ``to_act``, ``legal``: as in :class:`Started`.
    """

    version: Version
    seat: int
    events: list[E]
    bot: str | None = None
    to_act: ToAct = UNSET
    legal: Annotated[list[L], Meta(max_length=MAX_LEGAL)] | UnsetType = UNSET


class Undone(_Message, Generic[E, L], tag="undone"):
    """Event: seat ``seat`` took back its last action; ``events``: the game's events saying
    so (the hex game: one ``took_back``). The game is as it was before that action.
    ``to_act``, ``legal``: as in :class:`Started`."""

    version: Version
    seat: int
    events: list[E]
    to_act: ToAct = UNSET
    legal: Annotated[list[L], Meta(max_length=MAX_LEGAL)] | UnsetType = UNSET


class Snapshot(_Message, Generic[O, V, L], tag="snapshot"):
    """The whole table at event ``version``: ``view`` (``null`` in the lobby) and the lobby.

    ``bots``: for each action of the game so far, the bot kind that chose it (``null``: its
    player), as ``played.bot`` said. ``to_act``, ``legal``: as in :class:`Started` (during
    a game only).
    """

    version: Version
    view: V | None
    lobby: Lobby[O]
    bots: Annotated[list[Label | None], Meta(max_length=100_000)] = msgspec.field(default_factory=list)
    to_act: ToAct = UNSET
    legal: Annotated[list[L], Meta(max_length=MAX_LEGAL)] | UnsetType = UNSET


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
    """A chat line from ``name`` (``label``: their seat's label, ``null`` for a spectator or the host)."""

    name: str
    label: str | None
    text: str


class Closing(_Message, tag="closing"):
    """The host is closing this connection: ``code`` says why (``docs/protocol.md``)."""

    code: str
    message: Text


# -- the club: server -> client --------------------------------------------------------


class TableSeat(msgspec.Struct, kw_only=True):
    """A seat of a club's table as its lobby lists it: the player's ``name``, the ``bot``
    kind of a bot seat (else ``null``), whether a person is ``connected``, and the name's
    ``rating`` in the game from the club's history (``null``: none known)."""

    name: str
    bot: str | None = None
    connected: bool = False
    rating: float | None = None


class TableInfo(msgspec.Struct, kw_only=True):
    """One table of a club: its id (``table``, as ``welcome.table``), ``name``, ``game``
    (ruleset name) and ``title``, ``phase``, ``players`` (seats), the ``seats`` taken,
    ``spectators`` watching, ``code_required``, and ``game_number`` (1, 2 after a rematch)."""

    table: str
    name: str
    game: str
    title: str
    phase: Phase
    players: int
    seats: list[TableSeat]
    spectators: int = 0
    code_required: bool = False
    game_number: int = 1


class Tables(_Message, tag="tables"):
    """A club's tables, oldest first (answer to ``list_tables``)."""

    tables: list[TableInfo]


class TableCreated(_Message, tag="table_created"):
    """A table was opened for your ``create_table``: its id ``table`` and ``name``."""

    table: str
    name: str


def _client_union(action: Any, options: Any) -> Any:
    return (Hello | Join | Reclaim | Watch | Configure[options] | Start | Ready | Say
            | Act[action] | Undo | Rematch | Continue | Sync | Ping | Pong | Leave
            | ListTables | CreateTable[options] | JoinTable | WatchTable | LeaveTable)


def _server_union(options: Any, event: Any, view: Any, legal: Any) -> Any:
    return (Welcome | Seated | Watching | Lobby[options] | Started[view, legal] | Played[event, legal]
            | Undone[event, legal] | Snapshot[options, view, legal] | Ack | Rejected | Chat | Ping | Pong
            | Closing | Tables | TableCreated)


#: What a client may send, its game's fields as plain JSON values (what a club's lobby decodes).
ClientMessage = _client_union(Any, Any)
#: The club's own requests (:mod:`server.club`); at a club's table too.
CLUB_REQUESTS = (ListTables, CreateTable, JoinTable, WatchTable, LeaveTable)
#: What the host sends, its game's fields as plain JSON values.
ServerMessage = _server_union(Any, Any, Any, Any)


@functools.cache
def client_message(ruleset: Any) -> Any:
    """The union of what a client may send to a host of ``ruleset`` (a :class:`waddle.ruleset.Ruleset`)."""
    return _client_union(ruleset.action_type, ruleset.options_type)


@functools.cache
def server_message(ruleset: Any) -> Any:
    """The union of what a host of ``ruleset`` sends."""
    return _server_union(ruleset.options_type, ruleset.event_type, ruleset.view_type,
                         ruleset.legal_type or ruleset.action_type)


#: Rejection codes, in the order the checks run for an ``act``.
ACT_CHECKS = ("bad_message", "bad_token", "not_started", "game_over", "paused", "not_your_turn",
              "illegal", "stale")

#: Every rejection code with its meaning (documented in ``docs/protocol.md``).
REJECTIONS: dict[str, str] = {
    "bad_message": "the frame is not a message of this protocol (bad JSON, type or field)",
    "bad_token": "the seat token is wrong, or this connection holds no seat",
    "not_started": "the game has not started",
    "game_over": "the game is over",
    "paused": "the game is paused (e.g. half-time) until every person says to go on",
    "not_your_turn": "this seat may not act now (it is another seat's turn)",
    "illegal": "the rules forbid the action (the message names the rule)",
    "stale": "the action was decided on an old version; the table has moved on",
    "rate_limited": "too many messages; slow down",
    "code_required": "the table has a join code and none was given",
    "bad_code": "the join code is wrong",
    "table_full": "every seat is taken",
    "started": "the game has started; reclaim a seat or watch",
    "already_joined": "this connection already holds a seat or watches",
    "not_joined": "join or watch first",
    "not_owner": "only the table's owner may do this",
    "bad_settings": "the settings cannot be used (the message says why)",
    "cannot_start": "the table cannot start yet (the message says why)",
    "cannot_undo": "nothing of this seat's can be taken back now (the message says why)",
    "not_finished": "the game is not over (a rematch is asked for at its end)",
    "not_a_club": "this host is one table, not a club",
    "unknown_table": "the club has no table with this id",
    "not_at_table": "this connection is at the club's lobby: join or watch a table first",
    "at_table": "this connection is at a table: leave_table first",
    "name_taken": "another table of the club has this name (ignoring case)",
    "too_many_tables": "this connection or address has as many open tables as the club allows",
}

#: Codes of :class:`Closing`.
CLOSINGS: dict[str, str] = {
    "protocol_version": "the client speaks another protocol version",
    "game": "the client asked for a game this host does not play",
    "handshake": "no hello within the handshake timeout, or another message first",
    "idle": "nothing received within the idle timeout",
    "frame_too_large": "a frame's length prefix was above the cap, or zero",
    "rate_limited": "far too many messages",
    "replaced": "the seat was reclaimed by another connection",
    "full": "the host serves as many connections as it can, or as many from this address; try again later",
    "host_stopped": "the host stopped (the message says whether the game is saved and how it goes on)",
    "bye": "the client left",
    "unknown_table": "hello named a table this host does not have",
}
