"""The hex game's options: which map, mirror match, real-time score (RULES.md "Options").

:class:`HexOptions` is the ruleset's ``options_type``: the part of a table's settings
that belongs to this game (msgspec Structs, so they travel in the lobby as they are).
:func:`make_map` makes the map they choose.
"""

from __future__ import annotations

import random
from typing import Annotated

import msgspec

from waddle.hex.bundled import bundled_map
from waddle.hex.maps import Map, load_map
from waddle.hex.tiles import standard_map

#: Longest bundled map name (characters).
MAX_NAME = 64


class StandardMap(msgspec.Struct, frozen=True, tag="standard", tag_field="kind"):
    """The standard map for the player count, arranged by ``seed`` (``null``: the host picks one)."""

    seed: int | None = None


class BundledMap(msgspec.Struct, frozen=True, tag="bundled", tag_field="kind"):
    """A map bundled with the game, by ``name`` (:func:`waddle.hex.bundled.bundled_maps`)."""

    name: Annotated[str, msgspec.Meta(max_length=MAX_NAME)]


class FileMap(msgspec.Struct, frozen=True, tag="file", tag_field="kind"):
    """A map file on the host (``path``). Chosen only on the host itself, never by a peer."""

    path: Annotated[str, msgspec.Meta(max_length=4096)]


MapChoice = StandardMap | BundledMap | FileMap


class HexOptions(msgspec.Struct, frozen=True, kw_only=True):
    """The hex game's options.

    ``map``: which map. ``mirror_match``: play two halves (RULES.md "Options").
    ``realtime_score``: clients show every player's live score (a display option; it
    never changes the rules).
    """

    map: MapChoice = msgspec.field(default_factory=StandardMap)
    mirror_match: bool = False
    realtime_score: bool = False


def make_map(choice: MapChoice, players: int) -> tuple[Map, int | None]:
    """The map ``choice`` names for ``players`` players, and the seed it was made with
    (a standard map without a seed gets a random one; other maps have none).

    Raises:
        waddle.hex.maps.MapError: an unknown bundled map, or a map file that cannot be read
            or used (naming the file and the problem).
    """
    if isinstance(choice, StandardMap):
        seed = choice.seed if choice.seed is not None else random.SystemRandom().randrange(2**31)
        return standard_map(players, seed), seed
    if isinstance(choice, BundledMap):
        return bundled_map(choice.name), None
    return load_map(choice.path), None


def describe(choice: MapChoice) -> str:
    """How error messages name a map: ``"the standard map"``, ``"bundled map 'lagoon'"``,
    ``"map file maps/x.toml"``."""
    if isinstance(choice, BundledMap):
        return f"bundled map {choice.name!r}"
    if isinstance(choice, FileMap):
        return f"map file {choice.path}"
    return "the standard map"
