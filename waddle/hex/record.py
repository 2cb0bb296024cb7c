"""Game records: the versioned JSON interchange format (``docs/records.md``).

A record is ``{"format": "waddle-record", "version": 1, "players": [...],
"options": {"mirror_match": bool}, "seed": int | null, "map": {...}, "actions": [...]}``;
``players`` is the opening turn order, each action carries its ``player``. Loading
replays every action through the engine's checks, so a record that loads is a legal game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from waddle.errors import IllegalActionError, RecordError
from waddle.files import MAX_RECORD_BYTES, parse_json, read_text, write_json
from waddle.hex.actions import action_from_dict
from waddle.hex.game import Game
from waddle.hex.maps import Map, MapError
from waddle.ruleset import check_record

FORMAT = "waddle-record"
VERSION = 1


def to_record(game: Game, *, seed: int | None = None, **extra: Any) -> dict[str, Any]:
    """The record of ``game`` so far, as a JSON-ready dict; ``extra`` adds top-level fields."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(game.players),
        "options": {"mirror_match": game.mirror_match},
        "seed": seed,
        "map": game.map.to_dict(),
        "actions": [{"player": player, **action.to_dict()} for player, action in game.moves],
        **extra,
    }


def from_record(data: Any, *, source: str = "<record>") -> Game:
    """Replay a record (a parsed JSON object) and return the game it reaches.

    Raises:
        RecordError: naming ``source``, the field or ``actions[i]``, and the problem:
            wrong format or version, a bad map, bad players, or an action that is
            malformed, by the wrong player, or illegal (with the rule).
    """
    check_record(data, source, FORMAT, VERSION)
    options = data.get("options", {})
    mirror = options.get("mirror_match", False) if isinstance(options, Mapping) else None
    if not isinstance(mirror, bool):
        raise RecordError(f"{source}: options.mirror_match must be true or false")
    try:
        map = Map.from_dict(data.get("map"), source=f"{source}: map")
    except MapError as exc:
        raise RecordError(str(exc)) from None
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(f"{source}: players must be a list of colours")
    try:
        game = Game(map, players, mirror_match=mirror)
    except ValueError as exc:
        raise RecordError(f"{source}: players: {exc}") from None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError(f"{source}: actions must be a list")
    for i, item in enumerate(actions):
        _replay_one(game, item, f"{source}: actions[{i}]")
    return game


def _replay_one(game: Game, item: Any, place: str) -> None:
    try:
        action = action_from_dict(item)
    except ValueError as exc:
        raise RecordError(f"{place}: {exc}") from None
    player = item.get("player")
    if game.is_over:
        raise RecordError(f"{place}: {action} after the game is over")
    if player is None:
        raise RecordError(f"{place}: {action} has no 'player' field (the colour that played it; "
                          f"here {game.current_player})")
    if player != game.current_player:
        raise RecordError(f"{place}: {action} by {player!r}, but it is {game.current_player}'s turn")
    try:
        game.apply(action)
    except IllegalActionError as exc:
        raise RecordError(f"{place}: {action} by {player} is illegal: {exc}") from None


def load_record(path: str | Path) -> Game:
    """Read and replay the record file at ``path``.

    Raises:
        RecordError: the file cannot be read, is over
            :data:`~waddle.files.MAX_RECORD_BYTES`, is not JSON (nested too deeply
            included), or does not replay (see :func:`from_record`); the message names
            the file.
    """
    path = Path(path)
    try:
        text = read_text(path, MAX_RECORD_BYTES)
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read the record: {exc}") from None
    try:
        data = parse_json(text)
    except ValueError as exc:
        raise RecordError(f"{path}: not valid JSON: {exc}") from None
    return from_record(data, source=str(path))


def save_record(path: str | Path, record: Mapping[str, Any]) -> None:
    """Write ``record`` as JSON to ``path`` atomically (:func:`waddle.files.write_json`).

    Raises:
        OSError: if the file cannot be written.
    """
    write_json(path, record)
