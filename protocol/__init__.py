"""The Waddle wire protocol: messages (:mod:`protocol.messages`), framing
(:mod:`protocol.framing`) and user-text cleaning (:mod:`protocol.text`).

Specified for any language in ``docs/protocol.md``; the JSON Schema is
``protocol/schema.json`` (regenerate with ``python -m protocol.schema``).
"""

from protocol.framing import (
    MAX_CLIENT_FRAME,
    MAX_SERVER_FRAME,
    BadMessage,
    ConnectionClosed,
    FramedStream,
    FrameTooLarge,
    ProtocolError,
    TruncatedFrame,
    decode,
    decoder_for,
    encode,
)
from protocol.messages import (
    CLOSINGS,
    PROTOCOL_VERSION,
    REJECTIONS,
    Ack,
    Act,
    ActionForm,
    BundledMap,
    Chat,
    ClientMessage,
    Closing,
    Configure,
    FileMap,
    Hello,
    Join,
    Leave,
    Lobby,
    MapChoice,
    Ping,
    PlaceAction,
    Played,
    Pong,
    Ready,
    Reclaim,
    Rejected,
    Say,
    ScoutAction,
    Seated,
    SeatInfo,
    ServerMessage,
    Settings,
    Snapshot,
    StandardMap,
    Start,
    Started,
    Watch,
    Watching,
    Welcome,
)
from protocol.text import clean, clean_name

__all__ = [
    "MAX_CLIENT_FRAME", "MAX_SERVER_FRAME", "BadMessage", "ConnectionClosed", "FramedStream",
    "FrameTooLarge", "ProtocolError", "TruncatedFrame", "decode", "decoder_for", "encode",
    "CLOSINGS", "PROTOCOL_VERSION", "REJECTIONS", "Ack", "Act", "ActionForm", "BundledMap", "Chat",
    "ClientMessage", "Closing", "Configure", "FileMap", "Hello", "Join", "Leave", "Lobby",
    "MapChoice", "Ping", "PlaceAction", "Played", "Pong", "Ready", "Reclaim", "Rejected", "Say",
    "ScoutAction", "Seated", "SeatInfo", "ServerMessage", "Settings", "Snapshot", "StandardMap",
    "Start", "Started", "Watch", "Watching", "Welcome", "clean", "clean_name",
]
