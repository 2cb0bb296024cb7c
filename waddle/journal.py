"""The action journal beside a save file: one checksummed line per action, appended.

A host saves a game as a snapshot (the game's record plus its ``host`` part, written
whole and atomically now and then) and, beside it in ``FILE.journal``
(:func:`journal_path`), every action since that snapshot, one line each, appended as the
action is played: the write-ahead log that makes every action durable before anybody
sees it (``docs/protocol.md``, Saving and resuming). The journal is game-neutral: an
action is the seat number and the ruleset's action Struct, replayed through
:meth:`waddle.ruleset.Match.apply`.

Each line is a JSON object, a space, its CRC-32 in 8 hex digits and a newline. The first
line is the :class:`Header` (the table's id and the snapshot's event version it
extends); each further line is an :class:`Entry`. :func:`read` keeps the longest run of
whole, intact, consecutive entries and says what it left out (a line cut short by a
crash, a damaged line, another table's journal), so a half-written journal is never
loaded as garbage.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from waddle.errors import RecordError
from waddle.files import MAX_RECORD_BYTES, read_bytes

#: The journal format's version (the header's ``journal`` field).
FORMAT = 1

A = TypeVar("A")


class Header(msgspec.Struct, kw_only=True):
    """The first line: ``table`` (the table's id, ``welcome.table``) and ``base`` (the
    event version of the snapshot the entries extend: 1 + the actions it holds)."""

    journal: int = FORMAT
    table: str
    base: int


class Entry(msgspec.Struct, Generic[A], kw_only=True, omit_defaults=True):
    """One action: its event ``version``, the ``seat`` number that played it, the
    ``action`` (the ruleset's action type), the ``bot`` kind that chose it (``None``: its
    player) and the client's action ``id`` (``None`` for a bot's). A take-back
    (:meth:`waddle.ruleset.Match.undo`) is an entry too: ``undo`` true, no ``action``
    (the seat takes back its last one)."""

    version: int
    seat: int
    action: A | None = None
    bot: str | None = None
    id: str | None = None
    undo: bool = False


_encoder = msgspec.json.Encoder()
_header_decoder = msgspec.json.Decoder(Header)


def journal_path(save: str | Path) -> Path:
    """The journal beside the save file ``save``: ``save`` with ``.journal`` added."""
    save = Path(save)
    return save.with_name(save.name + ".journal")


def line(item: Header | Entry) -> bytes:
    """One journal line: the JSON of ``item``, a space, its CRC-32 (8 hex digits), a newline."""
    body = _encoder.encode(item)
    return b"%s %08x\n" % (body, zlib.crc32(body))


@dataclass
class Journal:
    """What :func:`read` found: the ``entries`` to replay (consecutive from the base + 1)
    and ``problem``, what was left out and why (``None``: nothing)."""

    entries: list[Entry] = field(default_factory=list)
    problem: str | None = None


def read(path: str | Path, action_type: Any, *, table: str, base: int) -> Journal:
    """The entries of the journal at ``path`` that extend the snapshot of table ``table``
    at event version ``base``.

    Entries the snapshot already holds (version ``base`` or less: a crash between writing
    a snapshot and starting its journal) are skipped. The run of entries ends at the
    first line that is cut short, fails its checksum or does not decode (nested too
    deeply included), at a gap in the versions, or at the end; a missing file is an empty
    journal, one over :data:`~waddle.files.MAX_RECORD_BYTES` is left out whole. Never
    raises for the file's content: what is left out is described in
    :attr:`Journal.problem`.

    Raises:
        OSError: the file exists but cannot be read.
    """
    path = Path(path)
    try:
        data = read_bytes(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        return Journal()
    except ValueError as exc:
        return Journal(problem=f"{path}: {exc}; the journal is left out")
    lines = data.split(b"\n")
    torn = lines.pop()  # after the last newline: empty, or a line cut short
    header, problem = _header(lines[:1], path)
    if header is None:
        return Journal(problem=problem)
    if header.table != table:
        return Journal(problem=f"{path}: the journal is another table's; ignored")
    decoder = msgspec.json.Decoder(Entry[action_type])
    entries: list[Entry] = []
    expected = base + 1
    for number, raw in enumerate(lines[1:], 2):
        entry = _entry(raw, decoder)
        if entry is None or entry.version > expected:
            what = "damaged" if entry is None else f"version {entry.version}, expected {expected}"
            return Journal(entries, f"{path}: line {number} is {what}; it and the "
                                    f"{len(lines) - number} line(s) after it are left out")
        if entry.version == expected:
            entries.append(entry)
            expected += 1
    if torn:
        problem = f"{path}: the last line was cut short ({len(torn)} bytes, an action not yet saved); left out"
    return Journal(entries, problem)


def _header(lines: Sequence[bytes], path: Path) -> tuple[Header | None, str | None]:
    body = _checked(lines[0]) if lines else None
    if body is None:
        return None, f"{path}: no intact header line; the journal is left out"
    try:
        header = _header_decoder.decode(body)
    except (msgspec.DecodeError, RecursionError):
        return None, f"{path}: the header line does not decode; the journal is left out"
    if header.journal != FORMAT:
        return None, f"{path}: journal format {header.journal}, this program reads {FORMAT}; left out"
    return header, None


def _checked(raw: bytes) -> bytes | None:
    """The JSON body of a journal line whose checksum matches, else ``None``."""
    body, _, crc = raw.rpartition(b" ")
    if len(crc) != 8 or not body:
        return None
    try:
        ok = int(crc, 16) == zlib.crc32(body)
    except ValueError:
        return None
    return body if ok else None


def _entry(raw: bytes, decoder: msgspec.json.Decoder) -> Entry | None:
    body = _checked(raw)
    if body is None:
        return None
    try:
        return decoder.decode(body)
    except (msgspec.DecodeError, RecursionError):
        return None


def extend(match: Any, save: str | Path, *, table: str, version: int = 0) -> Journal:
    """Play on ``match`` (a :class:`waddle.ruleset.Match` loaded from the save file
    ``save`` of table ``table``) the actions and take-backs its journal adds.

    ``version`` is the event version the save file holds (its ``host.version``; 0 if it
    has none: then 1 + its actions, as without take-backs); the journal's entries follow
    it (:func:`snapshot_version`).

    Returns the journal read (:func:`read`), its ``entries`` cut to those played: an
    entry the game refuses ends them, and ``problem`` says so.

    Raises:
        OSError: the journal exists but cannot be read.
    """
    path = journal_path(save)
    base = snapshot_version(match, version)
    journal = read(path, match.ruleset.action_type, table=table, base=base)
    try:
        replay(match, journal.entries, source=str(path), base=base)
    except Refused as exc:
        journal.problem = f"{exc}; it and the actions after it are left out"
        journal.entries = journal.entries[:exc.played]
    return journal


def snapshot_version(match: Any, version: int) -> int:
    """The event version of a save file whose match is ``match`` and whose ``host.version``
    is ``version`` (0: none, a save written before take-backs and rematches): at least
    1 + its actions (event 1 is the start)."""
    return max(version, 1 + len(match))


class Refused(RecordError):
    """An entry the game refused; the ``played`` entries before it were played."""

    def __init__(self, message: str, played: int) -> None:
        super().__init__(message)
        self.played = played


def replay(match: Any, entries: Sequence[Entry], *, source: str, base: int | None = None) -> None:
    """Play ``entries`` on ``match`` (a :class:`waddle.ruleset.Match` at event version
    ``base``; ``None``: 1 + its actions, as without take-backs), in order: an action
    through ``Match.apply``, a take-back through ``Match.undo``.

    Raises:
        Refused: an entry does not follow the version reached, or is not legal in the
            game it extends (naming ``source``, the entry's version and the rule); the
            entries before it are played.
    """
    version = 1 + len(match) if base is None else base
    for played, entry in enumerate(entries):
        if entry.version != version + 1:
            raise Refused(f"{source}: version {entry.version} does not follow the saved game "
                          f"({version})", played)
        try:
            if entry.undo:
                match.undo(entry.seat)
            elif entry.action is None:
                raise ValueError("no action")
            else:
                match.apply(entry.seat, entry.action)
        except (ValueError, IndexError) as exc:
            what = ", a take-back" if entry.undo else ""
            raise Refused(f"{source}: version {entry.version} (seat {entry.seat}{what}) is illegal: "
                          f"{exc}", played) from None
        version += 1
