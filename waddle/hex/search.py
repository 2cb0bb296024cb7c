"""The search bot: Monte Carlo tree search for several players ("max^n" UCT), and the
analysis of a position it gives.

Each iteration walks down the tree choosing by UCB1 from the point of view of the
player to act, expands one new action, finishes the game with :meth:`Game.playout`
(random actions, doubles and scouts less often than singles) and backs up every
player's reward (:func:`waddle.hex.rewards.rewards`) and final totals. When few
placements remain, the endgame is solved exactly instead (:mod:`waddle.hex.endgame`).

:func:`analyse` (or :meth:`SearchBot.analyse`) reports what the search found: the best
action and, for each action searched, every player's expected final score (VP).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from waddle.hex.actions import Action, Place
from waddle.hex.budget import Budget
from waddle.hex.endgame import placements_left, solve
from waddle.hex.game import Game
from waddle.hex.rewards import rewards


@dataclass(frozen=True, slots=True)
class Line:
    """One root action as the search saw it.

    ``visits`` is the number of iterations through it (0 when solved exactly);
    ``reward`` the mean reward in ``[0, 1]`` of the player who plays it; ``scores``
    every player's expected final total in VP after it, by colour.
    """

    action: Action
    visits: int
    reward: float
    scores: dict[str, float]


@dataclass(frozen=True, slots=True)
class Analysis:
    """What a search found in one position.

    ``player`` is the colour to act; ``best`` the action the search plays; ``scores``
    every player's expected final total (VP, by colour) after ``best``; ``lines`` one
    :class:`Line` per root action searched, best first (all legal actions once the
    search has had as many iterations as there are legal actions, and always when
    ``exact``); ``iterations`` the iterations run (0 when ``exact``); ``exact`` whether
    the endgame was solved exactly.
    """

    player: str
    best: Action
    scores: dict[str, float]
    lines: tuple[Line, ...]
    iterations: int
    exact: bool

    def line(self, action: Action) -> Line:
        """The :class:`Line` of ``action``.

        Raises:
            KeyError: if ``action`` was not searched (or is not legal).
        """
        for line in self.lines:
            if line.action == action:
                return line
        raise KeyError(f"{action} was not searched")

    def loss(self, action: Action) -> float:
        """How many VP ``player`` expects to lose by playing ``action`` instead of
        ``best`` (0 for ``best``; may be slightly negative, as estimates are noisy).

        Raises:
            KeyError: if ``action`` was not searched (or is not legal).
        """
        return self.scores[self.player] - self.line(action).scores[self.player]


MODE = __import__("os").environ.get("PRUNE_MODE", "")


def merged(nb, mine, doubles, i):
    group = 0
    frontier = nb[i] & mine
    while frontier:
        group |= frontier
        grow = 0
        while frontier:
            low = frontier & -frontier
            grow |= nb[low.bit_length() - 1]
            frontier ^= low
        frontier = grow & mine & ~group
    return group.bit_count() + (group & doubles).bit_count() + 2


class SearchBot:
    """Max^n Monte Carlo tree search with fast playouts and an exact endgame.

    Args:
        seed: seeds the random generator (expansion order and playouts).
        seconds: the time budget per move in seconds (``None``: no time limit);
            a move always gets at least one iteration, however short the budget.
        iterations: the iteration budget per move (``None``: no limit); with
            ``seconds=None`` the bot is deterministic for a given seed.
        exploration: the UCB1 exploration constant.
        solver: solve the endgame exactly once at most this many placements are
            left (:func:`waddle.hex.endgame.placements_left`; 0: never), whatever
            the budget.
        reuse: keep the tree between moves of one game (the subtree of the position
            reached), else start afresh each move.

    Raises:
        ValueError: if both budgets are ``None``, ``seconds`` is negative, nan or
            infinite, ``iterations`` is less than 1, or ``solver`` is negative.
    """

    name = "search"

    #: In playouts, how often a drawn scout or double is replaced by a single.
    SCOUT_DAMPING = 0.7
    DOUBLE_DAMPING = 0.8

    def __init__(self, seed: int | None = None, *, seconds: float | None = 0.5,
                 iterations: int | None = None, exploration: float = 0.7, solver: int = 5,
                 reuse: bool = False, touching: int = 0, double_damping: float = 0.8,
                 scout_damping: float = 0.7, redraw: float = 0.0, prior: float = 0.0, prune: int = 0) -> None:
        self.prior = prior
        self.prune = prune
        if solver < 0:
            raise ValueError(f"the search bot's solver threshold must be 0 or more, not {solver}")
        self._budget = Budget(seconds, iterations)
        self._rng = random.Random(seed)
        self.exploration = exploration
        self.solver = solver
        self.reuse = reuse
        self.damping = (scout_damping, double_damping, touching, redraw)
        self._kept: _Tree | None = None
        self.last_iterations = 0

    def choose(self, game: Game) -> Action:
        """The action to play for ``game.current_player`` (``game`` is unchanged).

        Raises:
            ValueError: if the game is over.
        """
        actions = game.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        return self.analyse(game).best

    def analyse(self, game: Game) -> Analysis:
        """Search ``game`` within the budget and report it (``game`` is unchanged).

        Raises:
            ValueError: if the game is over.
        """
        if game.is_over:
            raise ValueError("the game is over: nothing to analyse")
        if placements_left(game) <= self.solver:
            self.last_iterations = 0
            return _exact(game)
        tree = self._tree(game)
        self.last_iterations = self._budget.run(tree.iterate)
        self._kept = tree if self.reuse else None
        return tree.analysis(self.last_iterations)

    def _tree(self, game: Game) -> _Tree:
        """A tree for ``game``: the kept one's subtree when ``game`` continues its game."""
        kept = self._kept
        if kept is not None:
            root = kept.descendant(game)
            if root is not None:
                return _Tree(game, self._rng, self.exploration, self.damping, root, self.prior, self.prune)
        return _Tree(game, self._rng, self.exploration, self.damping, None, self.prior, self.prune)


def analyse(game: Game, *, seconds: float | None = 0.5, iterations: int | None = None,
            seed: int | None = None, **options) -> Analysis:
    """Analyse ``game`` with a new :class:`SearchBot` (``options`` go to it).

    Raises:
        ValueError: if the game is over, or for bad budgets or options.
    """
    return SearchBot(seed, seconds=seconds, iterations=iterations, **options).analyse(game)


def _exact(game: Game) -> Analysis:
    """The analysis of ``game`` by the exact endgame."""
    seat = game.current_seat
    lines = [Line(action, 0, rewards(totals)[seat], _by_colour(game, totals))
             for action, totals in solve(game)]
    lines.sort(key=lambda line: -line.reward)      # stable: ties keep the legal order
    return Analysis(game.current_player, lines[0].action, lines[0].scores, tuple(lines), 0, True)


def _by_colour(game: Game, scores) -> dict[str, float]:
    return dict(zip(game.players, scores))


class _Node:
    """A search tree node: the position after ``action``, played by seat ``mover``.

    ``reward`` sums the mover's rewards and ``scores`` every seat's final totals over
    the ``visits`` iterations through the node.
    """

    __slots__ = ("action", "mover", "children", "untried", "visits", "reward", "scores", "bias")

    def __init__(self, action: Action | None, mover: int, untried: list[Action],
                 players: int) -> None:
        self.bias = 0.0
        self.action = action
        self.mover = mover
        self.children: list[_Node] = []
        self.untried = untried          # legal actions not expanded yet (drawn at random)
        self.visits = 0
        self.reward = 0.0
        self.scores = [0.0] * players


class _Tree:
    """The search tree of one move: a private copy of the game, positioned at the root
    between iterations, and the root node."""

    __slots__ = ("game", "rng", "exploration", "root", "moves", "damping", "prior", "biases", "prune", "me")

    def __init__(self, game: Game, rng: random.Random, exploration: float, damping,
                 root: _Node | None = None, prior: float = 0.0, prune: int = 0) -> None:
        self.prune = prune
        self.me = game.current_seat
        self.damping = damping
        self.prior = prior
        if prior:
            seat = game.current_seat
            live = {}
            for action in game.legal_actions():
                game.push(action)
                live[action] = rewards(game.live_totals())[seat]
                game.pop()
            top = max(live.values())
            self.biases = {a: v - top for a, v in live.items()}
        self.game = game.copy()
        self.rng = rng
        self.exploration = exploration
        self.root = root or self._node(None, -1)
        self.moves = game.moves

    def _node(self, action: Action | None, mover: int) -> _Node:
        actions = list(self.game.legal_actions())
        if self.prune:
            g = self.game
            if g._pos >= 0 and (self.prune > 0 or g.current_seat == self.me):
                t = g._t
                mine = g._pieces[g._tracks[g._at][0]]
                nb = t.ice_neighbours
                fished = 0
                if "pools" in MODE:
                    n = len(t.ice)
                    for mask, fish in t.pools:
                        if fish:
                            fished |= mask & ((1 << n) - 1)
                if "merge" in MODE:
                    release = placements_left(g) <= len(g.players) * (g._doubles_left[g.current_seat] + 1)
                    keep = [a for a in actions if not (a.__class__ is Place and a.double) or release
                            or merged(nb, mine, g._doubles, t.index[a.hex]) >= abs(self.prune)]
                else:
                    keep = [a for a in actions if not (a.__class__ is Place and a.double)
                        or (nb[t.index[a.hex]] & mine).bit_count() >= abs(self.prune)
                        or t.bits[a.hex] & fished]
                if "singles" in MODE:
                    touching = [a for a in keep if a.__class__ is Place and not a.double
                                and nb[t.index[a.hex]] & mine]
                    if touching:
                        keep = [a for a in keep if a.__class__ is not Place or a.double
                                or nb[t.index[a.hex]] & mine]
                actions = keep
        return _Node(action, mover, actions, len(self.game.players))

    def descendant(self, game: Game) -> _Node | None:
        """The node of ``game``'s position if ``game`` continues this tree's game, else ``None``."""
        moves = game.moves
        if (game.map is not self.game.map or game.players != self.game.players
                or moves[:len(self.moves)] != self.moves):
            return None
        node = self.root
        for _, action in moves[len(self.moves):]:
            node = next((child for child in node.children if child.action == action), None)
            if node is None:
                return None
        return node

    def iterate(self) -> None:
        """One iteration: select, expand, play out, back up."""
        game = self.game
        path = self._descend()
        totals = game.playout(self.rng.random, *self.damping)
        for _ in range(len(path)):
            game.pop()
        self._back_up(path, totals)

    def _descend(self) -> list[_Node]:
        """Push the actions from the root to a new leaf (or a finished game); return
        the nodes below the root on the way."""
        game, node, path = self.game, self.root, []
        while not node.untried and node.children:
            node = self._select(node)
            game.push(node.action)
            path.append(node)
        if node.untried:
            mover = game.current_seat
            untried = node.untried
            action = untried.pop(int(self.rng.random() * len(untried)))
            game.push(action)
            child = self._node(action, mover)
            if node is self.root and self.prior:
                child.bias = self.prior * self.biases[action]
            node.children.append(child)
            path.append(child)
        return path

    def _select(self, node: _Node) -> _Node:
        """The child with the best UCB1 value for the player to act."""
        spread = self.exploration * math.sqrt(math.log(node.visits))
        best, best_value = node.children[0], -math.inf
        for child in node.children:
            visits = child.visits
            value = (child.reward + child.bias) / visits + spread / math.sqrt(visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def _back_up(self, path: list[_Node], totals: list[int]) -> None:
        shares = rewards(totals)
        self.root.visits += 1
        for node in path:
            node.visits += 1
            node.reward += shares[node.mover]
            scores = node.scores
            for seat, total in enumerate(totals):
                scores[seat] += total

    def analysis(self, iterations: int) -> Analysis:
        """The analysis after ``iterations`` iterations (this move's)."""
        game = self.game
        lines = sorted((Line(child.action, child.visits, child.reward / child.visits,
                             _by_colour(game, [s / child.visits for s in child.scores]))
                        for child in self.root.children if child.visits),
                       key=lambda line: (-line.visits, -line.reward))
        best = lines[0]
        return Analysis(game.current_player, best.action, best.scores, tuple(lines),
                        iterations, False)
