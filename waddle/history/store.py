"""The history file: an SQLite database of finished games (``docs/history.md``).

:func:`connect` opens it, checks it is a Waddle history of a schema version this program
knows, and brings an older one up to date (:data:`MIGRATIONS`, in one transaction). The
file is in WAL mode, so readers (``waddle stats``, ``waddle replay``) never wait for the
host that writes; the schema's version is SQLite's ``user_version`` and the file is
marked as ours by its ``application_id``. Every problem is a :class:`HistoryError`
naming the file: not a database, another program's, a newer schema, locked, read-only.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

#: ``PRAGMA application_id`` of a Waddle history ("Wadl").
APPLICATION_ID = 0x5761646C
#: Seconds a connection waits for another's lock before it gives up.
BUSY_TIMEOUT = 2.0


class HistoryError(Exception):
    """The history file cannot be used; the message names the file and the problem."""


def default_path() -> Path:
    """The history in the user's data directory: ``$XDG_DATA_HOME/waddle/history.sqlite``,
    else ``~/.local/share/waddle/history.sqlite``."""
    data = os.environ.get("XDG_DATA_HOME")
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "waddle" / "history.sqlite"


def _create(db: sqlite3.Connection) -> None:
    """Version 1: the games and each game's seats."""
    _script(db, """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            table_id TEXT NOT NULL,
            number INTEGER NOT NULL,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            setup TEXT NOT NULL,
            started REAL,
            finished REAL NOT NULL,
            record TEXT NOT NULL,
            UNIQUE (table_id, number)
        );
        CREATE TABLE players (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seat INTEGER NOT NULL,
            label TEXT NOT NULL,
            name TEXT NOT NULL,
            bot TEXT,
            player TEXT NOT NULL,
            score INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            place INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX players_by_player ON players (player, bot);
    """)


def _add_ratings(db: sqlite3.Connection) -> None:
    """Version 2: SSH key fingerprints, the ratings kept as games are written (rebuilt
    from the games already there), and the games by their end."""
    from waddle.history.games import rebuild_ratings

    _script(db, """
        ALTER TABLE players ADD COLUMN fingerprint TEXT;
        CREATE TABLE ratings (
            game TEXT NOT NULL,
            player TEXT NOT NULL,
            bot INTEGER NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (game, player, bot)
        );
        CREATE INDEX games_by_finish ON games (finished);
    """)
    rebuild_ratings(db)


def _script(db: sqlite3.Connection, script: str) -> None:
    """Run the statements of ``script`` one by one, inside the caller's transaction
    (``executescript`` would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


#: The migrations in order: ``MIGRATIONS[n]`` brings a file of version ``n`` to ``n + 1``.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_create, _add_ratings)
#: The schema version this program writes and reads.
SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: str | Path, *, write: bool = False) -> sqlite3.Connection:
    """The history at ``path``, checked and up to date (rows as :class:`sqlite3.Row`).

    ``write``: the host's one writer, which creates the file (and its folder) when there
    is none. A reader opens an existing file for reading, or for writing only to bring an
    older schema up to date.

    Raises:
        HistoryError: no such file (a reader), not an SQLite database or not a Waddle
            history, a schema newer than :data:`SCHEMA_VERSION`, locked by another
            program, or read-only where it must be written; the message names ``path``.
    """
    path = Path(path)
    if not write and not path.is_file():
        raise HistoryError(f"{path}: no history here (finished games are written to it by a host)")
    try:
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
        db = _open(path, write)
    except (sqlite3.Error, OSError) as exc:
        raise HistoryError(f"{path}: cannot open the history: {_why(exc, path)}") from None
    try:
        _prepare(db, path, write)
    except sqlite3.Error as exc:
        db.close()
        raise HistoryError(f"{path}: {_why(exc, path)}") from None
    except HistoryError:
        db.close()
        raise
    return db


def _open(path: Path, write: bool) -> sqlite3.Connection:
    mode = "rwc" if write else ("rw" if os.access(path, os.W_OK) else "ro")
    try:
        return _connect(f"{path.absolute().as_uri()}?mode={mode}")
    except sqlite3.OperationalError:
        if mode != "ro":
            raise
    # a read-only folder (a read-only disk) cannot take the reader's shared-memory file:
    # nobody writes there, so read the file as it is
    return _connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1")


def _connect(uri: str) -> sqlite3.Connection:
    """The database at ``uri``, opened (SQLite opens the file at the first statement)."""
    db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA schema_version")
    except sqlite3.Error:
        db.close()
        raise
    db.row_factory = sqlite3.Row
    return db


def _prepare(db: sqlite3.Connection, path: Path, write: bool) -> None:
    """Check ``db`` is ours and of a known version; migrate it; WAL mode for a writer."""
    version, owner = _marks(db)
    tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if owner != APPLICATION_ID and (owner or tables):
        raise HistoryError(f"{path}: not a Waddle history (another program's SQLite database)")
    if version > SCHEMA_VERSION:
        raise HistoryError(f"{path}: history schema version {version} is newer than this "
                           f"waddle reads ({SCHEMA_VERSION}): upgrade waddle")
    if write:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
    if version < SCHEMA_VERSION:
        _migrate(db, path)


def _marks(db: sqlite3.Connection) -> tuple[int, int]:
    """The file's ``user_version`` and ``application_id`` (reading them is the first
    read: a file that is not a database fails here)."""
    return db.execute("PRAGMA user_version").fetchone()[0], db.execute("PRAGMA application_id").fetchone()[0]


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring ``db`` to :data:`SCHEMA_VERSION` in one transaction (another program may have
    done it meanwhile: the version is read again under the lock)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise HistoryError(f"{path}: the history needs an upgrade to schema version "
                           f"{SCHEMA_VERSION} and cannot be written: {_why(exc)}") from None
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for migration in MIGRATIONS[version:]:
            migration(db)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _why(exc: BaseException, path: Path | None = None) -> str:
    """An SQLite or OS error for people: what it means for the history at ``path``."""
    text = str(exc)
    if "unable to open" in text and path is not None and not _writable(path):
        return f"the file or its folder is read-only ({text})"
    if "not a database" in text or "malformed" in text:
        return f"not a history database, or damaged ({text})"
    if "locked" in text or "busy" in text:
        return f"locked by another program ({text})"
    if "readonly" in text:
        return f"the file is read-only ({text})"
    if isinstance(exc, OSError):
        return exc.strerror or text
    return text


def _writable(path: Path) -> bool:
    """Whether the history at ``path`` and the files beside it could be written."""
    folder_ok = not path.parent.exists() or os.access(path.parent, os.W_OK)
    return folder_ok and (not path.exists() or os.access(path, os.W_OK))
