"""Maps: ice and water hexes, numbered water, fish and fishing pools.

A map is data, never code (RULES.md "Maps"). In a game record it is the object
``{"hexes": [{"q": 0, "r": 0, "terrain": "water", "number": 1, "fish": [5, 1]},
{"q": 1, "r": 0, "terrain": "ice"}, ...]}``; a map file holds the same list as TOML
(``docs/maps.md``) or JSON. Every way in goes through :meth:`Map.from_dict`, which
refuses a bad map with a :class:`MapError` naming the file, the place
and the problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from waddle.errors import FileError
from waddle.files import parse_json, parse_toml, read_text
from waddle.hex.hexgrid import Hex, components, neighbours

#: The largest map accepted, in hexes (the 5-player standard map has 70).
MAX_HEXES = 500
#: The highest fish value (the rulebook's fish are worth 1 to 5 VP).
MAX_FISH = 99
#: The most fish on one water hex (the standard tiles carry up to 3).
MAX_FISH_PER_HEX = 9
#: The highest water hex number (the board draws it in three digits).
MAX_NUMBER = 999
#: The largest ``|q|`` or ``|r|`` of a hex, as records and the wire bound coordinates
#: (:data:`waddle.hex.actions.Coord`).
MAX_COORD = 1000
#: The largest map file read, in bytes: a map of :data:`MAX_HEXES` hexes is under 64 KiB.
MAX_MAP_BYTES = 256 * 1024


class MapError(FileError):
    """A map that cannot be played. The message names the file, the place and the problem."""


@dataclass(frozen=True, slots=True)
class Water:
    """What a water hex carries: its ``number`` (``None`` if unnumbered) and its ``fish`` (VP values)."""

    number: int | None = None
    fish: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Pool:
    """A fishing pool: a maximal connected set of water ``hexes``.

    ``fish`` are all fish on its hexes, highest value first; ``shore`` is the set of
    ice hexes next to any of its hexes (RULES.md "Scoring", pools).
    """

    hexes: frozenset[Hex]
    fish: tuple[int, ...]
    shore: frozenset[Hex]


class Map:
    """An immutable, validated map.

    Args:
        ice: the ice hexes.
        water: each water hex with its number and fish.
        name: a display name.
        source: where the map came from (a file name), used in error messages.
        players: ``(fewest, most)`` players the map is for, within 2..5 (the map file's
            ``players``; a :class:`~waddle.Game` on it refuses other player counts).

    Raises:
        MapError: a hex both ice and water, a hex's ``q`` or ``r`` beyond
            ±:data:`MAX_COORD`, a duplicate number, a number or fish value below 1, a
            number above :data:`MAX_NUMBER`, a fish value above :data:`MAX_FISH`, more
            than :data:`MAX_FISH_PER_HEX` fish on a hex, no numbered water hex, no ice, an ice
            hex touching no numbered water hex (RULES.md "Maps" decision), or more than
            :data:`MAX_HEXES` hexes, or a ``players`` range outside 2..5.
    """

    __slots__ = ("ice", "water", "name", "players", "numbered", "pools", "_tables")

    def __init__(
        self,
        ice: Iterable[Hex],
        water: Mapping[Hex, Water],
        *,
        name: str = "",
        source: str = "<map>",
        players: tuple[int, int] = (2, 5),
    ) -> None:
        self.ice: frozenset[Hex] = frozenset(ice)
        self.water: dict[Hex, Water] = dict(sorted(water.items()))
        self.name = name
        if not 2 <= players[0] <= players[1] <= 5:
            raise MapError(f"{source}: players must be [min, max] with 2 <= min <= max <= 5")
        self.players: tuple[int, int] = (players[0], players[1])
        _check(self.ice, self.water, source)
        self.numbered: tuple[Hex, ...] = tuple(
            sorted((h for h, w in self.water.items() if w.number is not None),
                   key=lambda h: self.water[h].number)
        )
        self.pools: tuple[Pool, ...] = tuple(self._pool(g) for g in components(self.water))
        self._tables = None

    def _pool(self, hexes: frozenset[Hex]) -> Pool:
        fish = sorted((f for h in hexes for f in self.water[h].fish), reverse=True)
        shore = frozenset(n for h in hexes for n in neighbours(h) if n in self.ice)
        return Pool(hexes, tuple(fish), shore)

    @property
    def hexes(self) -> frozenset[Hex]:
        """Every hex of the map, ice and water."""
        return self.ice | self.water.keys()

    def terrain(self, hex: Hex) -> str | None:
        """``"ice"``, ``"water"``, or ``None`` for a hex off the map."""
        if hex in self.ice:
            return "ice"
        return "water" if hex in self.water else None

    def to_dict(self) -> dict[str, Any]:
        """The map as the record's ``map`` object, hexes sorted by ``(q, r)``."""
        out = []
        for hex in sorted(self.hexes):
            item: dict[str, Any] = {"q": hex[0], "r": hex[1], "terrain": self.terrain(hex)}
            water = self.water.get(hex)
            if water is not None:
                if water.number is not None:
                    item["number"] = water.number
                item["fish"] = list(water.fish)
            out.append(item)
        return {"hexes": out}

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<map>", name: str = "") -> Map:
        """Build a map from the record's ``map`` object (or a parsed map file).

        Raises:
            MapError: naming ``source``, the place (``hexes[i] at (q, r)``) and the problem.
        """
        if not isinstance(data, Mapping) or not isinstance(data.get("hexes"), list):
            raise MapError(f"{source}: a map needs a list 'hexes'")
        _check_header(data, source)
        if len(data["hexes"]) > MAX_HEXES:
            raise MapError(f"{source}: {len(data['hexes'])} hexes; at most {MAX_HEXES} are allowed")
        ice: set[Hex] = set()
        water: dict[Hex, Water] = {}
        for i, item in enumerate(data["hexes"]):
            hex, terrain, info = _parse_hex(item, f"{source}: hexes[{i}]")
            if hex in ice or hex in water:
                raise MapError(f"{source}: hexes[{i}] at {hex}: duplicate hex")
            if terrain == "ice":
                ice.add(hex)
            else:
                water[hex] = info
        low, high = data.get("players", (2, 5))
        return cls(ice, water, name=name or str(data.get("name", "")), source=source, players=(low, high))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Map) and (self.ice, self.water) == (other.ice, other.water)

    def __hash__(self) -> int:
        return hash((self.ice, tuple(self.water.items())))

    def __repr__(self) -> str:
        return f"<Map {self.name or 'unnamed'}: {len(self.ice)} ice, {len(self.water)} water>"


def _check_header(data: Mapping[str, Any], source: str) -> None:
    """The optional top-level fields of a map file: ``name``, ``description``, ``players``."""
    for key in ("name", "description"):
        if not isinstance(data.get(key, ""), str):
            raise MapError(f"{source}: {key} must be a string")
    players = data.get("players", [2, 5])
    if not isinstance(players, list) or len(players) != 2 or not all(_is_int(p) for p in players):
        raise MapError(f"{source}: players must be [min, max] with 2 <= min <= max <= 5")


def _parse_hex(item: Any, place: str) -> tuple[Hex, str, Water]:
    if not isinstance(item, Mapping):
        raise MapError(f"{place}: expected an object with q, r and terrain")
    q, r = item.get("q"), item.get("r")
    if not _is_int(q) or not _is_int(r):
        raise MapError(f"{place}: q and r must be integers")
    hex = (q, r)
    at = f"{place} at {hex}"
    unknown = set(item) - {"q", "r", "terrain", "number", "fish"}
    if unknown:
        raise MapError(f"{at}: unknown field {sorted(unknown)[0]!r}")
    terrain = item.get("terrain")
    if terrain not in ("ice", "water"):
        raise MapError(f"{at}: unknown terrain {terrain!r} (expected 'ice' or 'water')")
    number, fish = item.get("number"), item.get("fish", [])
    if terrain == "ice":
        if number is not None or fish:
            raise MapError(f"{at}: an ice hex has no number and no fish")
        return hex, terrain, Water()
    if number is not None and not _is_int(number):
        raise MapError(f"{at}: number must be an integer")
    if not isinstance(fish, list) or not all(_is_int(f) for f in fish):
        raise MapError(f"{at}: fish must be a list of integers")
    return hex, terrain, Water(number, tuple(fish))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(ice: frozenset[Hex], water: dict[Hex, Water], source: str) -> None:
    both = ice & water.keys()
    if both:
        raise MapError(f"{source}: hex {min(both)} is both ice and water")
    if len(ice) + len(water) > MAX_HEXES:
        raise MapError(f"{source}: more than {MAX_HEXES} hexes")
    far = [h for h in (*ice, *water) if max(abs(h[0]), abs(h[1])) > MAX_COORD]
    if far:
        raise MapError(f"{source}: hex {min(far)}: q and r must be from -{MAX_COORD} to {MAX_COORD}")
    numbers: dict[int, Hex] = {}
    for hex, w in water.items():
        if w.number is not None:
            if w.number < 1:
                raise MapError(f"{source}: water hex {hex}: number {w.number} is below 1")
            if w.number > MAX_NUMBER:
                raise MapError(f"{source}: water hex {hex}: number {w.number} is above {MAX_NUMBER}")
            if w.number in numbers:
                raise MapError(
                    f"{source}: water hex {hex}: duplicate number {w.number} (also at {numbers[w.number]})"
                )
            numbers[w.number] = hex
        if len(w.fish) > MAX_FISH_PER_HEX:
            raise MapError(f"{source}: water hex {hex}: {len(w.fish)} fish, more than {MAX_FISH_PER_HEX}")
        low = [f for f in w.fish if f < 1]
        if low:
            raise MapError(f"{source}: water hex {hex}: fish value {low[0]} is below 1")
        high = [f for f in w.fish if f > MAX_FISH]
        if high:
            raise MapError(f"{source}: water hex {hex}: fish value {high[0]} is above {MAX_FISH}")
    if not numbers:
        raise MapError(f"{source}: the map has no numbered water hex")
    if not ice:
        raise MapError(f"{source}: the map has no ice hex")
    for hex in sorted(ice):
        if not any(n in water and water[n].number is not None for n in neighbours(hex)):
            raise MapError(f"{source}: ice hex {hex} touches no numbered water hex")


def load_map(path: str | Path) -> Map:
    """Load a map file: TOML (``docs/maps.md``) or JSON (a record's ``map`` object).

    Raises:
        MapError: the file cannot be read, is over :data:`MAX_MAP_BYTES`, cannot be
            parsed (nested too deeply included), or the map is invalid; the message
            names the file.
    """
    path = Path(path)
    try:
        text = read_text(path, MAX_MAP_BYTES)
    except (OSError, ValueError) as exc:
        raise MapError(f"{path}: cannot read the map file: {exc}") from None
    try:
        data = parse_json(text) if path.suffix == ".json" else parse_toml(text)
    except ValueError as exc:
        raise MapError(f"{path}: not a valid {path.suffix.lstrip('.') or 'toml'} file: {exc}") from None
    return Map.from_dict(data, source=str(path), name=str(data.get("name", path.stem)) if isinstance(data, dict) else "")
