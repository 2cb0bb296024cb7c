"""A bot's position: what one seat knows, and the games that are consistent with it.

:class:`Position` is what :meth:`Match.position <waddle.ruleset.Match.position>` and
:meth:`View.position <waddle.ruleset.View.position>` give a bot: the seat's own view of the
game (a :class:`~waddle.downtown.state.State` whose hidden cards are ``UNKNOWN``), never
the true hidden cards. :meth:`Position.sample` deals the hidden cards at random, consistently
with what the seat has seen: every opponent's unseen cards are its colour's 13 (in the
single-deck variant: all the decks' cards) minus the cards seen (scoring piles, the
display, the seat's own hand and discard), and the cards known to be in a hand (the Copy
until it is played, display cards taken) stay in that hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from waddle.downtown.actions import Action
from waddle.downtown.legal import legal_actions
from waddle.downtown.state import UNKNOWN, State


class Position:
    """What ``seat`` knows: ``state`` (its view, hidden cards ``UNKNOWN``); a private copy.
    (``seat`` ``None``: what a spectator knows, for :meth:`sample` alone.)"""

    __slots__ = ("state", "seat")

    def __init__(self, state: State, seat: int | None) -> None:
        self.state, self.seat = state, seat

    def legal_actions(self) -> Sequence[Action]:
        """The actions the seat may play now (empty when it may not act)."""
        return legal_actions(self.state, self.seat)

    def sample(self, rng: random.Random) -> State:
        """A full game state the seat cannot tell from the real one, its hidden cards
        dealt at random (see the module docstring): the opponents' hands (with the cards
        known to be there) and unrevealed setup discards, and the order of every deck.

        Raises:
            ValueError: the position is not one a game can reach (cards do not add up).
        """
        state, seat = self.state, self.seat
        full = state.copy()
        deck = state.deck
        everyone = [c for c in range(len(deck.cards)) if c != deck.copy]
        n = state.players
        pools = [everyone * n + [deck.copy] * n] if state.single else [everyone + [deck.copy] for _ in range(n)]

        def pool(s: int) -> list[int]:
            return pools[0] if state.single else pools[s]

        def take(s: int, cards: Sequence[int]) -> None:
            for card in cards:
                pool(s).remove(card)

        for s in range(n):
            take(s, state.piles[s])
            if s == seat:
                take(s, state.hands[s])
                if state.pending[s] is not None:
                    take(s, [state.pending[s]])
            else:
                take(s, state.known[s])
        take(0, state.display)
        for cards in pools:
            rng.shuffle(cards)
            cards.sort(key=lambda c: c == deck.copy)          # a Copy is never in a deck
        for s in range(n):
            if s == seat:
                continue
            # a view holds the display cards an opponent took as themselves, the match's
            # redacted state as UNKNOWN: either way they are among the known cards
            hidden = len(state.hands[s]) + (state.pending[s] == UNKNOWN)
            cards = list(state.known[s]) + [pool(s).pop() for _ in range(hidden - len(state.known[s]))]
            rng.shuffle(cards)
            if state.pending[s] == UNKNOWN:
                full.pending[s] = cards.pop()
            full.hands[s] = sorted(cards)
        for d, cards in enumerate(state.decks):
            full.decks[d] = [pools[d].pop() for _ in cards]
        if any(pools) or any(c == UNKNOWN for hand in full.hands for c in hand):
            raise ValueError("the cards seen do not add up to a deal of this deck")
        return full

    def __repr__(self) -> str:
        who = "a spectator" if self.seat is None else self.state.labels[self.seat]
        return f"<Position of {who}: {self.state!r}>"
