"""The standard tile set and the seeded standard map (RULES.md "Setup", "Maps").

The 20 tiles are data (``waddle/hex/data/tiles.toml``), a reconstruction of the real set:
each is one numbered water hex, carrying the tile's number and fish, plus 2 or 3 ice
hexes around it. :func:`standard_map` lays the tiles for a player count out at random,
with random rotations, into a compact, roughly hexagonal area with no gaps.

The layout draws only on :meth:`random.Random.random`, whose sequence for a given
integer seed Python guarantees across versions and machines, so the same seed gives
the same map everywhere.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import takewhile

from waddle.hex.hexgrid import DIRECTIONS, Hex, distance, neighbours, rotate
from waddle.hex.maps import Map, Water

#: Tiles used per player count (RULES.md "Reconstructed standard tile set").
TILES_PER_GAME = {2: 13, 3: 15, 4: 17, 5: 20}

#: Layout attempts before giving up (a layout with a gap is thrown away and redrawn).
_ATTEMPTS = 200


@dataclass(frozen=True, slots=True)
class Tile:
    """One standard tile.

    ``number`` is its water hex's number, ``shape`` its size in hexes (3 or 4),
    ``mark`` the fewest players it is used with, ``fish`` the VP values on its water hex.
    """

    number: int
    shape: int
    mark: int
    fish: tuple[int, ...]

    def hexes(self, water: Hex, turns: int) -> tuple[Hex, ...]:
        """The tile's hexes with its water hex at ``water``, rotated ``turns`` sixths; water first.

        Unrotated, the ice lies east, north-east (and north-west for a 4-tile) of the water.
        """
        q, r = water
        ice = (rotate(d, turns) for d in DIRECTIONS[: self.shape - 1])
        return (water, *((q + dq, r + dr) for dq, dr in ice))


@cache
def standard_tiles() -> tuple[Tile, ...]:
    """The 20 standard tiles, by number, read from ``waddle/hex/data/tiles.toml``.

    Raises:
        ValueError: if the packaged data is damaged (never for an intact install).
    """
    text = resources.files("waddle.hex").joinpath("data/tiles.toml").read_text(encoding="utf-8")
    tiles = tuple(
        Tile(int(t["number"]), int(t["shape"]), int(t["mark"]), tuple(int(f) for f in t["fish"]))
        for t in tomllib.loads(text)["tile"]
    )
    if [t.number for t in tiles] != list(range(1, 21)) or any(t.shape not in (3, 4) for t in tiles):
        raise ValueError("waddle/hex/data/tiles.toml: expected tiles 1 to 20 of shape 3 or 4")
    return tiles


def tiles_for(players: int) -> tuple[Tile, ...]:
    """The tiles used with ``players`` players: every tile whose mark is at most that.

    Raises:
        ValueError: unless ``players`` is 2 to 5.
    """
    if players not in TILES_PER_GAME:
        raise ValueError(f"Waddle is for 2 to 5 players, not {players}")
    return tuple(t for t in standard_tiles() if t.mark <= players)


def standard_map(players: int, seed: int | None = None) -> Map:
    """A random standard map for ``players`` players (RULES.md "Setup").

    Uses :func:`tiles_for` ``players`` (13, 15, 17 or 20 tiles), shuffled and each
    turned at random, placed one by one touching the map where it stays most compact,
    around ``(0, 0)``. A layout that encloses an empty hex is redrawn. Seeded maps are
    cached (a :class:`Map` is immutable).

    Args:
        players: 2 to 5.
        seed: the same integer gives the same map on every machine; ``None`` draws a fresh one.

    Raises:
        ValueError: unless ``players`` is 2 to 5.
    """
    if seed is None:
        return _generate(players, None)
    return _seeded(players, seed)


@lru_cache(maxsize=64)
def _seeded(players: int, seed: int) -> Map:
    return _generate(players, seed)


def _generate(players: int, seed: int | None) -> Map:
    tiles = tiles_for(players)
    rng = random.Random(seed)
    for _ in range(_ATTEMPTS):
        layout = _layout(tiles, rng)
        if layout is not None and not _gaps(layout.keys()):
            break
    else:  # pragma: no cover - never seen: gaps are rare and each attempt is fresh
        raise RuntimeError(f"no gap-free layout in {_ATTEMPTS} attempts (seed {seed})")
    ice = [h for h, t in layout.items() if t is None]
    water = {h: Water(t.number, t.fish) for h, t in layout.items() if t is not None}
    suffix = "" if seed is None else f", seed {seed}"
    return Map(ice, water, name=f"standard {players} players{suffix}", source="standard map")


def _below(rng: random.Random, n: int) -> int:
    """A random int in ``0 .. n-1`` from ``rng.random()`` alone (stable across Python versions)."""
    return min(int(rng.random() * n), n - 1)


def _shuffled(items: tuple[Tile, ...], rng: random.Random) -> list[Tile]:
    """Fisher-Yates shuffle built on :func:`_below`."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _layout(tiles: tuple[Tile, ...], rng: random.Random) -> dict[Hex, Tile | None] | None:
    """Place every tile; map each hex to its tile for a water hex, ``None`` for ice.

    ``None`` if some tile found no place (never seen; the caller draws again).
    """
    first, *rest = _shuffled(tiles, rng)
    layout: dict[Hex, Tile | None] = {}
    _put(layout, first, first.hexes((0, 0), _below(rng, 6)))
    for tile in rest:
        good = _best_placements(layout, tile)
        if not good:
            return None
        _put(layout, tile, good[_below(rng, len(good))])
    return layout


def _put(layout: dict[Hex, Tile | None], tile: Tile, hexes: tuple[Hex, ...]) -> None:
    layout[hexes[0]] = tile
    for h in hexes[1:]:
        layout[h] = None


def _best_placements(layout: dict[Hex, Tile | None], tile: Tile) -> list[tuple[Hex, ...]]:
    """The free positions and turns of ``tile`` touching the map that keep it most compact.

    The cost favours hexes near ``(0, 0)`` (squared distance) and many shared edges;
    a placement that closes an empty hex in on all six sides is never taken. Every
    placement within 1 of the lowest cost is returned, in a fixed order.
    """
    contacts = _contacts(layout)  # each empty hex beside the map: its edges shared with it
    anchors = {n for h in contacts for n in (h, *neighbours(h))} - layout.keys()
    options = [option for q, r in anchors for offsets in _turned(tile.shape)
               if (option := _placement(layout, contacts, q, r, offsets)) is not None]
    valid = (option for option in sorted(options) if not _closes_hole(layout, option[1]))
    first = next(valid, None)
    if first is None:
        return []
    best = first[0]
    return [first[1], *(hexes for _, hexes in takewhile(lambda o: o[0] <= best + 1, valid))]


def _placement(layout: dict[Hex, Tile | None], contacts: dict[Hex, int], q: int, r: int,
               offsets: tuple[Hex, ...]) -> tuple[int, tuple[Hex, ...]] | None:
    """The cost and hexes of a tile of ``offsets`` with its water hex at ``(q, r)``;
    ``None`` where it overlaps the map or does not touch it. (A loop, not generators: a
    map weighs some 10,000 placements.)"""
    cost = touching = 0
    hexes = []
    for dq, dr in offsets:
        h = (x, y) = (q + dq, r + dr)
        if h in layout:
            return None
        touching += contacts.get(h, 0)
        cost += x * x + x * y + y * y
        hexes.append(h)
    return (cost - 3 * touching, tuple(hexes)) if touching else None


def _contacts(layout: dict[Hex, Tile | None]) -> dict[Hex, int]:
    """Each empty hex beside ``layout``: how many of its six neighbours are on it."""
    contacts: dict[Hex, int] = {}
    for h in layout:
        for n in neighbours(h):
            if n not in layout:
                contacts[n] = contacts.get(n, 0) + 1
    return contacts


@cache
def _turned(shape: int) -> tuple[tuple[Hex, ...], ...]:
    """A tile of ``shape`` hexes with its water hex at ``(0, 0)``, in each of its six turns
    (:meth:`Tile.hexes`)."""
    probe = Tile(0, shape, 0, ())
    return tuple(probe.hexes((0, 0), turns) for turns in range(6))


def _closes_hole(layout: dict[Hex, Tile | None], hexes: tuple[Hex, ...]) -> bool:
    """Whether placing ``hexes`` leaves a single empty hex surrounded on all sides."""
    filled = set(hexes)
    for h in {n for x in hexes for n in neighbours(x)} - filled - layout.keys():
        if all(n in layout or n in filled for n in neighbours(h)):
            return True
    return False


def _gaps(hexes) -> list[Hex]:
    """The empty hexes enclosed by ``hexes`` (not reachable from far away through empty hexes)."""
    hexes = set(hexes)
    radius = max(distance(h, (0, 0)) for h in hexes) + 1
    area = {(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if distance((q, r), (0, 0)) <= radius}
    outside = [h for h in area if distance(h, (0, 0)) == radius]
    seen = set(outside)
    while outside:
        for n in neighbours(outside.pop()):
            if n in area and n not in hexes and n not in seen:
                seen.add(n)
                outside.append(n)
    return sorted(area - hexes - seen)
