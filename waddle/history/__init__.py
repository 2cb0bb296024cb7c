"""The history of finished games: an SQLite file that hosts write and ``waddle stats`` and
``waddle replay`` read (``docs/history.md``).

It lives in :mod:`waddle` because both sides use it: the host (:mod:`server.history`,
its one writer thread) and the client's commands, which may not import each other
(``docs/architecture.md``). It is plain, blocking ``sqlite3``: a trio program runs it in
a worker thread.
"""

from waddle.history.games import FinishedGame, Seat, Summary, recent, record, write_game
from waddle.history.stats import (
           NEWCOMER,
           HeadToHead,
           PlayerStats,
           Rating,
           head_to_head,
           players,
           ratings,
)
from waddle.history.store import SCHEMA_VERSION, HistoryError, connect, default_path

__all__ = ["NEWCOMER", "SCHEMA_VERSION", "FinishedGame", "HeadToHead", "HistoryError", "PlayerStats",
           "Rating", "Seat", "Summary", "connect", "default_path", "head_to_head", "players", "ratings",
           "recent", "record", "write_game"]
