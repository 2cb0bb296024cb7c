"""The best act of a block: the spread of penguins that scores most (for bots).

An action A or B can be any of thousands of spreads, so the bots do not try them one by
one: :func:`best_act` finds the best of a block by dynamic programming over its places
(the score of every card but Consecutive is a sum over places; Consecutive depends on
which counts are present, carried along as a bit mask). Among the spreads that score most
it takes one that spends the fewest penguins from the supply. The special actions' few
acts are tried one by one. :func:`candidates` is the best play of every block of a seat:
what the greedy bot chooses from and the search bot searches over.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from waddle.downtown.actions import Act, Add, Move, Penguins, Play
from waddle.downtown.board import CAPACITY
from waddle.downtown.legal import Acts, Block, card_blocks
from waddle.downtown.state import RUNS, State


class Candidate(NamedTuple):
    """A play and what it scores now: ``points``, and the penguins it takes from the supply."""

    points: int
    spent: int
    play: Play


#: A spread as the optimiser makes it: ``(red, yellow)`` added to each target place.
Spread = tuple[tuple[int, int], ...]
#: The per-place points of a card that scores nothing (a Copy with nothing to copy).
_ZERO = (0,) * 36


def candidates(state: State, seat: int, cards: Iterable[int] | None = None) -> list[Candidate]:
    """The best play of each block of ``seat``'s plays of ``cards`` (default: the cards it
    may play now; see :func:`~waddle.downtown.legal.card_blocks`): ``(points, spent, play)``,
    ``spent`` being the penguins it takes from the supply (negative: it gives some back)."""
    name = state.name
    by_kind: dict[str, list[Acts]] = {}
    out = []
    for card in state.playable(seat) if cards is None else cards:
        for block in card_blocks(state, seat, card, by_kind):
            points, spent, act = best_act(state, seat, block)
            copied = None if block.copied is None else name(block.copied)
            out.append(Candidate(points, spent, Play(name(card), copied, act)))
    return out


def best_act(state: State, seat: int, block: Block) -> tuple[int, int, Act | None]:
    """The act of ``block`` that scores most for its card, the fewest penguins spent from
    the supply breaking ties, then the first: ``(points, spent, act)``."""
    card = state.effective(block.card, block.copied)
    if block.acts.group in ("add", "move"):
        return _best_spread(state, seat, card, block)
    supply = state.supply_red[seat] + state.supply_yellow[seat]
    best: tuple[int, int, Act | None] | None = None
    for act in block.acts.acts:
        trial = state.copy()
        points = trial.score(card, None if act is None else trial._act(seat, act))[0]
        spent = supply - trial.supply_red[seat] - trial.supply_yellow[seat]
        if best is None or (points, -spent) > (best[0], -best[1]):
            best = (points, spent, act)
    assert best is not None
    return best


def _best_spread(state: State, seat: int, card: int | None, block: Block) -> tuple[int, int, Act]:
    board = state.layout
    hood, source = block.acts.hood, block.acts.source
    assert hood is not None
    red, yellow = state.red[:], state.yellow[:]
    if source is None:
        targets = board.hoods[hood]
        budget = (state.supply_red[seat], state.supply_yellow[seat])
    else:
        targets = tuple(p for p in board.hoods[hood] if p != source)
        budget = (red[source], yellow[source])
        red[source] = yellow[source] = 0
    exact = source is not None
    cells = tuple((red[p], yellow[p]) for p in targets)
    rule = None if card is None else state.deck.cards[card]
    table = _ZERO if card is None else state.deck.tables[card]
    others: list[int] = []
    if rule is not None:
        counted = range(len(red)) if rule.scope == "all" else board.hoods[hood]
        others = [p for p in counted if p not in targets]
    if table is None:                                   # Consecutive
        mask = 0
        for p in others:
            if red[p] + yellow[p]:
                mask |= 1 << (red[p] + yellow[p] - 1)
        length, spread = _best_run(cells, *budget, exact, mask)
        points = rule.points * length
    else:
        value, spread = _best_sum(table, cells, *budget, exact)
        points = value + sum(table[red[p] * 6 + yellow[p]] for p in others)
    names = board.places
    penguins = tuple(Penguins(names[p], r, y) for p, (r, y) in zip(targets, spread) if r or y)
    if exact:
        return points, 0, Move(names[source], board.hood_names[hood], penguins)
    return points, sum(r + y for r, y in spread), Add(board.hood_names[hood], penguins)


@lru_cache(maxsize=65536)
def _options(table: tuple[int, ...], r0: int, y0: int, red: int, yellow: int,
             exact: bool) -> tuple[tuple[int, int, int], ...]:
    """The ``(red, yellow, points)`` worth trying on a place holding ``r0`` and ``y0``
    within the budget. For a spread of at most the budget, none that another of the same
    points (and as empty or not) undercuts in both colours."""
    room = CAPACITY - r0 - y0
    options = [(r, y, table[(r0 + r) * 6 + y0 + y])
               for r in range(min(room, red) + 1) for y in range(min(room - r, yellow) + 1)]
    if exact:
        return tuple(options)
    return tuple(o for o in options if not any(
        p is not o and p[2] == o[2] and (p[0] + p[1] > 0) == (o[0] + o[1] > 0)
        and p[0] <= o[0] and p[1] <= o[1] for p in options))


@lru_cache(maxsize=65536)
def _best_sum(table: tuple[int, ...], cells: tuple[tuple[int, int], ...], red: int, yellow: int,
              exact: bool) -> tuple[int, Spread]:
    """The spread onto ``cells`` (each ``(red, yellow)`` now) of exactly (``exact``) or at
    most ``red`` and ``yellow`` penguins, at least one, that maximises the sum of
    ``table`` (points by ``red * 6 + yellow``) over the cells, then spends the fewest."""
    states: dict[tuple[int, int, bool], tuple[int, Spread]] = {(0, 0, False): (0, ())}
    for r0, y0 in cells:
        options = _options(table, r0, y0, red, yellow, exact)
        new: dict[tuple[int, int, bool], tuple[int, Spread]] = {}
        for (used_r, used_y, some), (total, spread) in states.items():
            for r, y, points in options:
                if used_r + r > red or used_y + y > yellow:
                    continue
                key = (used_r + r, used_y + y, some or r + y > 0)
                score = total + points
                old = new.get(key)
                if old is None or score > old[0]:
                    new[key] = (score, spread + ((r, y),))
        states = new
    best = max((((total, -used_r - used_y), spread) for (used_r, used_y, some), (total, spread)
                in states.items() if ((used_r, used_y) == (red, yellow) if exact else some)),
               key=lambda item: item[0])
    return best[0][0], best[1]


@lru_cache(maxsize=65536)
def _best_run(cells: tuple[tuple[int, int], ...], red: int, yellow: int, exact: bool,
              mask: int) -> tuple[int, Spread]:
    """Like :func:`_best_sum` for Consecutive: maximise the longest run of the counts of
    the cells and of the counts in ``mask`` (bit ``c - 1`` for count ``c``). Colours do
    not matter to it, so the spread puts red penguins first."""
    budget = red + yellow
    states: dict[tuple[int, bool, int], tuple[int, ...]] = {(0, False, mask): ()}
    for r0, y0 in cells:
        now = r0 + y0
        new: dict[tuple[int, bool, int], tuple[int, ...]] = {}
        for (used, some, seen), adds in states.items():
            for k in range(min(CAPACITY - now, budget - used) + 1):
                key = (used + k, some or k > 0, seen | (1 << (now + k - 1)) if now + k else seen)
                new.setdefault(key, adds + (k,))
        states = new
    (length, _), adds = max((((RUNS[seen][0], -used), adds) for (used, some, seen), adds
                             in states.items() if (used == budget if exact else some)),
                            key=lambda item: item[0])
    spread = []
    for k in adds:
        r = min(k, red)
        spread.append((r, k - r))
        red -= r
    return length, tuple(spread)
