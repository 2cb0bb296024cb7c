"""The hand-made maps shipped with Waddle (``waddle/hex/data/maps/*.toml``).

In the spirit of the rulebook's "creative layouts" (peninsulas, gaps, separate
islands). Each is a map file in the format of ``docs/maps.md``, with a ``name``,
a ``description`` and the ``players`` range it suits.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from waddle.hex.maps import Map, MapError


@dataclass(frozen=True, slots=True)
class MapInfo:
    """What a bundled map says about itself: ``name``, ``description``, ``players`` as ``(min, max)``."""

    name: str
    description: str
    players: tuple[int, int]


def _folder() -> Traversable:
    return resources.files("waddle.hex").joinpath("data/maps")


def bundled_maps() -> list[str]:
    """The names of the bundled maps, sorted (the file names without ``.toml``)."""
    return sorted(f.name.removesuffix(".toml") for f in _folder().iterdir() if f.name.endswith(".toml"))


def _read(name: str) -> tuple[dict, Map]:
    """The parsed file and the validated map of bundled map ``name``."""
    if name not in bundled_maps():
        raise MapError(f"no bundled map {name!r}; the bundled maps are: {', '.join(bundled_maps())}")
    source = f"waddle/hex/data/maps/{name}.toml"
    try:
        data = tomllib.loads(_folder().joinpath(f"{name}.toml").read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{source}: not a valid toml file: {exc}") from None
    return data, Map.from_dict(data, source=source, name=name)


def bundled_map(name: str) -> Map:
    """The bundled map called ``name`` (one of :func:`bundled_maps`).

    Raises:
        MapError: for an unknown name (the message lists the bundled maps).
    """
    return _read(name)[1]


def bundled_info(name: str) -> MapInfo:
    """The ``name``, ``description`` and ``players`` range of a bundled map.

    Raises:
        MapError: for an unknown name.
    """
    data, map = _read(name)
    return MapInfo(name, data.get("description", ""), map.players)
