"""Saving and resuming a table: the save file is the game's record plus a ``host`` part.

The ``host`` part (:class:`SavedTable`) holds what the record does not: the game's
name, the table's settings, its seats with their names and secret tokens (so it is the
host's private file), each seat's action ids, the bot that chose each action, the join
code and the table's id. Saves from protocol version 1 (the hex game only) are read
too: their settings and seats are converted.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import trio

from protocol.messages import PROTOCOL_VERSION, Settings
from server.seats import Seat
from waddle.errors import RecordError
from waddle.files import write_json
from waddle.ruleset import Match, Ruleset, get_ruleset, ruleset_of_record

log = logging.getLogger("waddle.server")


class SavedSeat(msgspec.Struct):
    """One seat in a save file: its label, name, token, bot kind and action ids."""

    label: str
    name: str
    token: str
    bot: str | None = None
    acted: dict[str, int] = {}


class SavedTable(msgspec.Struct):
    """The ``host`` part of a save file (``docs/protocol.md``, Saving and resuming)."""

    protocol: int
    settings: dict[str, Any]
    seats: list[SavedSeat]
    bots: list[str | None]
    game: str = "hex"
    code: str | None = None
    table: str = ""
    version: int = 0
    games: int = 1


def host_part(ruleset: Ruleset, settings: Settings, seats: list[Seat], bots: list[str | None],
              code: str | None, table: str, *, version: int = 0, games: int = 1) -> dict[str, Any]:
    """The ``host`` part of a save file, JSON-ready (``version``: the table's event
    version, past ``1 + actions`` after take-backs or rematches; ``games``: the game's
    number at the table)."""
    saved = SavedTable(protocol=PROTOCOL_VERSION, game=ruleset.name,
                       settings=msgspec.to_builtins(settings), code=code, table=table,
                       seats=[SavedSeat(s.label, s.name, s.token, s.bot, dict(s.acted)) for s in seats],
                       bots=list(bots), version=version, games=games)
    return msgspec.to_builtins(saved)


@dataclass(frozen=True)
class Resumed:
    """A save file read back: the game's ruleset, its match, the table's settings and the rest."""

    ruleset: Ruleset
    match: Match
    settings: Settings
    saved: SavedTable


def read_save(path: str | Path) -> Resumed:
    """Read the save file at ``path`` and replay its game.

    Raises:
        waddle.RecordError: the file cannot be read, is not a save file (a plain game
            record is named as such), is of an unknown game or protocol version, or
            does not replay; the message names the file.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read the saved game: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a saved game must be a JSON object")
    if "host" not in data:
        what = "a game record, not a host save file" if ruleset_of_record(data) \
            else "not a host save file (it has no 'host' part)"
        raise RecordError(f"{path} is {what}: resume needs the file written by the host's --save")
    try:
        saved = msgspec.convert(_upgrade(data["host"]), SavedTable)
        ruleset = get_ruleset(saved.game)
        settings = msgspec.convert(saved.settings, Settings[ruleset.options_type])
    except (msgspec.ValidationError, ValueError) as exc:
        raise RecordError(f"{path}: host: not a host's save file ({exc})") from None
    if saved.protocol not in (1, PROTOCOL_VERSION):
        raise RecordError(f"{path}: host: saved by protocol version {saved.protocol}; "
                          f"this host reads versions 1 and {PROTOCOL_VERSION}")
    match = ruleset.load({k: v for k, v in data.items() if k != "host"}, source=str(path))
    if [s.label for s in saved.seats] != list(match.labels) or len(saved.bots) != len(match):
        raise RecordError(f"{path}: host: the seats or bots do not match the record")
    return Resumed(ruleset, match, settings, saved)


def _upgrade(host: Any) -> Any:
    """A version 1 ``host`` part (the hex game, seats by colour, the hex options among the
    settings) in the shape of version 2; anything else as it is."""
    if not isinstance(host, dict) or host.get("protocol") != 1:
        return host
    settings = dict(host.get("settings") or {})
    options = {key: settings.pop(key) for key in ("map", "mirror_match", "realtime_score")
               if key in settings}
    seats = [{**{k: v for k, v in seat.items() if k != "colour"}, "label": seat.get("colour")}
             if isinstance(seat, dict) else seat for seat in host.get("seats") or []]
    return {**host, "game": "hex", "settings": {**settings, "options": options}, "seats": seats}


def restored_seats(resumed: Resumed, looks) -> list[Seat]:
    """The seats of a resumed table, held for their tokens (marked ready)."""
    by_label = {look.label: look for look in looks}
    return [Seat(by_label[s.label], s.name, s.token, s.bot, True, acted=dict(s.acted))
            for s in resumed.saved.seats]


class Saver:
    """Keeps the save file at ``path`` current: ``content()`` is what to write and
    ``version()`` the event version it holds. :meth:`needed` after each event; the
    :meth:`run` task writes in the background (through ``offload``, a worker thread),
    merging saves that fall behind."""

    def __init__(self, path: Path, content: Callable[[], dict[str, Any]], version: Callable[[], int],
                 offload: Callable[..., Awaitable[Any]]) -> None:
        self.path = path
        self._content = content
        self._version = version
        self._offload = offload
        self._needed = trio.Event()
        self._saved = trio.Event()
        #: The event version the file holds.
        self.saved_version = 0

    def needed(self) -> None:
        """The table changed: save it soon."""
        self._needed.set()

    def now(self) -> None:
        """Save at once, blocking (at the start and on shutdown)."""
        self._write_logged(self._content())
        self.saved_version = self._version()

    def _write_logged(self, data: dict[str, Any]) -> None:
        try:
            write_json(self.path, data)
        except OSError as exc:
            log.error("cannot save the game to %s: %s", self.path, exc)

    async def run(self) -> None:
        """Write whenever :meth:`needed`, until cancelled."""
        while True:
            await self._needed.wait()
            self._needed = trio.Event()
            version, data = self._version(), self._content()
            await self._offload(self._write_logged, data)
            self.saved_version = version
            self._saved.set()
            self._saved = trio.Event()

    async def flush(self) -> None:
        """Wait until the file holds the current version."""
        while self.saved_version < self._version():
            await self._saved.wait()
