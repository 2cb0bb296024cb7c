"""Which entrants sit where in each game of an arena, reproducible from a seed.

Two schedules (docs/arena.md):

- :func:`round_robin`: every table of ``players`` entrants out of ``k`` (every entrant
  meets every other), each table's seating rotated through every seat so nobody opens
  more often; the tables come in a seeded order, a new shuffle each cycle.
- :func:`one_against_field`: one candidate against ``players - 1`` copies of a baseline
  (the field), the candidate's seat rotated; several candidates take turns.

Seat 0 opens (the host seats entrants in that order: ``seat_order="seated"``). The
rotations of one table share a game seed (the same map and shuffles with every entrant
in every seat, as duplicate bridge deals the same hands), so the seating, not the deal,
is what differs between them.
"""

from __future__ import annotations

import itertools
import math
import random

import msgspec


class Seating(msgspec.Struct, frozen=True):
    """One game of the schedule: its ``index`` (from 0), its ``seed`` (the host's: the map,
    the shuffles, the bots' seeds) and ``seats``: the entrant (an index into the arena's
    entrants) in each seat, in opening turn order."""

    index: int
    seed: int
    seats: tuple[int, ...]


def cycle_length(entrants: int, players: int) -> int:
    """Games in one full round robin cycle: every table of ``players`` out of ``entrants``,
    once in each rotation (``math.comb(entrants, players) * players``)."""
    return math.comb(entrants, players) * players


def round_robin(entrants: int, players: int, games: int, seed: int) -> list[Seating]:
    """``games`` games of a round robin among ``entrants`` entrants at ``players``-seat tables.

    Within each cycle (:func:`cycle_length` games) every entrant plays the same number of
    games, and in each seat equally often; a shorter run is a prefix of a cycle: each
    rotation of every table before the next rotation, so the games stay near balanced.

    Raises:
        ValueError: fewer entrants than seats, or fewer than one game.
    """
    if entrants < players:
        raise ValueError(f"a round robin at {players}-player tables needs at least {players} "
                         f"entrants, not {entrants} (give one twice, or use --players {max(entrants, 2)})")
    _check_games(games)
    rng = random.Random(f"waddle arena {seed}")
    games_so_far: list[tuple[int, tuple[int, ...]]] = []
    while len(games_so_far) < games:
        tables = [(rng.randrange(2**31), rng.sample(table, players))
                  for table in itertools.combinations(range(entrants), players)]
        rng.shuffle(tables)
        for turn in range(players):
            games_so_far += [(deal, tuple(table[(s + turn) % players] for s in range(players)))
                             for deal, table in tables]
    return [Seating(index, deal, seats) for index, (deal, seats) in enumerate(games_so_far[:games])]


def one_against_field(candidates: int, players: int, games: int, seed: int) -> list[Seating]:
    """``games`` games of each of ``candidates`` candidates (entrants ``0 .. candidates - 1``)
    against ``players - 1`` copies of the field (entrant ``candidates``).

    Game ``g``: candidate ``g % candidates`` in seat ``(g // candidates) % players``, the
    field in the others; over ``candidates * players`` games every candidate sits in
    every seat once, all on one deal (seed).

    Raises:
        ValueError: no candidate, or fewer than one game.
    """
    if candidates < 1:
        raise ValueError("one against the field needs a candidate")
    _check_games(games)
    rng = random.Random(f"waddle arena field {seed}")
    deals: list[int] = []
    seatings = []
    for g in range(games):
        block, seat = divmod(g // candidates, players)
        while len(deals) <= block:
            deals.append(rng.randrange(2**31))
        seats = tuple(g % candidates if s == seat else candidates for s in range(players))
        seatings.append(Seating(g, deals[block], seats))
    return seatings


def _check_games(games: int) -> None:
    if games < 1:
        raise ValueError(f"an arena plays at least one game, not {games}")
