"""Bots: given a position (what one seat knows), choose an action.

A bot has a ``name`` and ``choose(position) -> action``, which returns a legal action for
the position's seat (:class:`~waddle.downtown.position.Position`, from
:meth:`Match.position <waddle.ruleset.Match.position>` or
:meth:`View.position <waddle.ruleset.View.position>`) without changing it. A position
holds only what the seat knows, never the hidden cards.

Built in (:data:`BOTS`, made by :func:`make_bot`):

- ``random``: a random legal action, drawn in stages (a card, a kind of act, a block, a
  spread: :func:`waddle.downtown.legal.random_action`).
- ``greedy``: the play that scores most now (:mod:`waddle.downtown.best`), the fewest
  penguins spent from the supply breaking ties, then the seeded random generator; it
  discards at setup the card that would score least now, never the Copy (worth nothing
  before there is a card to copy, and much after), and draws the display card that would
  score most now, or the deck's top when none scores.
- ``search``: information-set Monte Carlo tree search: each iteration deals the unseen
  cards at random consistently with what the seat knows (:meth:`Position.sample`) and
  walks one tree shared by all those deals, over each seat's best plays of each card,
  then plays on greedily for a round and scores the margin (:class:`SearchBot`).

Every bot takes a ``seed``; with the same seed (and, for ``search``, an iteration budget
and no time budget) it plays the same actions in the same positions.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from waddle.downtown.actions import Action, Discard, Draw, Play
from waddle.downtown.best import best_plays, make, options
from waddle.downtown.legal import random_action
from waddle.downtown.position import Position
from waddle.downtown.state import DRAW, PLAY, SETUP, UNKNOWN, State
from waddle.ruleset import bot_of


class RandomBot:
    """Plays a random legal action, drawn in stages (see the module docstring)."""

    name = "random"
    quick = True  # a host's loop runs it (:class:`waddle.ruleset.Bot`)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, position: Position) -> Action:
        return random_action(position.state, position.seat, self._rng)


def greedy_play(state: State, seat: int, rng: random.Random) -> Play:
    """The play of ``seat`` that scores most now, spending fewest; a random one of equals."""
    items = options(state, seat)
    top = max((o.points, -o.spent) for o in items)
    return make(state, rng.choice([o for o in items if (o.points, -o.spent) == top]))


def card_value(state: State, seat: int, card: int) -> int:
    """The most ``card`` would score for ``seat`` if played now (the play restriction aside)."""
    return max(o.points for o in options(state, seat, [card]))


class GreedyBot:
    """Plays the best immediate score (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, position: Position) -> Action:
        state, seat = position.state, position.seat
        if state.phase == SETUP:
            return self._discard(state, seat)
        if state.phase == DRAW:
            return self._draw(state, seat)
        return greedy_play(state, seat, self._rng)

    def _discard(self, state: State, seat: int) -> Discard:
        cards = sorted(set(state.hands[seat]))
        keys = {c: (c == state.deck.copy, card_value(state, seat, c)) for c in cards}
        low = min(keys.values())
        return Discard(state.name(self._rng.choice([c for c in cards if keys[c] == low])))

    def _draw(self, state: State, seat: int) -> Draw:
        shown = [c for c in state.draw_options() if c is not None]
        values = {c: card_value(state, seat, c) for c in shown}
        top = max(values.values(), default=0)
        if top == 0 and state.decks[0]:
            return Draw()
        return Draw(state.name(self._rng.choice([c for c in shown if values[c] == top])))


class _Node:
    """A search tree node: reached by ``action`` of ``mover`` from its parent."""

    __slots__ = ("action", "mover", "children", "visits", "available", "reward", "plays")

    def __init__(self, action: Action | None, mover: int) -> None:
        self.action = action
        self.mover = mover
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 1              # iterations in which this node's action was legal
        self.reward = 0.0               # sum of ``mover``'s rewards through this node
        self.plays: dict[int, list[Play]] = {}   # the candidate plays of each card here


class SearchBot:
    """Information-set Monte Carlo tree search (single observer, after Cowling, Powley and
    Whitehouse 2012) over the engine.

    Each iteration samples a deal of the cards the seat has not seen
    (:meth:`Position.sample`), then walks down one tree shared by every deal: at each node
    only the actions legal in this deal count; it picks by UCB1 (with availability counts)
    from the point of view of the seat to act, adds one untried action, plays on for
    ``depth`` plays (a round: every opponent once, then the seat itself) with every seat
    greedy, and backs up each seat's reward: its margin
    over the best opponent (scaled), blended at the game's end with its share of the
    victory. Points are scored as the game goes, so the margin a few plays on is what a
    move is worth, and a short greedy playout measures it far better than a random one
    to the end. A seat's actions at a node are its ``width`` best plays of each card
    (:func:`~waddle.downtown.best.best_plays`, by points then penguins spent); the board
    at a node is the same in every deal (draws change hands only), so they are worked
    out once per card. Simultaneous setup discards are taken one seat after another. The
    move played is the most visited one.

    Args:
        seed: seeds the random generator (deals, expansion order, ties in playouts).
        seconds: the time budget per move in seconds (``None``: no time limit); a move
            always gets at least one iteration, however short the budget.
        iterations: the iteration budget per move (``None``: no limit); with
            ``seconds=None`` the bot is deterministic for a given seed.
        exploration: the UCB1 exploration constant.
        width: the plays of each card searched at a node.
        depth: the plays of a playout (``None``: as many as there are players).

    Raises:
        ValueError: if both budgets are ``None``, ``seconds`` is negative, nan or infinite,
            ``iterations``, ``width`` or ``depth`` is less than 1.
    """

    name = "search"

    #: Weight of the win share in the reward at the game's end; the rest is the scaled margin.
    WIN_WEIGHT = 0.5
    #: Margin (points) that maps to the full margin reward.
    MARGIN_SCALE = 20.0

    def __init__(self, seed: int | None = None, *, seconds: float | None = 0.5,
                 iterations: int | None = None, exploration: float = 0.7, width: int = 2,
                 depth: int | None = None) -> None:
        if seconds is None and iterations is None:
            raise ValueError("the search bot needs a time budget, an iteration budget or both")
        if seconds is not None and not 0 <= seconds < float("inf"):
            raise ValueError(f"the search bot's time budget must be a finite number of seconds, "
                             f"0 or more, not {seconds}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"the search bot's iteration budget must be positive, not {iterations}")
        if width < 1 or depth is not None and depth < 1:
            raise ValueError(f"the search bot's width and depth must be positive, not {width} and {depth}")
        self._rng = random.Random(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = exploration
        self.width = width
        self.depth = depth

    def choose(self, position: Position) -> Action:
        root = _Node(None, -1)
        moves = self._moves(root, position.state, position.seat)
        if len(moves) == 1:
            return moves[0]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done == 0 or ((self.iterations is None or done < self.iterations)
                            and (deadline is None or time.perf_counter() < deadline)):
            self._iterate(root, position.sample(self._rng), position.seat)
            done += 1
        return max(root.children.values(), key=lambda child: child.visits).action

    def _mover(self, state: State) -> int:
        """The seat to act next in a search: simultaneous choices one after another."""
        return min(state.to_act())

    def _moves(self, node: _Node, state: State, seat: int) -> list[Action]:
        """The actions searched at ``node`` for ``seat`` in this deal."""
        if state.phase == SETUP:
            return [Discard(state.name(c)) for c in sorted(set(state.hands[seat]) - {UNKNOWN})]
        if state.phase == DRAW:
            return [Draw(None if c is None else state.name(c)) for c in state.draw_options()]
        out: list[Action] = []
        for card in state.playable(seat):
            plays = node.plays.get(card)
            if plays is None:
                plays = node.plays[card] = best_plays(state, seat, card, self.width)
            out.extend(plays)
        return out

    def _iterate(self, root: _Node, state: State, seat: int) -> None:
        node, path = root, [root]
        while not state.is_over:
            mover = seat if node is root else self._mover(state)
            moves = self._moves(node, state, mover)
            children = node.children
            untried = [a for a in moves if a not in children]
            for action in moves:
                if action in children:
                    children[action].available += 1
            if untried:
                action = untried[int(self._rng.random() * len(untried))]
                node = children[action] = _Node(action, mover)
                state.step(mover, action)
                path.append(node)
                break
            node = max((children[a] for a in moves), key=self._ucb)
            state.step(mover, node.action)
            path.append(node)
        self._playout(state)
        rewards = self._rewards(state)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += rewards[visited.mover]

    def _ucb(self, child: _Node) -> float:
        return (child.reward / child.visits
                + self.exploration * math.sqrt(math.log(child.available) / child.visits))

    def _playout(self, state: State) -> None:
        """Play on for :attr:`depth` plays (a round by default), every seat greedy (random
        discards and draws)."""
        rng, plays = self._rng, 0
        depth = state.players if self.depth is None else self.depth
        while not state.is_over and plays < depth:
            mover = self._mover(state)
            if state.phase == PLAY:
                state.step(mover, greedy_play(state, mover, rng))
                plays += 1
            else:
                state.step(mover, random_action(state, mover, rng))

    def _rewards(self, state: State) -> list[float]:
        """Each seat's reward in [0, 1]: its margin over the best opponent, scaled by
        :attr:`MARGIN_SCALE`; at the game's end blended with its share of the victory."""
        scores, winners = state.scores, state.winners
        out = []
        for seat, mine in enumerate(scores):
            margin = mine - max(scores[:seat] + scores[seat + 1:])
            reward = 0.5 + max(-1.0, min(1.0, margin / self.MARGIN_SCALE)) / 2
            if state.is_over:
                share = 1.0 / len(winners) if seat in winners else 0.0
                reward = self.WIN_WEIGHT * share + (1 - self.WIN_WEIGHT) * reward
            out.append(reward)
        return out


#: Built-in bots by name: ``BOTS[name](seed=...)``.
BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(kind: str, seed: int | None = None, **options: Any) -> Any:
    """A new built-in bot of ``kind`` (a key of :data:`BOTS`); ``options`` go to its class.

    ``make_bot("search", 1, seconds=0.2)`` or ``make_bot("search", 1, iterations=500)``.

    Raises:
        ValueError: for an unknown kind, naming the known ones, or bad options.
    """
    return bot_of(BOTS, kind, seed, **options)
