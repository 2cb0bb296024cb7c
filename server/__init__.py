"""The Waddle host: the authoritative trio server (``docs/protocol.md``).

:class:`Host` / :func:`serve` listen on TCP; :class:`Table` is one game from lobby to
finished, known only through its ruleset (:mod:`waddle.ruleset`): nothing here imports
a game. Rooms: :mod:`server.table` (the table's state and dispatch) and its parts
:mod:`server.lobby` (the lobby and seats), :mod:`server.games` (the start, rematches),
:mod:`server.acts` (the act pipeline, take-backs, pauses), :mod:`server.audiences`
(sending each audience what it may see), :mod:`server.saves` (its save file);
:mod:`server.outbox` (what one turn sends, written at its end), :mod:`server.seats`
(seats and tokens), :mod:`server.log` (the event log, per audience), :mod:`server.driver`
(bots, stand-ins, timers), :mod:`server.persistence` (saving and resuming),
:mod:`server.connection` (one client's link).
"""

from server.connection import Limits
from server.host import Host, ServerConfig, serve
from server.seats import Seat
from server.table import Table

__all__ = ["Host", "Limits", "Seat", "ServerConfig", "Table", "serve"]
