"""The Waddle host: the authoritative trio server (``docs/protocol.md``).

:class:`Host` / :func:`serve` listen on TCP; :class:`Table` is the game from lobby to
finished; :mod:`server.match` is the only module that talks to the rules engine.
"""

from server.connection import Limits
from server.host import Host, ServerConfig, serve
from server.table import Seat, Table

__all__ = ["Host", "Limits", "Seat", "ServerConfig", "Table", "serve"]
