"""The saves of a table: what its save file holds, waiting for it, a table resumed from one.

The save file is the game's record plus a ``host`` part (settings, seats with their
tokens, the event version, the game's number at the table, where the host listens:
:func:`server.persistence.host_part`); :class:`server.persistence.Saver` keeps it and
its journal current, written ahead of every event. :class:`SavePart` is this part of
:class:`server.table.Table` (a mixin): :meth:`SavePart.save_data`,
:meth:`SavePart.flush` and :meth:`SavePart.resume`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from server.log import EventLog
from server.persistence import host_part, read_save, restored_seats


class SavePart:
    """The table's save file (see the module docstring)."""

    def save_data(self) -> dict[str, Any]:
        """The save file's content: the game record plus ``host`` (settings, seats with
        tokens, the event version, the game's number at the table, where the host listens)."""
        return self.match.record(host=host_part(self.ruleset, self.settings, list(self.seats),
                                                self.bot_kinds, self.code, self.id,
                                                version=self.version, games=self.games,
                                                listening=self.listening, started=self.started_at,
                                                timing=(self.grace, self.lobby_grace, self.bot_delay)))

    async def flush(self) -> None:
        """Wait until the save file alone holds the current version, its journal folded
        in (returns at once without a file)."""
        if self.saver is not None and self.match is not None:
            await self.saver.flush()

    @classmethod
    def resume(cls, path: str | Path, **options: Any) -> Self:
        """The table saved in ``path`` (a :class:`server.table.Table`), seats held for their
        tokens; saving goes on to ``path`` (or ``options["save"]``). The saved grace, lobby
        grace and bots' pace stand where ``options`` gives none. A client that saw events
        before the resume gets a snapshot.

        Raises:
            waddle.RecordError: the file cannot be read, is not a save file, or does not
                replay; the message names the file.
        """
        resumed = read_save(path)
        saved = resumed.saved
        for name, value in (("grace", saved.grace), ("lobby_grace", saved.lobby_grace), ("bot_delay", saved.pace)):
            if value is not None:
                options.setdefault(name, value)
        table = cls(resumed.settings, ruleset=resumed.ruleset, code=resumed.saved.code,
                    save=options.pop("save", None) or path, **options)
        table.id = resumed.saved.table or table.id
        table.match = resumed.match
        table.seats.restore(restored_seats(resumed, table.ruleset.seats))
        table.log = EventLog(base=resumed.version)  # take-backs are events too
        table.changed = [resumed.version] * len(resumed.match.labels)
        table.games = resumed.saved.games
        table.started_at = resumed.saved.started
        table.bot_kinds = list(resumed.saved.bots)
        if resumed.saved.address is not None and resumed.saved.port is not None:
            table.listening = resumed.saved.address, resumed.saved.port
        table.phase = "finished" if resumed.match.is_over else "playing"
        return table
