"""The view data: everything one audience may know of a game, as msgspec Structs.

:class:`DowntownViewData` is the ruleset's ``view_type`` (DOWNTOWN.md "What is public and
what is secret"): the places and their penguins, every seat's supply, score, scoring pile
(face up), hand and deck sizes and the cards known to be in its hand, the display, the
round, whose turn it is, the setup and tie-break state, the public history of events, and
the audience's own hand (and setup discard, until revealed). Never a deck's order, another
hand, or another seat's unrevealed discard. :func:`view_data` makes it from a state,
:func:`state_of` makes the state a view follows from it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from waddle.downtown.actions import Count, PlaceName
from waddle.downtown.board import ROUNDS, layout
from waddle.downtown.cards import Card, CardName, DeckError, deck_from_cards
from waddle.downtown.events import Event
from waddle.downtown.state import UNKNOWN, State
from waddle.errors import ViewError

#: The seats' colours, in the order free seats take them (DOWNTOWN.md "Components").
COLOURS = ("blue", "green", "purple", "cyan")
Colour = Literal["blue", "green", "purple", "cyan"]


class PlaceData(msgspec.Struct, frozen=True):
    """A place: its name and its ``red`` and ``yellow`` penguins."""

    place: PlaceName
    red: Count
    yellow: Count


class SeatData(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everybody sees it: ``score``; its supply (``red``, ``yellow``); how
    many cards are in its ``hand`` and its own ``deck`` (0 in the single-deck variant);
    its scoring ``pile`` (face up, bottom first); ``known``: cards everybody knows are in
    its hand (the Copy until played, display cards taken); ``discarded``: its setup
    discard is chosen and not yet revealed."""

    score: int
    red: int
    yellow: int
    hand: int
    deck: int
    pile: tuple[CardName, ...] = ()
    known: tuple[CardName, ...] = ()
    discarded: bool = False


class DowntownViewData(msgspec.Struct, frozen=True, kw_only=True):
    """A game of Waddle Downtown as ``audience`` (a seat, or ``None``) may know it.

    ``players``: the labels in seat order (seat 0 is the start player). ``cards``: the
    deck's 13 cards (every card is named by these). ``deck``: the shared deck's size and
    ``display`` its face-up cards (single-deck variant). ``phase``: ``"setup"`` (the
    non-start seats choose discards), ``"play"``, ``"draw"`` (a draw to choose), ``"over"``.
    ``round`` of ``rounds`` (tie-break rounds go on past it); ``order``: the seats playing
    this round (the tied ones in a tie-break) and ``turn`` the index in it of the seat to
    act. ``winners`` and ``shared`` once over. ``history``: every event so far, public form.
    ``hand``: the audience's hand (empty for spectators); ``discard``: its setup discard
    until all are revealed.
    """

    players: tuple[Colour, ...]
    single_deck: bool
    cards: tuple[Card, ...]
    places: tuple[PlaceData, ...]
    seats: tuple[SeatData, ...]
    deck: int = 0
    display: tuple[CardName, ...] = ()
    phase: Literal["setup", "play", "draw", "over"]
    round: int
    rounds: int
    order: tuple[int, ...]
    turn: int
    winners: tuple[int, ...] = ()
    shared: bool = False
    history: tuple[Event, ...] = ()
    audience: int | None = None
    hand: tuple[CardName, ...] = ()
    discard: CardName | None = None


def view_data(state: State, audience: int | None) -> DowntownViewData:
    """What ``audience`` may know of ``state``: it reads the hand and the setup discard of
    ``audience`` only, and of the decks only their sizes."""
    names = [card.name for card in state.deck.cards]
    single = state.single
    seats = tuple(SeatData(
        score=state.scores[s], red=state.supply_red[s], yellow=state.supply_yellow[s],
        hand=len(state.hands[s]), deck=0 if single else len(state.decks[s]),
        pile=tuple(names[c] for c in state.piles[s]), known=tuple(names[c] for c in state.known[s]),
        discarded=state.pending[s] is not None) for s in range(state.players))
    own = audience is not None
    pending = state.pending[audience] if own else None
    return DowntownViewData(
        players=state.labels, single_deck=single, cards=state.deck.cards,
        places=tuple(PlaceData(name, state.red[p], state.yellow[p])
                     for p, name in enumerate(state.layout.places)),
        seats=seats, deck=len(state.decks[0]) if single else 0,
        display=tuple(names[c] for c in state.display), phase=state.phase, round=state.round,
        rounds=state.rounds, order=state.order, turn=state.turn, winners=state.winners,
        shared=state.shared, history=tuple(state.history), audience=audience,
        hand=tuple(names[c] for c in state.hands[audience]) if own else (),
        discard=None if pending is None else names[pending])


def state_of(data: DowntownViewData, audience: int | None) -> State:
    """The state a view of ``audience`` follows, from its view data: the cards it may not
    know are :data:`~waddle.downtown.state.UNKNOWN`.

    Raises:
        waddle.errors.ViewError: the data does not describe a game of Waddle Downtown
            seen by ``audience`` (saying what is wrong).
    """
    try:
        return _state_of(data, audience)
    except (DeckError, ValueError, IndexError, KeyError) as exc:
        raise ViewError(f"not a view of a Waddle Downtown game: {exc}") from None


def _state_of(data: DowntownViewData, audience: int | None) -> State:
    n = len(data.players)
    board = layout(n)
    if data.audience != audience:
        raise ValueError(f"the data is for audience {data.audience}, not {audience}")
    if audience is not None and not 0 <= audience < n:
        raise ValueError(f"no seat {audience}")
    if len(data.seats) != n or tuple(p.place for p in data.places) != board.places:
        raise ValueError(f"{n} players need {n} seats and the places {', '.join(board.places)}")
    if data.rounds != ROUNDS[n]:
        raise ValueError(f"{n} players play {ROUNDS[n]} rounds, not {data.rounds}")
    deck = deck_from_cards(msgspec.to_builtins(list(data.cards)), source="cards")
    number = deck.index.__getitem__
    state = State.__new__(State)
    state.layout, state.deck, state.labels, state.single = board, deck, data.players, data.single_deck
    state.rounds = data.rounds
    state.red = [p.red for p in data.places]
    state.yellow = [p.yellow for p in data.places]
    seats = data.seats
    state.supply_red = [s.red for s in seats]
    state.supply_yellow = [s.yellow for s in seats]
    state.scores = [s.score for s in seats]
    state.piles = [[number(c) for c in s.pile] for s in seats]
    state.known = [[number(c) for c in s.known] for s in seats]
    state.hands = [[UNKNOWN] * s.hand for s in seats]
    state.pending = [UNKNOWN if s.discarded else None for s in seats]
    if audience is not None:
        if len(data.hand) != seats[audience].hand:
            raise ValueError(f"the hand holds {len(data.hand)} cards, the seat {seats[audience].hand}")
        state.hands[audience] = sorted(number(c) for c in data.hand)
        if (data.discard is not None) != seats[audience].discarded:
            raise ValueError("the setup discard does not match the seat")
        if data.discard is not None:
            state.pending[audience] = number(data.discard)
    state.decks = [[UNKNOWN] * data.deck] if data.single_deck else [[UNKNOWN] * s.deck for s in seats]
    state.display = [number(c) for c in data.display]
    state.phase, state.round, state.order, state.turn = data.phase, data.round, data.order, data.turn
    if not data.order or not 0 <= data.turn < len(data.order) or not set(data.order) <= set(range(n)):
        raise ValueError(f"turn {data.turn} of the order {data.order}")
    state.winners, state.shared = data.winners, data.shared
    state.history = list(data.history)
    return state
