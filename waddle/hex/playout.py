"""The search's own playouts and final scoring: the engine's scoring
(:func:`waddle.hex.scoring.totals`) in less time, and random playouts on scratch state
that read their random numbers by decision, for common random numbers across the
search's actions.

A :class:`Playouts` serves one map and player count. Its scoring remembers each fishing
pool's awards by the players' strengths there (a pool sees few patterns of strengths).
Its playouts know the rounds in advance: a round ends when every ice hex next to its
active hex is filled, and only those hexes are filled in it (RULES.md "Turns and
rounds"), so the next active hex depends on the active one alone
(:attr:`waddle.hex.tables.Tables.next_rounds`).
"""

from __future__ import annotations

from collections.abc import Sequence

from waddle.hex.game import DOUBLES, Game, tables_of
from waddle.hex.scoring import points_by_size, pool_awards, waddle_cap
from waddle.hex.tables import Tables

#: A decision's random number ``u`` in ``[0, 1)`` draws its action by its first bits;
#: its further bits (``u * scale % 1``) serve as the independent draws a scout or a
#: double may need (:meth:`Playouts.run`).
SCOUT_SCALE, REDRAW_SCALE, DOUBLE_SCALE = 2.0 ** 12, 2.0 ** 24, 2.0 ** 36


class Playouts:
    """Fast playouts and scoring on one map for ``players`` players (see the module
    docstring); build one per map and reuse it (its award tables grow with use).

    Args:
        tables: the map's tables (:func:`waddle.hex.game.tables_of`).
        players: the number of players (2 to 5).
        mirror_match: whether games on it are mirror matches (two halves).
    """

    __slots__ = ("tables", "players", "mirror_match", "points", "pools", "awards", "shores",
                 "next_rounds")

    def __init__(self, tables: Tables, players: int, mirror_match: bool) -> None:
        self.tables = tables
        self.players = players
        self.mirror_match = mirror_match
        self.points = points_by_size(waddle_cap(players), len(tables.ice))
        self.pools = tuple((mask, fish) for mask, fish in tables.pools if fish)
        self.awards: tuple[dict[tuple[int, ...], tuple[tuple[int, int], ...]], ...] = \
            tuple({} for _ in self.pools)
        self.shores = tuple(tuple(tables.shore[h] for h in order) for order in tables.orders)
        self.next_rounds = tables.next_rounds

    def fits(self, game: Game) -> bool:
        """Whether these playouts serve ``game`` (its map, player count and mirror option)."""
        return (tables_of(game.map) is self.tables and len(game.players) == self.players
                and game.mirror_match == self.mirror_match)

    def totals(self, pieces: Sequence[int], doubles: int) -> list[int]:
        """Each player's total VP on one board (ice bitsets per seat, and the doubles),
        in seat order: :func:`waddle.hex.scoring.totals`."""
        out = self._waddles(pieces, doubles)
        shift = len(self.tables.ice)
        tokens = [p | (p & doubles) << shift for p in pieces]
        for (mask, fish), awards in zip(self.pools, self.awards):
            strengths = tuple([(w & mask).bit_count() for w in tokens])
            won = awards.get(strengths)
            if won is None:
                won = awards[strengths] = tuple(
                    (seat, sum(values)) for seat, values in enumerate(pool_awards(strengths, fish)) if values)
            for seat, vp in won:
                out[seat] += vp
        return out

    def _waddles(self, pieces: Sequence[int], doubles: int) -> list[int]:
        """Each player's waddle VP: the flood fill of :func:`waddle.hex.scoring.groups`,
        inlined (a playout's final scoring is a third of its time)."""
        neighbours, points = self.tables.ice_neighbours, self.points
        out = []
        for bits in pieces:
            vp = 0
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
                vp += points[group.bit_count() + (group & doubles).bit_count()]
            out.append(vp)
        return out

    def live_totals(self, game: Game) -> list[int]:
        """Each player's total VP if ``game`` ended now, in seat order: :meth:`Game.live_totals`."""
        state = game.snapshot()
        return self._sum(self.totals(state.pieces, state.doubles), state.earlier)

    def _sum(self, now: list[int], earlier: list[tuple[list[int], int]]) -> list[int]:
        for pieces, doubles in earlier:
            now = [a + b for a, b in zip(now, self.totals(pieces, doubles))]
        return now

    def decisions(self, game: Game) -> int:
        """A bound on the decisions (places and scouts) left in ``game``: every placement
        left, and a scout by every player in every round left (a player scouts at most
        once a round: RULES.md "Turns and rounds")."""
        state = game.snapshot()
        if state.pos < 0:
            return 0
        rounds = len(self.shores[state.half]) - state.pos
        placements = len(self.tables.ice) - state.occupied.bit_count()
        if self.mirror_match and state.half == 0:
            rounds += len(self.shores[1])
            placements += len(self.tables.ice)
        return placements + rounds * self.players

    def run(self, game: Game, draws: Sequence[float], first: int = 0, scout_damping: float = 0.0,
            double_damping: float = 0.0, touching: bool = False) -> list[int]:
        """Play ``game`` (unchanged; it fits these playouts) to the end on scratch state and
        return each player's final total (VP, seat order).

        The random numbers come from ``draws``: decision ``d`` of the playout (``d = 0, 1,
        ...``: places and scouts) reads ``u = draws[first + d]`` (in ``[0, 1)``), so
        ``draws`` must hold :meth:`decisions` numbers from ``first``. Two playouts that
        start ``k`` decisions apart read the same number for the same decision of the game
        when the second one's ``first`` is ``k`` more: common random numbers. The action is
        drawn uniformly by ``u`` from :meth:`Game.legal_actions`, less the scout in the last
        round (:func:`waddle.hex.pruning.searched_actions`); a drawn scout is redrawn
        among the places (by ``u * REDRAW_SCALE % 1``) when ``u * SCOUT_SCALE % 1`` is
        below ``scout_damping``; a drawn double becomes the single on its hex when ``u *
        DOUBLE_SCALE % 1`` is below ``double_damping``, and always when ``touching`` and
        the hex is next to none of the player's own tokens.
        """
        t = self.tables
        pieces, doubles, occupied, left, tracks, at, scouted, pos, half, earlier = game.snapshot()
        split, neighbours = t.split, t.ice_neighbours
        shores, next_rounds = self.shores[half], self.next_rounds[half]
        shore = shores[pos] if pos >= 0 else 0
        more = self.mirror_match and half == 0         # a half follows this one
        last = pos >= 0 and next_rounds[pos] < 0 and not more
        k = first - 1
        while pos >= 0:
            k += 1
            u = draws[k]
            track = tracks[at]
            player = track[0]
            empty = shore & ~occupied
            bits = split.get(empty) or t.bits_of(empty)
            step = 2 if left[player] else 1
            places = len(bits) * step
            i = int(u * (places + (len(track) > 1 and not last)))
            if i == places:
                if u * SCOUT_SCALE % 1.0 >= scout_damping:
                    tracks[1 - at].append(track.pop(0))
                    scouted = True
                    continue
                i = int(u * REDRAW_SCALE % 1.0 * places)
            bit = bits[i // step]
            mine = pieces[player]
            if i % step and u * DOUBLE_SCALE % 1.0 >= double_damping and (
                    not touching or neighbours[bit.bit_length() - 1] & mine):
                doubles |= bit
                left[player] -= 1
            pieces[player] = mine | bit
            occupied |= bit
            track.append(track.pop(0))
            if shore & ~occupied:
                continue
            if scouted:
                tracks[1 - at] += track
                tracks[at] = []
                at, scouted = 1 - at, False
            pos = next_rounds[pos]
            if pos >= 0:
                shore = shores[pos]
                last = next_rounds[pos] < 0 and not more
            elif more:
                n = self.players
                earlier.append((pieces, doubles))
                pieces, doubles, occupied, left = [0] * n, 0, 0, [DOUBLES] * n
                tracks, at, half, pos = [list(reversed(range(n))), []], 0, 1, 0
                shores, next_rounds = self.shores[1], self.next_rounds[1]
                shore = shores[0]
                more, last = False, next_rounds[0] < 0
        return self._sum(self.totals(pieces, doubles), earlier)
