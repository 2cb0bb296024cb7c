"""The search bot: Monte Carlo tree search for several players ("max^n" UCT), and the
analysis of a position it gives.

Each iteration walks down the tree choosing by UCB1 from the point of view of the
player to act, expands one new action, finishes the game with a playout of the search's
own (:mod:`waddle.hex.playout`: random actions, scouts less often than places, scored
faster than the engine does) and backs up every player's reward
(:func:`waddle.hex.rewards.rewards`) and final totals. The playouts through each root
action read *common random numbers*: the ``k``-th playout through one root action reads
the same random number for each decision of the game as the ``k``-th through any other.
The rounds' hexes are known in advance (each round fills its active hex's shore), so
such playouts mostly place the same tokens after the round at hand, and the difference
between two root actions is measured with much less noise. Doubles follow the *touching
rule* (on by default): a double is searched, and played in playouts, only next to one
of the player's own tokens, where it grows a waddle; elsewhere the single is played. So
the search keeps its doubles for its waddles and considers fewer actions; nor does it
search a scout in the game's last round, where it only passes (both rules:
:mod:`waddle.hex.pruning`). When few placements remain, the endgame is solved exactly instead (:mod:`waddle.hex.endgame`).

:func:`analyse` (or :meth:`SearchBot.analyse`) reports what the search found: the best
action and, for each action searched, every player's expected final score (VP).
The measurements behind these choices are in ``docs/benchmarks.md`` ("Hex search bot").
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from waddle.hex.actions import Action
from waddle.hex.budget import Budget
from waddle.hex.endgame import placements_left, solve
from waddle.hex.game import Game, tables_of
from waddle.hex.playout import Playouts
from waddle.hex.pruning import searched_actions
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
    :class:`Line` per root action searched, best first: the most visited, or when
    ``exact`` the highest reward (when ``exact``, every legal action; else, once the
    search has had as many iterations as it has actions, every action of
    :func:`waddle.hex.pruning.searched_actions`, or every legal one for an
    ``every_action`` analysis); ``iterations`` the iterations run (0 when ``exact``);
    ``exact`` whether the endgame was solved exactly.
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
        ``best`` (a blunder check). It can be negative: ``best`` maximises the reward
        (winning, then the margin), not the player's own score, and estimates are noisy.

        Raises:
            KeyError: if ``action`` was not searched (or is not legal).
        """
        return self.scores[self.player] - self.line(action).scores[self.player]


class SearchBot:
    """Max^n Monte Carlo tree search with fast playouts, the touching rule for
    doubles, no scout in the last round and an exact endgame (see the module
    docstring).

    Args:
        seed: seeds the random generator (expansion order and playouts).
        seconds: the time budget per move in seconds (``None``: no time limit);
            a move always gets at least one iteration, however short the budget.
        iterations: the iteration budget per move (``None``: no limit); with
            ``seconds=None`` the bot is deterministic for a given seed.
        exploration: the UCB1 exploration constant (rewards are in ``[0, 1]``); 0.35
            measured a little better than 0.7, the ``uct`` bot's (docs/benchmarks.md).
        solver: solve the endgame exactly once at most this many placements are
            left (:func:`waddle.hex.endgame.placements_left`; 0: never); a solve that
            outlasts half the time budget (``SOLVER_SHARE``) gives way to the search
            for the time left. With an iteration budget only, it always finishes.
            The default, 4, solves in about 20 ms on a 4-player standard map.
        touching: the touching rule for doubles (else every double is searched,
            and playouts play a drawn double with probability 1 - ``DOUBLE_DAMPING``).
        common: common random numbers: the playouts after each root action read the
            same random numbers for the same decisions of the game (by the visits of
            that action: :meth:`waddle.hex.playout.Playouts.run`), else fresh ones.

    Raises:
        ValueError: if both budgets are ``None``, ``seconds`` is negative, nan or
            infinite, ``iterations`` is less than 1, or ``solver`` is negative.
    """

    name = "search"

    #: In playouts, how often a drawn scout is redrawn among the places.
    SCOUT_DAMPING = 0.7
    #: In playouts without the touching rule, how often a drawn double becomes a single.
    DOUBLE_DAMPING = 0.8
    #: Common random numbers serve the first this many visits of each root action.
    COMMON_STREAMS = 1024
    #: The share of the time budget an exact endgame may take before it gives way.
    SOLVER_SHARE = 0.5

    def __init__(self, seed: int | None = None, *, seconds: float | None = 0.5,
                 iterations: int | None = None, exploration: float = 0.35, solver: int = 4,
                 touching: bool = True, common: bool = True) -> None:
        if solver < 0:
            raise ValueError(f"the search bot's solver threshold must be 0 or more, not {solver}")
        self._budget = Budget(seconds, iterations)
        self._rng = random.Random(seed)
        self.exploration = exploration
        self.solver = solver
        self.touching = touching
        self.policy = (self.SCOUT_DAMPING, 0.0 if touching else self.DOUBLE_DAMPING, touching)
        self.common = common
        self.last_iterations = 0        # iterations of the last move (0: solved, or forced)
        self._playouts: Playouts | None = None      # of the last game searched

    @property
    def seconds(self) -> float | None:
        """The time budget per move in seconds (``None``: an iteration budget only)."""
        return self._budget.seconds

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

    def analyse(self, game: Game, stop: Callable[[], bool] | None = None,
                every_action: bool = False) -> Analysis:
        """Search ``game`` within the budget, or until ``stop()`` is true (after at least one
        iteration), and report it (``game`` is unchanged). ``every_action``: the root weighs
        every legal action, doubles the touching rule would leave out too (an analysis
        asked about any move; below the root and in playouts the rule holds).

        Raises:
            ValueError: if the game is over.
        """
        if game.is_over:
            raise ValueError("the game is over: nothing to analyse")
        start = time.perf_counter()
        if placements_left(game) <= self.solver:
            try:
                analysis = _exact(game, self._budget.deadline(start, self.SOLVER_SHARE),
                                  self._playouts_of(game))
            except TimeoutError:
                pass                    # too slow: search for what is left of the budget
            else:
                self.last_iterations = 0
                return analysis
        tree = _Tree(game, self._playouts_of(game), self._rng, self.exploration, self.touching,
                     self.policy, self.common, every_action)
        self.last_iterations = self._budget.run(tree.iterate, start, stop)
        return tree.analysis(self.last_iterations)

    def _playouts_of(self, game: Game) -> Playouts:
        """The playouts of ``game``'s map (those of the last game, when they fit)."""
        if self._playouts is None or not self._playouts.fits(game):
            self._playouts = Playouts(tables_of(game.map), len(game.players), game.mirror_match)
        return self._playouts


def analyse(game: Game, *, seconds: float | None = 0.5, iterations: int | None = None,
            seed: int | None = None, stop: Callable[[], bool] | None = None,
            every_action: bool = False, **options) -> Analysis:
    """Analyse ``game`` (a hex :class:`Game` not over; unchanged) for the player to act,
    with a new :class:`SearchBot` and its budget: ``seconds`` of thinking and/or
    ``iterations`` (``seconds=None`` with ``iterations``: deterministic for ``seed``);
    ``options`` are the bot's other options (``solver``, ``exploration``, ...); ``stop``:
    a callable that ends the search early when true (a viewer's Esc); ``every_action``:
    weigh every legal action at the root (:meth:`SearchBot.analyse`).

    Returns an :class:`Analysis`: ``player`` (the colour to act), ``best`` (the action
    the search plays), ``scores`` (every player's expected final total after ``best``, VP
    by colour: the evaluation), ``lines`` (each root action searched with its visits,
    mean reward and expected final totals by colour, best first), ``iterations`` and
    ``exact`` (solved exactly when few placements remain: then the scores are exact
    max^n values). For example, after ``a = analyse(game, seconds=1)``: draw
    ``a.best``, plot ``a.scores[a.player]``, and mark a move played as a blunder by
    ``a.loss(move)`` (VP).

    Raises:
        ValueError: if the game is over, or for bad budgets or options.
    """
    return SearchBot(seed, seconds=seconds, iterations=iterations, **options).analyse(game, stop, every_action)


def _exact(game: Game, deadline: float | None, playouts: Playouts) -> Analysis:
    """The analysis of ``game`` by the exact endgame, scored by ``playouts``.

    Raises:
        TimeoutError: past ``deadline`` (:func:`waddle.hex.endgame.solve`).
    """
    seat = game.current_seat
    lines = [Line(action, 0, rewards(totals)[seat], _by_colour(game, totals))
             for action, totals in solve(game, deadline, playouts.live_totals, _unpruned_doubles)]
    lines.sort(key=lambda line: -line.reward)      # stable: ties keep the legal order
    return Analysis(game.current_player, lines[0].action, lines[0].scores, tuple(lines), 0, True)


def _unpruned_doubles(game: Game) -> tuple[Action, ...]:
    """The actions the exact endgame weighs below its root: no scout in the last round,
    but every double (a double left unplaced at the end is lost, and any double adds 2 to
    a pool's strength)."""
    return searched_actions(game, touching=False)


def _by_colour(game: Game, scores) -> dict[str, float]:
    return dict(zip(game.players, scores))


class _Node:
    """A search tree node: the position after ``action``, played by seat ``mover``.

    ``reward`` sums the mover's rewards over the ``visits`` iterations through the
    node; for the root's children, ``scores`` sums every seat's final totals too.
    """

    __slots__ = ("action", "mover", "children", "untried", "visits", "reward", "scores")

    def __init__(self, action: Action | None, mover: int, untried: list[Action],
                 players: int) -> None:
        self.action = action
        self.mover = mover
        self.children: list[_Node] = []
        self.untried = untried          # actions not expanded yet (drawn at random)
        self.visits = 0
        self.reward = 0.0
        self.scores = [0.0] * players


class _Tree:
    """The search tree of one move: a private copy of the game, positioned at the root
    between iterations, and the root node."""

    __slots__ = ("game", "playouts", "rng", "exploration", "touching", "policy", "common", "size",
                 "streams", "root")

    def __init__(self, game: Game, playouts: Playouts, rng: random.Random, exploration: float,
                 touching: bool, policy: tuple, common: bool, every_action: bool = False) -> None:
        self.game = game.copy()
        self.playouts = playouts
        self.rng = rng
        self.exploration = exploration
        self.touching = touching
        self.policy = policy            # the arguments of Playouts.run after draws and first
        self.common = common
        self.size = playouts.decisions(game)               # random numbers a stream holds
        self.streams: list[list[float]] = []               # by the visits of a root action
        self.root = self._node(None, -1, prune=not every_action)

    def _node(self, action: Action | None, mover: int, prune: bool = True) -> _Node:
        """A new node for the game's position, reached by ``action`` of seat ``mover``
        (``prune``: its actions are :func:`waddle.hex.pruning.searched_actions`, else
        every legal action)."""
        game = self.game
        actions = searched_actions(game, self.touching) if prune else game.legal_actions()
        return _Node(action, mover, list(actions), len(game.players))

    def iterate(self) -> None:
        """One iteration: select, expand, play out, back up."""
        game = self.game
        path = self._descend()
        totals = self.playouts.run(game, self._stream(path[0].visits), len(path), *self.policy)
        for _ in range(len(path)):
            game.pop()
        self._back_up(path, totals)

    def _stream(self, visits: int) -> list[float]:
        """The random numbers of a playout through a root action visited ``visits`` times:
        the ``visits``-th common stream, or fresh ones without common random numbers and
        past ``COMMON_STREAMS``."""
        random, size = self.rng.random, self.size
        if not self.common or visits >= SearchBot.COMMON_STREAMS:
            return [random() for _ in range(size)]
        streams = self.streams
        while len(streams) <= visits:
            streams.append([random() for _ in range(size)])
        return streams[visits]

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
            node.children.append(child)
            path.append(child)
        return path

    def _select(self, node: _Node) -> _Node:
        """The child with the best UCB1 value for the player to act."""
        spread = self.exploration * math.sqrt(math.log(node.visits))
        best, best_value = node.children[0], -math.inf
        for child in node.children:
            visits = child.visits
            value = child.reward / visits + spread / math.sqrt(visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def _back_up(self, path: list[_Node], totals: list[int]) -> None:
        shares = rewards(totals)
        self.root.visits += 1
        for node in path:
            node.visits += 1
            node.reward += shares[node.mover]
        scores = path[0].scores         # kept for the root's children only, for analysis
        for seat, total in enumerate(totals):
            scores[seat] += total

    def analysis(self, iterations: int) -> Analysis:
        """The analysis after ``iterations`` iterations."""
        game = self.game
        lines = sorted((Line(child.action, child.visits, child.reward / child.visits,
                             _by_colour(game, [s / child.visits for s in child.scores]))
                        for child in self.root.children),
                       key=lambda line: (-line.visits, -line.reward))
        best = lines[0]
        return Analysis(game.current_player, best.action, best.scores, tuple(lines),
                        iterations, False)
