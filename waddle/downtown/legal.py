"""Legal actions, enumerated lazily (an action A can be any of thousands of spreads).

:func:`legal_actions` is every action a seat may play now, exactly the actions
:meth:`State.check <waddle.downtown.state.State.check>` accepts, as a
:class:`~collections.abc.Sequence` that makes each action only when it is read: its
length is counted, not listed, and ``actions[i]`` is built from ``i``. The plays come
card by card (deck order), then for a Copy by card copied, then by act: action A per
neighbourhood, action B per place emptied and neighbourhood, the special actions; each
spread in a fixed order. :func:`play_blocks` gives the same plays grouped, for bots;
:func:`random_action` draws one in stages (card, kind of act, block, spread).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import accumulate
from typing import Any, NamedTuple

from waddle.downtown.actions import (
    Act,
    Action,
    Add,
    Discard,
    Draw,
    Move,
    Penguins,
    Play,
    Recall,
    Recolour,
)
from waddle.downtown.board import CAPACITY
from waddle.downtown.state import DRAW, PLAY, SETUP, UNKNOWN, State


@cache
def _completions(rooms: tuple[int, ...], red: int, yellow: int, exact: bool) -> int:
    """Ways to put at most ``red`` and ``yellow`` penguins (``exact``: exactly) onto
    places with these ``rooms``, the empty way included."""
    if not rooms:
        return 1 if not exact or red == yellow == 0 else 0
    room, rest = rooms[0], rooms[1:]
    return sum(_completions(rest, red - r, yellow - y, exact)
               for r in range(min(room, red) + 1) for y in range(min(room - r, yellow) + 1))


class Spreads(Sequence[tuple[Penguins, ...]]):
    """Every spread of penguins onto the places ``names`` with ``rooms`` free spaces:
    ``exact`` (action B) places exactly ``red`` and ``yellow``; otherwise (action A) 1 or
    more penguins, at most ``red`` and ``yellow``. In order: the first place's red count
    lowest first, then its yellow, then the next place's."""

    __slots__ = ("names", "rooms", "red", "yellow", "exact", "_skip", "_len")

    def __init__(self, names: tuple[str, ...], rooms: tuple[int, ...], red: int, yellow: int,
                 exact: bool) -> None:
        self.names, self.rooms, self.red, self.yellow, self.exact = names, rooms, red, yellow, exact
        self._skip = 0 if exact else 1          # action A leaves out adding nothing
        self._len = -1                          # counted when first asked

    def __len__(self) -> int:
        if self._len < 0:
            self._len = _completions(self.rooms, self.red, self.yellow, self.exact) - self._skip
        return self._len

    def __getitem__(self, index: int) -> tuple[Penguins, ...]:  # type: ignore[override]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("spread index out of range")
        rank, red, yellow = index + self._skip, self.red, self.yellow
        out = []
        for i, room in enumerate(self.rooms):
            r, y, rank = _choose(self.rooms[i + 1:], room, red, yellow, self.exact, rank)
            if r or y:
                out.append(Penguins(self.names[i], r, y))
            red, yellow = red - r, yellow - y
        return tuple(out)

    def __iter__(self) -> Iterator[tuple[Penguins, ...]]:
        spreads = self._walk(0, self.red, self.yellow)
        if self._skip:
            next(spreads)
        return spreads

    def _walk(self, i: int, red: int, yellow: int) -> Iterator[tuple[Penguins, ...]]:
        if i == len(self.rooms):
            if not self.exact or red == yellow == 0:
                yield ()
            return
        room, name = self.rooms[i], self.names[i]
        for r in range(min(room, red) + 1):
            for y in range(min(room - r, yellow) + 1):
                if not _completions(self.rooms[i + 1:], red - r, yellow - y, self.exact):
                    continue
                head = (Penguins(name, r, y),) if r or y else ()
                for tail in self._walk(i + 1, red - r, yellow - y):
                    yield head + tail


def _choose(rest: tuple[int, ...], room: int, red: int, yellow: int, exact: bool,
            rank: int) -> tuple[int, int, int]:
    """The red and yellow on a place with ``room`` for the spread of ``rank`` (counted from
    this place on), and its rank among the spreads of the ``rest``."""
    for r in range(min(room, red) + 1):
        for y in range(min(room - r, yellow) + 1):
            ways = _completions(rest, red - r, yellow - y, exact)
            if rank < ways:
                return r, y, rank
            rank -= ways
    raise IndexError("spread rank out of range")


class _Mapped(Sequence[Any]):
    """``function(item)`` for each item of ``items``, made when read."""

    __slots__ = ("items", "function")

    def __init__(self, items: Sequence[Any], function: Callable[[Any], Any]) -> None:
        self.items, self.function = items, function

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self.function(self.items[index])

    def __iter__(self) -> Iterator[Any]:
        return map(self.function, self.items)


class Acts(NamedTuple):
    """A block of acts of one ``group`` (``"add"``, ``"move"``, ``"recolour"``, ``"recall"``,
    or ``"none"``: no action possible), and for action A and B their neighbourhood ``hood``,
    for B the ``source`` emptied (else ``None``), and the ``spreads`` the acts are made
    from (A and B only)."""

    group: str
    hood: int | None
    source: int | None
    acts: Sequence[Act | None]
    spreads: Spreads | None = None


#: The block of a play with no action possible.
NO_ACTS = Acts("none", None, None, (None,))


class Block(NamedTuple):
    """The plays of ``card`` (copying ``copied``) whose acts are ``acts``."""

    card: int
    copied: int | None
    acts: Acts


def act_blocks(state: State, seat: int, kind: str) -> list[Acts]:
    """Every act of ``kind`` (``"standard"``, ``"recolour"``, ``"recall"``) that ``seat``
    can do, in blocks; empty when none is possible."""
    board = state.layout
    red, yellow = state.red, state.yellow
    out: list[Acts] = []
    if kind == "standard":
        for hood, places in enumerate(board.hoods):
            if state.can_add(seat, hood):
                spreads = _spreads(state, places, state.supply_red[seat], state.supply_yellow[seat], False)
                out.append(Acts("add", hood, None, _Mapped(spreads, _maker(Add, board.hood_names[hood])), spreads))
        for source in range(len(board.places)):
            for hood in state.move_hoods(source):
                targets = tuple(p for p in board.hoods[hood] if p != source)
                spreads = _spreads(state, targets, red[source], yellow[source], True)
                out.append(Acts("move", hood, source, _Mapped(spreads, _maker(
                    Move, board.places[source], board.hood_names[hood])), spreads))
    elif kind == "recolour":
        supply = {"red": state.supply_yellow[seat], "yellow": state.supply_red[seat]}
        acts = tuple(Recolour(board.places[p], colour, count, board.hood_names[hood])
                     for hood, places in enumerate(board.hoods) for p in places
                     for colour, on in (("red", red), ("yellow", yellow))
                     for count in (1, 2) if on[p] >= count and supply[colour] >= count)
        if acts:
            out.append(Acts("recolour", None, None, acts))
    else:
        for hood, places in enumerate(board.hoods):
            acts = tuple(Recall(board.hood_names[hood], spread) for spread in _recalls(state, places))
            if acts:
                out.append(Acts("recall", hood, None, acts))
    return out


def _spreads(state: State, places: tuple[int, ...], red: int, yellow: int, exact: bool) -> Spreads:
    names = tuple(state.layout.places[p] for p in places)
    return Spreads(names, tuple(CAPACITY - state.count(p) for p in places), red, yellow, exact)


def _maker(cls: type, *head: str) -> Callable[[tuple[Penguins, ...]], Act]:
    return lambda penguins: cls(*head, penguins)


def _recalls(state: State, places: tuple[int, ...]) -> list[tuple[Penguins, ...]]:
    """Every way to take 1 or 2 penguins off ``places`` (board order)."""
    names = state.layout.places
    options = {p: [(r, y) for r in range(min(2, state.red[p]) + 1)
                   for y in range(min(2 - r, state.yellow[p]) + 1) if r + y] for p in places}
    out = []
    for i, p in enumerate(places):
        for r, y in options[p]:
            out.append((Penguins(names[p], r, y),))
            if r + y == 1:
                out.extend((Penguins(names[p], r, y), Penguins(names[q], r2, y2))
                           for q in places[i + 1:] for r2, y2 in options[q] if r2 + y2 == 1)
    return out


def play_blocks(state: State, seat: int) -> list[Block]:
    """Every legal play of ``seat`` now, in blocks (see the module docstring for the order)."""
    by_kind: dict[str, list[Acts]] = {}
    return [block for card in state.playable(seat) for block in card_blocks(state, seat, card, by_kind)]


def card_blocks(state: State, seat: int, card: int,
                by_kind: dict[str, list[Acts]] | None = None) -> list[Block]:
    """The plays of ``card`` by ``seat`` now, in blocks, were it allowed to play it (the
    play restriction aside). ``by_kind`` keeps the acts of each kind for the next call."""
    by_kind = {} if by_kind is None else by_kind
    blocks: list[Block] = []
    targets: list[int | None] = list(state.copy_targets(seat)) if card == state.deck.copy else []
    for copied in targets or [None]:
        kind = state.kind(state.effective(card, copied))
        if kind not in by_kind:
            by_kind[kind] = act_blocks(state, seat, kind)
        blocks.extend(Block(card, copied, acts) for acts in by_kind[kind] or [NO_ACTS])
    return blocks


class Plays(Sequence[Play]):
    """The legal plays of a seat, made when read (:func:`legal_actions`)."""

    __slots__ = ("_state", "_seat", "_blocks", "_ends")

    def __init__(self, state: State, seat: int) -> None:
        self._state, self._seat = state.copy(), seat
        self._blocks = play_blocks(state, seat)
        self._ends = list(accumulate(len(b.acts.acts) for b in self._blocks))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index: int) -> Play:  # type: ignore[override]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("play index out of range")
        b = bisect_right(self._ends, index)
        block = self._blocks[b]
        return self._play(block, block.acts.acts[index - (self._ends[b - 1] if b else 0)])

    def __iter__(self) -> Iterator[Play]:
        for block in self._blocks:
            for act in block.acts.acts:
                yield self._play(block, act)

    def __contains__(self, action: object) -> bool:
        return action.__class__ is Play and self._state.is_legal(self._seat, action)  # type: ignore[arg-type]

    def _play(self, block: Block, act: Act | None) -> Play:
        name = self._state.name
        return Play(name(block.card), None if block.copied is None else name(block.copied), act)


def legal_actions(state: State, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may play now (empty when it may not act): its setup
    discards, its draws, or its plays (a lazy :class:`Plays`)."""
    if seat not in state.to_act():
        return ()
    if state.phase == SETUP:
        return tuple(Discard(state.name(c)) for c in sorted(set(state.hands[seat]) - {UNKNOWN}))
    if state.phase == DRAW:
        return tuple(Draw(state.name(c) if c is not None else None) for c in state.draw_options())
    return Plays(state, seat)


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """A random legal action of ``seat`` (which must be able to act), drawn in stages: a
    card; for a Copy a card to copy; a group of acts (A, B, a special); a block (a
    neighbourhood, a place to empty); a spread in it, all uniformly."""
    if state.phase != PLAY:
        return rng.choice(legal_actions(state, seat))
    card = rng.choice(state.playable(seat))
    targets = state.copy_targets(seat) if card == state.deck.copy else []
    copied = rng.choice(targets) if targets else None
    blocks = act_blocks(state, seat, state.kind(state.effective(card, copied)))
    act = None
    if blocks:
        group = rng.choice(sorted({b.group for b in blocks}))
        acts = rng.choice([b.acts for b in blocks if b.group == group])
        act = acts[rng.randrange(len(acts))]
    return Play(state.name(card), None if copied is None else state.name(copied), act)
