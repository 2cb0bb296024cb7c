"""Hand-built positions of Waddle Downtown for its tests (``tests/test_downtown_*.py``).

:func:`position` deals a game with the bundled deck (seed 0) and then sets what a test
names: penguins on places, hands, scoring piles, supplies, decks, whose turn it is.
Places are given by name and cards by name, as the rules speak of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from waddle.downtown.actions import Add, Move, Play, Recall, Recolour, spread
from waddle.downtown.cards import bundled_deck
from waddle.downtown.state import PLAY, State, shuffle

COLOURS = ("blue", "green", "purple", "cyan")
DECK = bundled_deck()


def card(name: str) -> int:
    return DECK.number(name)


def position(players: int = 2, *, board: Mapping[str, tuple[int, int]] = {},
             hands: Sequence[Sequence[str]] | None = None,
             piles: Sequence[Sequence[str]] | None = None,
             supply: Mapping[int, tuple[int, int]] = {},
             decks: Sequence[Sequence[str]] | None = None, turn: int = 0, round: int = 1,
             scores: Sequence[int] | None = None, single: bool = False,
             display: Sequence[str] | None = None) -> State:
    """A game in its play phase (setup over) with what is given set; decks top card first."""
    state = State.deal(DECK, COLOURS[:players], shuffle(DECK, players, single, 0), single=single)
    state.phase, state.pending = PLAY, [None] * players
    for name, (r, y) in board.items():
        place = state.layout.place(name)
        state.red[place], state.yellow[place] = r, y
    if hands is not None:
        state.hands = [sorted(card(c) for c in hand) for hand in hands]
        state.known = [[DECK.copy] if DECK.copy in hand else [] for hand in state.hands]
    if piles is not None:
        state.piles = [[card(c) for c in pile] for pile in piles]
    for seat, (r, y) in supply.items():
        state.supply_red[seat], state.supply_yellow[seat] = r, y
    if decks is not None:
        state.decks = [[card(c) for c in reversed(deck)] for deck in decks]
    if display is not None:
        state.display = [card(c) for c in display]
    if scores is not None:
        state.scores = list(scores)
    state.turn, state.round = turn, round
    return state


def board_of(state: State) -> dict[str, tuple[int, int]]:
    """The places that hold penguins: name -> (red, yellow)."""
    return {name: (state.red[p], state.yellow[p]) for p, name in enumerate(state.layout.places)
            if state.red[p] or state.yellow[p]}


def add(state: State, hood: str, **places: tuple[int, int]) -> Add:
    return Add(hood, spread(state.layout, places))


def move(state: State, source: str, hood: str, **places: tuple[int, int]) -> Move:
    return Move(source, hood, spread(state.layout, places))


def recall(state: State, hood: str, **places: tuple[int, int]) -> Recall:
    return Recall(hood, spread(state.layout, places))


def play(name: str, act: Add | Move | Recolour | Recall | None = None, copied: str | None = None) -> Play:
    return Play(name, copied, act)
