"""The Waddle wire protocol: messages (:mod:`protocol.messages`), framing
(:mod:`protocol.framing`) and user-text cleaning (:mod:`protocol.text`).

Specified for any language in ``docs/protocol.md``; the JSON Schema is
``protocol/schema.json``, one section per game (regenerate with ``python -m protocol.schema``).
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
    ACT_CHECKS,
    CLOSINGS,
    PROTOCOL_VERSION,
    REJECTIONS,
    Ack,
    Act,
    Chat,
    ClientMessage,
    Closing,
    Configure,
    Continue,
    Hello,
    Join,
    Leave,
    Lobby,
    Ping,
    Played,
    Pong,
    Ready,
    Reclaim,
    Rejected,
    Rematch,
    Say,
    Seated,
    SeatInfo,
    ServerMessage,
    Settings,
    Snapshot,
    Start,
    Started,
    Undo,
    Undone,
    Watch,
    Watching,
    Welcome,
    client_message,
    server_message,
)
from protocol.text import clean, clean_name, shown

__all__ = [
    "MAX_CLIENT_FRAME", "MAX_SERVER_FRAME", "BadMessage", "ConnectionClosed", "FramedStream",
    "FrameTooLarge", "ProtocolError", "TruncatedFrame", "decode", "decoder_for", "encode",
    "ACT_CHECKS", "CLOSINGS", "PROTOCOL_VERSION", "REJECTIONS", "Ack", "Act", "Chat",
    "ClientMessage", "Closing", "Configure", "Continue", "Hello", "Join", "Leave", "Lobby", "Ping", "Played",
    "Pong", "Ready", "Reclaim", "Rejected", "Rematch", "Say", "Seated", "SeatInfo", "ServerMessage",
    "Settings", "Snapshot", "Start", "Started", "Undo", "Undone", "Watch", "Watching", "Welcome",
    "client_message", "server_message", "clean", "clean_name", "shown",
]
