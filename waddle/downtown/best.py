"""The best act of a block: the spread of penguins that scores most (for bots).

An action A or B can be any of thousands of spreads, so the bots do not try them one by
one: for each block (:func:`~waddle.downtown.legal.card_blocks`) the best spread is found
by dynamic programming over its places (every card's score but Consecutive's is a sum
over places; Consecutive's depends on which counts are present, carried along as a bit
mask), the fewest penguins spent from the supply breaking ties. The special actions' few
acts are tried one by one. :func:`options` scores every block of a seat's cards without
making the plays (the greedy bot makes the one it chooses with :func:`make`);
:func:`best_plays` makes the best few of a card (the search bot's tree).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from waddle.downtown.actions import Act, Add, Move, Penguins, Play
from waddle.downtown.board import CAPACITY
from waddle.downtown.legal import Acts, card_blocks
from waddle.downtown.state import RUNS, State

#: A spread as the optimiser makes it: ``(red, yellow)`` added to each target place.
Spread = tuple[tuple[int, int], ...]
#: A place's penguins as the optimiser reads them.
Cells = tuple[tuple[int, int], ...]
#: The per-place points of a card that scores nothing (a Copy with nothing to copy).
_ZERO = (0,) * 36


class Option(NamedTuple):
    """The best play of one block, not made yet: its ``points``; ``spent``, the penguins it
    takes from the supply (negative: it gives some back); the ``card`` (and ``copied``),
    the block's ``acts``, and the ``spread`` (A, B) or the ``act`` (the others)."""

    points: int
    spent: int
    card: int
    copied: int | None
    acts: Acts
    spread: Spread | None
    act: Act | None


class _Frame(NamedTuple):
    """What a block of A or B looks like to the optimiser: the ``targets`` and their
    ``cells`` (after emptying B's source), the ``budget``, whether it is ``exact`` (B),
    and the cells of the other places an "all" card and an "active" card count."""

    targets: tuple[int, ...]
    cells: Cells
    budget: tuple[int, int]
    exact: bool
    others_all: Cells
    others_hood: Cells


def options(state: State, seat: int, cards: Iterable[int] | None = None) -> list[Option]:
    """The best play of each block of ``seat``'s plays of ``cards`` (default: the cards it
    may play now), scored, in the blocks' order."""
    by_kind: dict[str, list[Acts]] = {}
    frames: dict[tuple[int | None, int | None], _Frame] = {}
    out = []
    for card in state.playable(seat) if cards is None else cards:
        for block in card_blocks(state, seat, card, by_kind):
            acts, effective = block.acts, state.effective(card, block.copied)
            if acts.group in ("add", "move"):
                key = (acts.hood, acts.source)
                frame = frames.get(key)
                if frame is None:
                    frame = frames[key] = _frame(state, seat, acts)
                points, spent, spread = _best_spread(state, effective, frame)
                out.append(Option(points, spent, card, block.copied, acts, spread, None))
            else:
                points, spent, act = _best_other(state, seat, effective, acts)
                out.append(Option(points, spent, card, block.copied, acts, None, act))
    return out


def make(state: State, option: Option) -> Play:
    """The play ``option`` stands for."""
    name, acts = state.name, option.acts
    act = option.act
    if option.spread is not None:
        board = state.layout
        targets = [p for p in board.hoods[acts.hood] if p != acts.source]
        penguins = tuple(Penguins(board.places[p], r, y) for p, (r, y) in zip(targets, option.spread)
                         if r or y)
        hood = board.hood_names[acts.hood]
        act = Add(hood, penguins) if acts.source is None else Move(board.places[acts.source], hood, penguins)
    return Play(name(option.card), None if option.copied is None else name(option.copied), act)


def best_plays(state: State, seat: int, card: int, width: int) -> list[Play]:
    """The ``width`` best plays of ``card`` by ``seat``: the most points, then the fewest
    penguins spent, then the blocks' order."""
    ranked = sorted(options(state, seat, [card]), key=lambda o: (-o.points, o.spent))
    return [make(state, o) for o in ranked[:width]]


def _frame(state: State, seat: int, acts: Acts) -> _Frame:
    board = state.layout
    hood, source = acts.hood, acts.source
    assert hood is not None
    red, yellow = state.red[:], state.yellow[:]
    if source is None:
        budget = (state.supply_red[seat], state.supply_yellow[seat])
    else:
        budget = (red[source], yellow[source])
        red[source] = yellow[source] = 0
    targets = tuple(p for p in board.hoods[hood] if p != source)
    cells = tuple(zip(red, yellow))
    return _Frame(targets, tuple(cells[p] for p in targets), budget, source is not None,
                  tuple(c for p, c in enumerate(cells) if p not in targets),
                  tuple(cells[p] for p in board.hoods[hood] if p not in targets))


def _best_spread(state: State, card: int | None, frame: _Frame) -> tuple[int, int, Spread]:
    """The best spread of a block of A or B for ``card``: ``(points, spent, spread)``."""
    if card is None:
        value, spread = _best_sum(_ZERO, frame.cells, *frame.budget, frame.exact)
        points = 0
    else:
        rule, table = state.deck.cards[card], state.deck.tables[card]
        others = frame.others_all if rule.scope == "all" else frame.others_hood
        if table is None:
            length, spread = _best_run(frame.cells, *frame.budget, frame.exact, _mask(others))
            points = rule.points * length
        else:
            value, spread = _best_sum(table, frame.cells, *frame.budget, frame.exact)
            points = value + _sum(table, others)
    return points, 0 if frame.exact else sum(r + y for r, y in spread), spread


def _best_other(state: State, seat: int, card: int | None, acts: Acts) -> tuple[int, int, Act | None]:
    """The best of a block of special acts (or of no action), tried one by one."""
    supply = state.supply_red[seat] + state.supply_yellow[seat]
    best: tuple[int, int, Act | None] | None = None
    for act in acts.acts:
        trial = state.copy()
        points = trial.score(card, trial.active(None if act is None else trial.perform(seat, act)))[0]
        spent = supply - trial.supply_red[seat] - trial.supply_yellow[seat]
        if best is None or (points, -spent) > (best[0], -best[1]):
            best = (points, spent, act)
    assert best is not None
    return best


@lru_cache(maxsize=65536)
def _sum(table: tuple[int, ...], cells: Cells) -> int:
    return sum(table[r * 6 + y] for r, y in cells)


@lru_cache(maxsize=4096)
def _mask(cells: Cells) -> int:
    """The counts present among ``cells``: bit ``c - 1`` for count ``c``."""
    mask = 0
    for r, y in cells:
        if r + y:
            mask |= 1 << (r + y - 1)
    return mask


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
def _best_sum(table: tuple[int, ...], cells: Cells, red: int, yellow: int,
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
def _best_run(cells: Cells, red: int, yellow: int, exact: bool, mask: int) -> tuple[int, Spread]:
    """Like :func:`_best_sum` for Consecutive: maximise the longest run of the counts of
    the cells and of the counts in ``mask``. Colours do not matter to it, so the spread
    puts red penguins first."""
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
