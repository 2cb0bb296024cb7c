"""Precomputed lookup tables of a map, for the engine's hot path.

Ice hexes are numbered ``0 .. n-1`` in ``(q, r)`` order; a set of ice hexes is an
int bitset (bit ``i`` for ice hex ``i``). Built once per map and shared by every
game on it.
"""

from __future__ import annotations

from waddle.hex.actions import SCOUT, Action, Place
from waddle.hex.hexgrid import Hex, neighbours
from waddle.hex.maps import Map


def _next_rounds(shores: list[int]) -> tuple[int, ...]:
    """Per round position, the next position whose shore is not all filled by then
    (-1: none, the half ends)."""
    out, filled = [], 0
    for pos, shore in enumerate(shores):
        filled |= shore
        out.append(next((p for p in range(pos + 1, len(shores)) if shores[p] & ~filled), -1))
    return tuple(out)


class Tables:
    """Bitset tables of one map (see the module docstring).

    Attributes:
        ice: the ice hexes by index.
        index: ice hex -> index.
        bits: ice hex -> its bit, ``1 << index``.
        ice_neighbours: per ice index, the bitset of its ice neighbours.
        shore: per water hex, the bitset of its ice neighbours.
        orders: the numbered water hexes that have ice neighbours, lowest number
            first (``orders[0]``) and highest first (``orders[1]``, the second half of
            a mirror match).
        next_rounds: per half (as ``orders``), per position ``pos`` in its order, the
            position of the round after the round at ``pos`` (-1: none, the half ends).
            A round fills exactly the empty ice next to its active hex (RULES.md "Turns
            and rounds"), so after the round at ``pos`` the ice next to the hexes up to
            ``pos`` is filled and nothing else: the next round depends on ``pos`` alone.
        pools: per fishing pool, ``(strength mask, fish highest first)``: the mask is
            the pool's shore bitset in bits ``0 .. n-1`` and again in bits ``n .. 2n-1``,
            to count a player's doubles twice in one popcount (``scoring.weighted``).
        pool_hexes: per fishing pool, its water hexes in ``(q, r)`` order.
        places: per ice index, ``(Place single, Place double)``.
        legal: the cache of :meth:`legal_actions`, by its arguments.
        split: the cache of :meth:`bits_of`, by its argument.
    """

    __slots__ = ("ice", "index", "ice_neighbours", "shore", "orders", "next_rounds", "pools", "places",
                 "legal", "pool_hexes", "bits", "split")

    def __init__(self, map: Map) -> None:
        self.ice: tuple[Hex, ...] = tuple(sorted(map.ice))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.ice)}
        self.bits: dict[Hex, int] = {h: 1 << i for i, h in enumerate(self.ice)}
        self.ice_neighbours = tuple(self.mask(neighbours(h)) for h in self.ice)
        self.shore: dict[Hex, int] = {h: self.mask(neighbours(h)) for h in map.water}
        up = tuple(h for h in map.numbered if self.shore[h])
        self.orders = (up, up[::-1])
        self.next_rounds = tuple(_next_rounds([self.shore[h] for h in order]) for order in self.orders)
        n = len(self.ice)
        self.pools = tuple((self.mask(p.shore) * (1 + (1 << n)), p.fish) for p in map.pools)
        self.pool_hexes = tuple(tuple(sorted(p.hexes)) for p in map.pools)
        self.places = tuple((Place(h, False), Place(h, True)) for h in self.ice)
        self.legal: dict[tuple[int, bool, bool], tuple[Action, ...]] = {}
        self.split: dict[int, tuple[int, ...]] = {}

    def mask(self, hexes) -> int:
        """The bitset of the ice hexes among ``hexes`` (others are ignored)."""
        bits = 0
        for h in hexes:
            i = self.index.get(h)
            if i is not None:
                bits |= 1 << i
        return bits

    def hexes(self, bits: int) -> list[Hex]:
        """The ice hexes of bitset ``bits``, in index order."""
        out = []
        while bits:
            low = bits & -bits
            out.append(self.ice[low.bit_length() - 1])
            bits ^= low
        return out

    def bits_of(self, bits: int) -> tuple[int, ...]:
        """The one-bit parts of bitset ``bits``, lowest first (cached)."""
        parts = self.split.get(bits)
        if parts is None:
            found, rest = [], bits
            while rest:
                found.append(rest & -rest)
                rest &= rest - 1
            parts = self.split[bits] = tuple(found)
        return parts

    def legal_actions(self, empty: int, doubles: bool, scout: bool) -> tuple[Action, ...]:
        """The legal actions given the empty shore bitset of the active hex (cached)."""
        key = (empty, doubles, scout)
        actions = self.legal.get(key)
        if actions is None:
            found: list[Action] = []
            for h in self.hexes(empty):
                single, double = self.places[self.index[h]]
                found.append(single)
                if doubles:
                    found.append(double)
            if scout:
                found.append(SCOUT)
            actions = self.legal[key] = tuple(found)
        return actions
