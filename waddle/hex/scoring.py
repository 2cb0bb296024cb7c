"""Scoring: waddles and fishing pools (RULES.md "Scoring").

Works on the bitsets of :mod:`waddle.hex.tables`: ``pieces[p]`` is the set of ice hexes
holding player ``p``'s tokens and ``doubles`` the set holding a double (counting 2).
The same computation gives the live score and the final score.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import msgspec

from waddle.hex.hexgrid import Hex
from waddle.hex.tables import Tables
from waddle.jsonform import json_form


def waddle_cap(players: int) -> int:
    """Penguins at which a waddle stops growing in value: 10 with 2 players, else 8."""
    return 10 if players == 2 else 8


def waddle_points(size: int, cap: int) -> int:
    """VP of a waddle of ``size`` penguins: ``T(min(size, cap))``, ``T(n) = n(n+1)/2``."""
    n = min(size, cap)
    return n * (n + 1) // 2


class Score(msgspec.Struct, frozen=True):
    """One player's points: ``waddles`` and ``pools`` (VP); ``total`` is their sum (set
    from them, whatever is given)."""

    waddles: int = 0
    pools: int = 0
    total: int = 0

    def __post_init__(self) -> None:
        msgspec.structs.force_setattr(self, "total", self.waddles + self.pools)

    def __add__(self, other: Score) -> Score:
        return Score(self.waddles + other.waddles, self.pools + other.pools)

    def to_dict(self) -> dict[str, int]:
        """``{"waddles": int, "pools": int, "total": int}``."""
        return json_form(self)


class Waddle(msgspec.Struct, frozen=True):
    """A maximal group of one ``player``'s tokens: its ``hexes``, ``size`` (doubles count 2) and ``points``."""

    player: str
    hexes: tuple[Hex, ...]
    size: int
    points: int


class PoolResult(msgspec.Struct, frozen=True):
    """How one fishing pool scored.

    ``strengths`` maps each player to the penguins next to the pool (doubles count 2);
    ``won`` maps each player to the fish values they scored from it.
    """

    hexes: tuple[Hex, ...]
    fish: tuple[int, ...]
    strengths: dict[str, int]
    won: dict[str, tuple[int, ...]]


class ScoreSheet(msgspec.Struct, frozen=True):
    """The score of one board (one half): per player :class:`Score` and the breakdown."""

    scores: dict[str, Score]
    waddles: tuple[Waddle, ...] = ()
    pools: tuple[PoolResult, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"scores": {player: score}, "waddles": [...], "pools": [...]}``."""
        return json_form(self)


def groups(tables: Tables, bits: int, doubles: int) -> Iterator[tuple[int, int]]:
    """Yield ``(group bitset, size)`` for each connected group (a waddle) in ice bitset
    ``bits``; ``size`` counts the hexes of ``doubles`` twice."""
    neighbours = tables.ice_neighbours
    while bits:
        group = bits & -bits
        bits ^= group
        frontier = neighbours[group.bit_length() - 1] & bits
        while frontier:
            group |= frontier
            bits ^= frontier
            grow = 0
            while frontier:
                low = frontier & -frontier
                grow |= neighbours[low.bit_length() - 1]
                frontier ^= low
            frontier = grow & bits
        yield group, group.bit_count() + (group & doubles).bit_count()


def weighted(tables: Tables, pieces: Sequence[int], doubles: int) -> list[int]:
    """Each player's tokens as one bitset that counts a double twice: every token in
    bits ``0 .. n-1`` (``n`` ice hexes), the doubles again in bits ``n .. 2n-1``."""
    n = len(tables.ice)
    return [p | (p & doubles) << n for p in pieces]


def _awards(mask: int, fish: tuple[int, ...], tokens: Sequence[int]
            ) -> tuple[list[int], list[tuple[int, ...]]]:
    """Strength of each player at one pool (its ``mask`` from ``Tables.pools``; the
    players' :func:`weighted` ``tokens``) and the fish each wins (RULES.md pools)."""
    strengths = [(w & mask).bit_count() for w in tokens]
    return strengths, pool_awards(strengths, fish)


def pool_awards(strengths: Sequence[int], fish: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The fish values each player wins at one pool (RULES.md "Scoring", pools), given
    every player's ``strengths`` there (penguins, doubles counting 2; seat order) and the
    pool's ``fish``, highest first."""
    if len(strengths) == 2:
        best = max(strengths)
        return [fish if best and s == best else () for s in strengths]
    ranks = sorted({s for s in strengths if s}, reverse=True)
    return [(fish[ranks.index(s)],) if s and ranks.index(s) < len(fish) else () for s in strengths]


@cache
def points_by_size(cap: int, ice: int) -> tuple[int, ...]:
    """``waddle_points(size, cap)`` for every size a map with ``ice`` ice hexes allows."""
    return tuple(waddle_points(size, cap) for size in range(2 * ice + 1))


def totals(tables: Tables, pieces: Sequence[int], doubles: int) -> list[int]:
    """Each player's total VP on this board, in seat order (the fast path for bots)."""
    points = points_by_size(waddle_cap(len(pieces)), len(tables.ice))
    out = [sum(points[size] for _, size in groups(tables, p, doubles)) for p in pieces]
    tokens = weighted(tables, pieces, doubles)
    for mask, fish in tables.pools:
        if fish:
            for i, won in enumerate(_awards(mask, fish, tokens)[1]):
                out[i] += sum(won)
    return out


def score_sheet(tables: Tables, players: Sequence[str], pieces: Sequence[int], doubles: int
                ) -> ScoreSheet:
    """The full :class:`ScoreSheet` of a board: scores, every waddle, every pool."""
    cap = waddle_cap(len(players))
    waddles, pools = [], []
    waddle_vp, pool_vp = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for player, bits in zip(players, pieces):
        for group, size in groups(tables, bits, doubles):
            points = waddle_points(size, cap)
            waddles.append(Waddle(player, tuple(tables.hexes(group)), size, points))
            waddle_vp[player] += points
    tokens = weighted(tables, pieces, doubles)
    for pool, (mask, fish) in zip(tables.pool_hexes, tables.pools):
        strengths, won = _awards(mask, fish, tokens)
        for player, values in zip(players, won):
            pool_vp[player] += sum(values)
        pools.append(PoolResult(pool, fish, dict(zip(players, strengths)), dict(zip(players, won))))
    scores = {p: Score(waddle_vp[p], pool_vp[p]) for p in players}
    return ScoreSheet(scores, tuple(waddles), tuple(pools))
