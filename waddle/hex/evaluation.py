"""A fitted evaluation of an unfinished position: each player's expected final total.

The rounds' hexes are known in advance (RULES.md "Turns and rounds"): every empty ice
hex is filled before the game ends. So a player's final total is the live score
(:func:`waddle.hex.scoring.totals`) plus what the rest of the game adds, and that gain is
estimated from a few features of the player's position (:func:`features`), linear in
them and in them times the share of the ice still empty, with weights fitted by least
squares on positions of search games against their final totals
(``benchmarks/hex_evaluation.py``; the fit's quality is in docs/benchmarks.md).
"""

from __future__ import annotations

from waddle.hex.game import Snapshot
from waddle.hex.playout import Playouts
from waddle.hex.scoring import waddle_cap

#: Fitted weights over :func:`terms` (``benchmarks/hex_evaluation.py fit``).
WEIGHTS: tuple[float, ...] = (
    3.808, -0.1318, -0.3042, -0.239, 0.4489, 5.285, -2.428, 0.0609, 2.293,
    27.99, 0.266, -0.6159, 1.045, -0.4409, -1.587, -0.1726, 0.08198, 0.6499)

#: The per-player features of :func:`features`, in order.
FEATURES = ("one", "waddles", "open pools", "frontier", "growing", "doubles", "order", "lead",
            "scouted")


def features(playouts: Playouts, state: Snapshot) -> tuple[list[int], list[list[float]]]:
    """The live totals (VP, seat order) and each seat's features (:data:`FEATURES`) of the
    current half of position ``state`` on ``playouts``' map.

    Per seat: ``one`` (1); ``waddles``, the live waddle VP; ``open pools``, the live pool VP
    of pools whose shore still has empty ice; ``frontier``, the empty ice hexes next to the
    seat's tokens; ``growing``, the sizes (doubles counting 2, capped) of the seat's groups
    with an empty ice neighbour, summed; ``doubles``, the doubles left; ``order``, the
    seat's place among those to act, front of the active track 0, the last 1; ``lead``,
    over the pools with empty shore ice, the pool's best fish times the seat's strength
    minus the best other strength there, halved and clipped to ``[-1, 1]``; ``scouted``, 1
    if the seat is on the inactive track (it scouted this round: it places no more in it
    and opens the next), else 0.
    """
    t = playouts.tables
    pieces, doubles = state.pieces, state.doubles
    empty = ((1 << len(t.ice)) - 1) & ~state.occupied
    cap = waddle_cap(playouts.players)
    rows = [_growth(playouts, bits, doubles, empty, cap) for bits in pieces]
    live = [row[0] for row in rows]
    open_vp = [0] * len(pieces)
    lead = [0.0] * len(pieces)
    shift = len(t.ice)
    tokens = [p | (p & doubles) << shift for p in pieces]
    for i, (mask, fish) in enumerate(playouts.pools):
        strengths = tuple([(w & mask).bit_count() for w in tokens])
        is_open = mask & empty
        for seat, vp in playouts.awarded(i, strengths):
            live[seat] += vp
            if is_open:
                open_vp[seat] += vp
        if is_open:
            best, second = sorted(strengths, reverse=True)[:2]
            for seat, mine in enumerate(strengths):
                margin = (mine - (second if mine == best else best)) / 2
                lead[seat] += fish[0] * (1.0 if margin > 1 else -1.0 if margin < -1 else margin)
    live = playouts._sum(live, state.earlier)
    order = state.tracks[state.at] + state.tracks[1 - state.at]
    last = max(len(order) - 1, 1)
    waiting = state.tracks[1 - state.at]
    out = []
    for seat, (waddle_vp, frontier, growing) in enumerate(rows):
        place = order.index(seat) / last if seat in order else 1.0
        out.append([1.0, waddle_vp, open_vp[seat], frontier, growing, state.doubles_left[seat],
                    place, lead[seat], 1.0 if seat in waiting else 0.0])
    return live, out


def _growth(playouts: Playouts, bits: int, doubles: int, empty: int, cap: int
            ) -> tuple[int, int, int]:
    """One seat's waddle VP, frontier and growing size (see :func:`features`)."""
    neighbours, points = playouts.tables.ice_neighbours, playouts.points
    vp = growing = 0
    frontier_all = 0
    while bits:
        group = bits & -bits
        bits ^= group
        around = neighbours[group.bit_length() - 1]
        frontier = around & bits
        while frontier:
            group |= frontier
            bits ^= frontier
            grow = 0
            while frontier:
                low = frontier & -frontier
                grow |= neighbours[low.bit_length() - 1]
                frontier ^= low
            around |= grow
            frontier = grow & bits
        size = group.bit_count() + (group & doubles).bit_count()
        vp += points[size]
        if around & empty:
            growing += min(size, cap)
            frontier_all |= around & empty
    return vp, frontier_all.bit_count(), growing


def terms(seat_features: list[float], share: float) -> list[float]:
    """The regression terms of one seat: its features, then its features times ``share``
    (the share of the ice still empty, in ``[0, 1]``)."""
    return seat_features + [f * share for f in seat_features]


def evaluate(playouts: Playouts, state: Snapshot, weights: tuple[float, ...] | None = None) -> list[float]:
    """Each seat's expected final total (VP, seat order) of position ``state``: the live
    total plus the fitted gain (``weights`` over :func:`terms`; default :data:`WEIGHTS`)."""
    weights = WEIGHTS if weights is None else weights
    live, rows = features(playouts, state)
    share = (len(playouts.tables.ice) - state.occupied.bit_count()) / len(playouts.tables.ice)
    n = len(FEATURES)
    combined = [a + share * b for a, b in zip(weights[:n], weights[n:])]
    return [total + sum([w * x for w, x in zip(combined, row)]) for total, row in zip(live, rows)]
