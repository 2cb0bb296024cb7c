"""An arena's standings: openskill ratings (Plackett–Luce over each game's ranking), win
rates with 95 % Wilson intervals, mean score and margin.

Ranks follow the game's own result: its winners first (a game that breaks ties, as
Waddle Downtown does, names one), then by score; equal places share a rank. A win shared
by ``k`` tied winners counts ``1/k`` to each. An entrant in several seats of one game
(the field's copies) is rated as that many players starting from its rating, and takes
the mean of their new ratings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from waddle.rating import FRESH, ranks, rate_game

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


class Finish(msgspec.Struct, frozen=True):
    """One finished game as the standings need it: the ``entrants`` by seat (indexes),
    each seat's ``scores`` and the ``winners`` (seat numbers)."""

    entrants: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Standing(msgspec.Struct, frozen=True):
    """One entrant's line of the table.

    ``games``: seats played (a field's copies count one each); ``wins``: win shares;
    ``win_rate`` and its 95 % Wilson interval ``low``..``high`` (fractions); ``mu``,
    ``sigma``: the openskill rating, ``ordinal``: ``mu - 3 sigma`` (the conservative one
    the table is sorted by); ``score``, ``margin``: means of the score and of the score
    less the best other seat's (points).
    """

    entrant: int
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mu: float
    sigma: float
    ordinal: float
    score: float
    margin: float


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` of ``trials`` (fractional successes
    allowed), as ``(low, high)`` fractions; ``(0.0, 1.0)`` with no trials.

    Source: E. B. Wilson, "Probable inference, the law of succession, and statistical
    inference", JASA 22 (1927).
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def win_shares(finish: Finish) -> list[float]:
    """Each seat's share of the win: ``1/k`` for each of ``k`` winners, else 0."""
    return [1 / len(finish.winners) if seat in finish.winners else 0.0
            for seat in range(len(finish.scores))]


def rate(finishes: Sequence[Finish], entrants: int) -> list[tuple[float, float]]:
    """Every entrant's openskill ``(mu, sigma)`` after ``finishes`` in order (Plackett–Luce,
    openskill's defaults: mu 25, sigma 25/3; :func:`waddle.rating.rate_game`)."""
    ratings = [FRESH] * entrants
    for finish in finishes:
        rated = rate_game([ratings[e] for e in finish.entrants], ranks(finish.scores, finish.winners))
        for e in set(finish.entrants):
            mine = [r for r, seat_entrant in zip(rated, finish.entrants) if seat_entrant == e]
            ratings[e] = (sum(mu for mu, _ in mine) / len(mine), sum(sigma for _, sigma in mine) / len(mine))
    return ratings


def head_to_head(finishes: Sequence[Finish], entrants: int) -> list[list[tuple[float, int]]]:
    """For every two entrants ``a``, ``b``: ``(points, meetings)``, where ``meetings`` counts
    the pairs of seats of ``a`` and ``b`` in the same game and ``points`` those where ``a``
    finished ahead (by :func:`ranks`), a shared place counting half. ``[a][a]`` is ``(0, 0)``."""
    table = [[(0.0, 0)] * entrants for _ in range(entrants)]
    for finish in finishes:
        places = ranks(finish.scores, finish.winners)
        for i, a in enumerate(finish.entrants):
            for j, b in enumerate(finish.entrants):
                if a != b:
                    points, meetings = table[a][b]
                    ahead = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                    table[a][b] = (points + ahead, meetings + 1)
    return table


def standings(finishes: Sequence[Finish], entrants: int) -> list[Standing]:
    """The table: one :class:`Standing` per entrant, best ordinal first."""
    rated = rate(finishes, entrants)
    seats: list[list[tuple[float, int, int]]] = [[] for _ in range(entrants)]
    for finish in finishes:
        shares = win_shares(finish)
        for seat, e in enumerate(finish.entrants):
            best_other = max(s for i, s in enumerate(finish.scores) if i != seat)
            seats[e].append((shares[seat], finish.scores[seat], finish.scores[seat] - best_other))
    table = []
    for e, played in enumerate(seats):
        n = len(played)
        wins = sum(share for share, _, _ in played)
        low, high = wilson(wins, n)
        mu, sigma = rated[e]
        table.append(Standing(e, n, wins, wins / n if n else 0.0, low, high, mu, sigma,
                              mu - 3 * sigma, _mean([s for _, s, _ in played]),
                              _mean([m for _, _, m in played])))
    return sorted(table, key=lambda s: (-s.ordinal, s.entrant))


def _mean(values: list[int]) -> float:
    return sum(values) / len(values) if values else 0.0
