"""Bots: given the game, choose an action.

A bot is any object with a ``name`` and ``choose(game) -> Action`` that returns one of
``game.legal_actions()`` for ``game.current_player`` without changing ``game`` (search
works on a copy). The same bots fill empty seats on the host and run as headless clients.

Built in (:data:`BOTS`, made by :func:`make_bot`):

- ``random``: a uniformly random legal action.
- ``greedy``: the action that most improves its live score margin over the best
  opponent (RULES.md "Scoring": the live score is the final scoring of the board now).
- ``search``: Monte Carlo tree search for several players with fast random playouts and
  an exact endgame (:class:`waddle.hex.search.SearchBot`), within a time budget per
  move and/or an iteration budget; it also analyses positions (:func:`waddle.hex.search.analyse`).
- ``uct``: the previous search (:class:`UctBot`), kept as the yardstick ``search`` is
  measured against (``benchmarks/hex_search.py``).

Every bot takes a ``seed``; with the same seed (and, for ``search`` and ``uct``, an
iteration budget and no time budget) it plays the same actions in the same positions.
"""

from __future__ import annotations

import math
import random
from typing import Protocol

from waddle.hex.actions import Action, Place
from waddle.hex.budget import Budget
from waddle.hex.game import Game
from waddle.hex.rewards import rewards
from waddle.hex.search import SearchBot
from waddle.ruleset import bot_of


class Bot(Protocol):
    """The bot interface: ``choose`` returns a legal action for ``game.current_player``."""

    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"
    quick = True  # a host's loop runs it (:class:`waddle.ruleset.Bot`)

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self._rng.choice(game.legal_actions())


class GreedyBot:
    """Plays the action with the best immediate live score, looking one action ahead.

    Each legal action is pushed, scored with :meth:`Game.live_totals` and popped.
    Actions are ranked by the player's margin over the best opponent, then by its own
    total, then singles before doubles (a double is kept for when it gains something);
    ties are broken by the seeded random generator.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        seat = game.players.index(game.current_player)
        best: list[Action] = []
        best_key: tuple[int, int, bool] | None = None
        for action in game.legal_actions():
            game.push(action)
            try:
                totals = game.live_totals()
            finally:
                game.pop()
            mine = totals[seat]
            key = (mine - max(totals[:seat] + totals[seat + 1:]), mine,
                   not (isinstance(action, Place) and action.double))
            if best_key is None or key > best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return self._rng.choice(best)


class _Node:
    """A search tree node: the position after ``action`` from its parent."""

    __slots__ = ("action", "mover", "children", "untried", "visits", "reward")

    def __init__(self, action: Action | None, mover: int, untried: list[Action]) -> None:
        self.action = action
        self.mover = mover              # the seat that played ``action``
        self.children: list[_Node] = []
        self.untried = untried          # legal actions not expanded yet
        self.visits = 0
        self.reward = 0.0               # sum of ``mover``'s rewards through this node


class UctBot:
    """The previous search bot, kept as a yardstick for :class:`~waddle.hex.search.SearchBot`:
    Monte Carlo tree search over the engine (UCT for several players, "max^n").

    Each iteration walks down the tree choosing by UCB1 from the point of view of the
    player to act, expands one new action, plays a random game to the end (doubles
    and scouts less often than singles), and backs up every seat's reward: 1 for a win
    (shared by tied winners) blended with its final margin over the best opponent. The
    move played is the most visited one. The search runs on a copy of the game.

    Args:
        seed: seeds the random generator (expansion order and playouts).
        seconds: the time budget per move in seconds (``None``: no time limit);
            a move always gets at least one iteration, however short the budget.
        iterations: the iteration budget per move (``None``: no limit); with
            ``seconds=None`` the bot is deterministic for a given seed.
        exploration: the UCB1 exploration constant.

    Raises:
        ValueError: if both budgets are ``None``, ``seconds`` is negative, nan or
            infinite, or ``iterations`` is less than 1.
    """

    name = "uct"

    #: In playouts, how often a drawn scout or double is replaced by a single.
    SCOUT_DAMPING = 0.7
    DOUBLE_DAMPING = 0.8

    def __init__(self, seed: int | None = None, *, seconds: float | None = 0.5,
                 iterations: int | None = None, exploration: float = 0.7) -> None:
        self._budget = Budget(seconds, iterations)
        self._rng = random.Random(seed)
        self.exploration = exploration
        self.last_iterations = 0        # iterations of the last move (0: nothing to search)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        game = game.copy()
        seat = {player: i for i, player in enumerate(game.players)}
        root = _Node(None, -1, self._shuffled(actions))
        self.last_iterations = self._budget.run(lambda: self._iterate(game, root, seat))
        return max(root.children, key=lambda child: child.visits).action

    def _shuffled(self, actions: tuple[Action, ...]) -> list[Action]:
        out = list(actions)
        self._rng.shuffle(out)
        return out

    def _iterate(self, game: Game, root: _Node, seat: dict[str, int]) -> None:
        path = [root]
        node = root
        pushed = 0
        while not node.untried and node.children:
            node = self._select(node)
            game.push(node.action)
            pushed += 1
            path.append(node)
        if node.untried:
            mover = seat[game.current_player]
            action = node.untried.pop()
            game.push(action)
            pushed += 1
            child = _Node(action, mover, self._shuffled(game.legal_actions()))
            node.children.append(child)
            path.append(child)
        pushed += self._playout(game)
        shares = rewards(game.live_totals())
        for _ in range(pushed):
            game.pop()
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += shares[visited.mover]

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        c = self.exploration
        return max(node.children, key=lambda child: child.reward / child.visits
                   + c * math.sqrt(log_n / child.visits))

    def _playout(self, game: Game) -> int:
        """Play random actions to the end; return how many were pushed."""
        rng = self._rng
        pushed = 0
        while not game.is_over:
            actions = game.legal_actions()
            n = len(actions)
            i = int(rng.random() * n)
            if i == n - 1 and actions[i].__class__ is not Place and rng.random() < self.SCOUT_DAMPING:
                i = int(rng.random() * (n - 1))
            action = actions[i]
            if action.__class__ is Place and action.double and rng.random() < self.DOUBLE_DAMPING:
                action = actions[i - 1]     # a single precedes its double
            game.push(action)
            pushed += 1
        return pushed



#: The built-in kinds that search and so take ``seconds`` and ``iterations`` budgets.
SEARCHES = ("search", "uct")

#: Built-in bots by name: ``BOTS[name](seed=...)``.
BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot,
                         "uct": UctBot}


def make_bot(kind: str, seed: int | None = None, **options) -> Bot:
    """A new built-in bot of ``kind`` (a key of :data:`BOTS`); ``options`` go to its class.

    ``make_bot("search", 1, seconds=0.2)`` or ``make_bot("search", 1, iterations=500)``.

    Raises:
        ValueError: for an unknown kind, naming the known ones, or bad options.
    """
    return bot_of(BOTS, kind, seed, **options)
