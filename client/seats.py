"""Seat tokens remembered across runs, so a player whose terminal closed gets the seat back.

A seat token (``seated.token``, ``docs/protocol.md``) is the only way back to a seat
once the game has started. :class:`SeatStore` keeps the tokens this user was given in
a private file, :func:`default_path`: ``$XDG_STATE_HOME/waddle/seats.json``, else
``~/.local/state/waddle/seats.json`` (the folder is made readable by its owner only,
the file is created mode 0600 and replaced atomically: a temporary file in the same
folder, then a rename; a lock file serialises writers).

Each entry is keyed by the host's ``HOST:PORT``, the table's id (``welcome.table``, so
an old token is never offered to another game at the same address) and the name the
player asked for; it also holds the seat's label, the token, the process id of the client
that holds the seat and when it was last written. An entry whose process is still
running (and is not this process) is another terminal playing that seat: it is not
offered. At most :data:`MAX_ENTRIES` entries younger than :data:`MAX_AGE` seconds are
kept. The store never prints or logs a token; an unreadable or malformed file (or one
over :data:`MAX_BYTES`) counts as empty.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from waddle.files import parse_json, read_text

#: Entries kept (the newest).
MAX_ENTRIES = 64
#: Seconds an entry is kept after it was last written (a week).
MAX_AGE = 7 * 24 * 3600
#: The largest file read, in bytes (:data:`MAX_ENTRIES` entries take a few kilobytes).
MAX_BYTES = 1024 * 1024


def default_path() -> Path:
    """``$XDG_STATE_HOME/waddle/seats.json``, else ``~/.local/state/waddle/seats.json``."""
    state = os.environ.get("XDG_STATE_HOME")
    base = Path(state) if state and os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "waddle" / "seats.json"


class SeatStore:
    """The remembered seat tokens in ``path`` (default :func:`default_path`).

    ``address`` is ``"HOST:PORT"`` as the client connected, ``table`` the table's id and
    ``name`` the name the player asked for.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    def lookup(self, address: str, table: str, name: str) -> str | None:
        """The token remembered for this seat, unless another running process holds it."""
        for entry in self._read():
            key = (entry.get("address"), entry.get("table"), entry.get("name"))
            if key == (address, table, name) and not _held_elsewhere(entry.get("pid")):
                return entry.get("token")
        return None

    def remember(self, address: str, table: str, name: str, label: str, token: str) -> bool:
        """Remember ``token`` for this seat, held by this process; ``False`` if the file
        cannot be written (the game goes on; the seat is just not remembered)."""
        entry = {"address": address, "table": table, "name": name, "label": label,
                 "token": token, "pid": os.getpid(), "time": time.time()}
        return self._update(lambda entries: [entry] + [
            e for e in entries if (e.get("address"), e.get("table"), e.get("name")) != (address, table, name)
            and e.get("token") != token])

    def forget(self, token: str) -> bool:
        """Drop the entry with ``token`` (the host no longer knows it); ``False`` if the
        file cannot be written."""
        return self._update(lambda entries: [e for e in entries if e.get("token") != token])

    # -- the file ---------------------------------------------------------------------

    def _read(self) -> list[dict]:
        try:
            data = parse_json(read_text(self.path, MAX_BYTES))
        except (OSError, ValueError):
            return []
        entries = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return []
        oldest = time.time() - MAX_AGE
        return [e for e in entries if isinstance(e, dict) and isinstance(e.get("token"), str)
                and isinstance(e.get("time"), (int, float)) and e["time"] >= oldest]

    def _update(self, change) -> bool:
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with self._locked():
                entries = change(self._read())[:MAX_ENTRIES]
                _write_private(self.path, json.dumps({"version": 1, "seats": entries}, indent=1))
        except OSError:
            return False
        return True

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the store's lock file (writers in other processes wait; no-op without fcntl)."""
        try:
            import fcntl
        except ImportError:  # not POSIX: the rename still keeps the file whole
            yield
            return
        fd = os.open(self.path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def _write_private(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically, the new file readable by its owner only."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _held_elsewhere(pid) -> bool:
    """Whether ``pid`` is a running process other than this one."""
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it runs, as another user
        return True
    return True
