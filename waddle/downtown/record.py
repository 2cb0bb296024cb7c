"""Game records of Waddle Downtown: the versioned JSON form of a whole game.

A record is::

    {"format": "waddle-downtown-record", "version": 1,
     "players": ["blue", "green"], "options": {"single_deck": false}, "seed": 7,
     "deck": [{"name": "Copy", "rule": "copy", "action": "copy"}, ...],
     "shuffle": [["Even", "Odd", ...], ["Full", ...]],
     "actions": [{"seat": 1, "type": "discard", "card": "Odd"},
                 {"seat": 0, "type": "play", "card": "Even", "copied": null, "act": {...}}]}

``players`` is the opening turn order (seat 0 the start player); ``deck`` the 13 cards in
the deck file's form; ``shuffle`` the deck orders, top card first (one per seat, or one
shared in the single-deck variant), the cards the seed gave
(:func:`waddle.downtown.state.shuffle`); ``actions`` every action with its ``seat``. A
record with a ``seed`` but no ``shuffle`` deals the seed's shuffle; one with both must
agree; one with neither is refused. It holds every secret: give it out once the game is
over. Loading replays every action through the rules, so a record that loads is a legal
game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from waddle.downtown.actions import Action, action_from_dict
from waddle.downtown.cards import Deck, DeckError, deck_from_cards
from waddle.downtown.state import State, shuffle
from waddle.downtown.viewdata import COLOURS
from waddle.errors import IllegalActionError, RecordError
from waddle.ruleset import check_record

FORMAT = "waddle-downtown-record"
VERSION = 1


def to_record(state: State, orders: Sequence[Sequence[int]], actions: Sequence[tuple[int, Action]],
              *, seed: int | None, **extra: Any) -> dict[str, Any]:
    """The record of a game dealt from ``orders`` (the shuffle) in which ``actions``
    (``(seat, action)``) were played, reaching ``state``; ``extra`` adds top-level fields."""
    names = [card.name for card in state.deck.cards]
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(state.labels),
        "options": {"single_deck": state.single},
        "seed": seed,
        "deck": state.deck.to_list(),
        "shuffle": [[names[c] for c in order] for order in orders],
        "actions": [{"seat": seat, **action.to_dict()} for seat, action in actions],
        **extra,
    }


class Replay:
    """A record read back: ``state`` (the position after the last action), ``seed``,
    ``orders`` (the shuffle) and ``actions`` (``(seat, action)``)."""

    __slots__ = ("state", "seed", "orders", "actions")

    def __init__(self, state: State, seed: int | None, orders: list[list[int]],
                 actions: list[tuple[int, Action]]) -> None:
        self.state, self.seed, self.orders, self.actions = state, seed, orders, actions


def from_record(data: Any, *, source: str = "<record>") -> Replay:
    """Replay a record (a parsed JSON object).

    Raises:
        RecordError: naming ``source``, the field or ``actions[i]``, and the problem:
            wrong format or version, bad players, options or seed, a bad deck (with the
            card and field), a shuffle that is not one of the deck or not the seed's, or
            an action that is malformed, by a seat that may not act, or illegal (with the rule).
    """
    seed = check_record(data, source, FORMAT, VERSION)
    players = data.get("players")
    if (not isinstance(players, list) or not 2 <= len(players) <= 4
            or not all(p in COLOURS for p in players) or len(set(players)) != len(players)):
        raise RecordError(f"{source}: players: expected 2 to 4 different colours of "
                          f"{', '.join(COLOURS)}, found {players!r}")
    options = data.get("options", {})
    single = options.get("single_deck", False) if isinstance(options, Mapping) else None
    if not isinstance(single, bool):
        raise RecordError(f"{source}: options.single_deck must be true or false")
    try:
        deck = deck_from_cards(data.get("deck"), source=f"{source}: deck")
    except DeckError as exc:
        raise RecordError(str(exc)) from None
    orders = _orders(data, deck, len(players), single, seed, source)
    try:
        state = State.deal(deck, players, orders, single=single)
    except ValueError as exc:
        raise RecordError(f"{source}: shuffle: {exc}") from None
    items = data.get("actions")
    if not isinstance(items, list):
        raise RecordError(f"{source}: actions must be a list")
    actions = [_replay_one(state, item, f"{source}: actions[{i}]") for i, item in enumerate(items)]
    return Replay(state, seed, orders, actions)


def _orders(data: Mapping, deck: Deck, players: int, single: bool, seed: int | None,
            source: str) -> list[list[int]]:
    seeded = None if seed is None else shuffle(deck, players, single, seed)
    if "shuffle" not in data:
        if seeded is None:
            raise RecordError(f"{source}: shuffle: a record without a seed must give the shuffle")
        return seeded
    given = data["shuffle"]
    if not isinstance(given, list) or not all(isinstance(order, list) for order in given):
        raise RecordError(f"{source}: shuffle: expected a list of deck orders (lists of card names)")
    try:
        orders = [[deck.number(name) for name in order] for order in given]
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{source}: shuffle: {exc}") from None
    if seeded is not None and orders != seeded:
        raise RecordError(f"{source}: shuffle: not the shuffle that seed {seed} deals")
    return orders


def _replay_one(state: State, item: Any, place: str) -> tuple[int, Action]:
    try:
        action = action_from_dict(item)
    except ValueError as exc:
        raise RecordError(f"{place}: {exc}") from None
    seat = item.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise RecordError(f"{place}: {action} needs a 'seat' from 0 to {state.players - 1}, found {seat!r}")
    try:
        state.apply(seat, action)
    except IllegalActionError as exc:
        raise RecordError(f"{place}: {action} by {state.labels[seat]} is illegal: {exc}") from None
    return seat, action
