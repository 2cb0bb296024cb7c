"""The game: a position with a stack of actions (RULES.md "Turns and rounds").

A :class:`Game` is created on a :class:`~waddle.hex.maps.Map` with 2 to 5 players named by
colour, in opening turn order. :meth:`Game.apply` checks an action, plays it and returns
the events it caused; :meth:`Game.push` is the unchecked fast path for search and
:meth:`Game.pop` undoes the last action exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from waddle.errors import IllegalActionError
from waddle.hex.actions import Action, Place, Scout
from waddle.hex.events import Event, GameEnded, HalfEnded, Placed, RoundEnded, Scouted
from waddle.hex.hexgrid import Hex, format_hex
from waddle.hex.maps import Map
from waddle.hex.scoring import Score, ScoreSheet, score_sheet, totals
from waddle.hex.tables import Tables

#: The player colours, in the order seats take them by default.
COLOURS = ("red", "blue", "yellow", "green", "purple")

#: Double tokens each player has per game (per half in a mirror match).
DOUBLES = 2


def tables_of(map: Map) -> Tables:
    """The shared :class:`~waddle.hex.tables.Tables` of ``map`` (built on first use)."""
    if map._tables is None:
        map._tables = Tables(map)
    return map._tables


class Game:
    """A game of Waddle in progress.

    Args:
        map: the map to play on.
        players: 2 to 5 distinct colours from :data:`COLOURS`, in opening turn order
            (the first acts first).
        mirror_match: play two halves (RULES.md "Options").

    Raises:
        ValueError: for a wrong number of players (2 to 5, and within ``map.players``),
            an unknown or repeated colour.
    """

    __slots__ = ("map", "players", "mirror_match", "_t", "_pieces", "_doubles", "_occupied",
                 "_doubles_left", "_tracks", "_at", "_scouted", "_half", "_pos", "_shore",
                 "_boards", "_stack")

    def __init__(self, map: Map, players: Sequence[str], *, mirror_match: bool = False) -> None:
        players = tuple(players)
        if not 2 <= len(players) <= 5:
            raise ValueError(f"Waddle is for 2 to 5 players, not {len(players)}")
        low, high = map.players
        if not low <= len(players) <= high:
            raise ValueError(f"this map is for {low} to {high} players, not {len(players)}")
        for colour in players:
            if colour not in COLOURS:
                raise ValueError(f"unknown colour {colour!r}: expected one of {', '.join(COLOURS)}")
        if len(set(players)) != len(players):
            raise ValueError("each player needs a different colour")
        self.map = map
        self.players: tuple[str, ...] = players
        self.mirror_match = mirror_match
        self._t = tables_of(map)
        self._boards: list[tuple[list[int], int, int, list[int]]] = []
        self._stack: list[tuple] = []
        self._start_half(0, tuple(range(len(players))))

    def _start_half(self, half: int, order: tuple[int, ...]) -> None:
        n = len(self.players)
        self._pieces = [0] * n
        self._doubles = 0
        self._occupied = 0
        self._doubles_left = [DOUBLES] * n
        self._tracks = [order, ()]
        self._at = 0
        self._scouted = False
        self._half = half
        self._pos = 0
        self._shore = self._t.shore[self._t.orders[half][0]]

    # -- the position --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (every ice hex filled, in every half)."""
        return self._pos < 0

    @property
    def half(self) -> int:
        """1, or 2 in the second half of a mirror match."""
        return self._half + 1

    @property
    def active_hex(self) -> Hex | None:
        """The active water hex, or ``None`` once the game is over."""
        return None if self._pos < 0 else self._t.orders[self._half][self._pos]

    @property
    def current_player(self) -> str | None:
        """The colour of the player to act (front of the active track), or ``None`` when over."""
        return None if self._pos < 0 else self.players[self._tracks[self._at][0]]

    @property
    def current_seat(self) -> int | None:
        """The seat (index in :attr:`players`) of the player to act, or ``None`` when over."""
        return None if self._pos < 0 else self._tracks[self._at][0]

    @property
    def tracks(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Turn tracks A and B as colours, front (next to act) first."""
        return tuple(tuple(self.players[i] for i in t) for t in self._tracks)  # type: ignore[return-value]

    @property
    def active_track(self) -> int:
        """The active turn track: 0 for A, 1 for B."""
        return self._at

    @property
    def scouted(self) -> bool:
        """Whether anyone has scouted in the current round."""
        return self._scouted

    @property
    def last_round(self) -> bool:
        """Whether the round being played is the game's last (no round after it in this
        half, and no half after this one); ``False`` once the game is over."""
        return (self._pos >= 0 and self._t.next_rounds[self._half][self._pos] < 0
                and not (self.mirror_match and self._half == 0))

    def doubles_left(self, player: str) -> int:
        """Double tokens ``player`` may still place in this half (0 to 2)."""
        return self._doubles_left[self.players.index(player)]

    @property
    def tokens(self) -> dict[Hex, tuple[str, bool]]:
        """Every token on the board: hex -> ``(colour, is_double)``."""
        return self._tokens(self._pieces, self._doubles)

    def tokens_of_half(self, half: int) -> dict[Hex, tuple[str, bool]]:
        """The tokens of ``half`` (1 or 2, at most :attr:`half`): the board as that half
        ended (mirror match), or the board now for the half being played.

        Raises:
            IndexError: a half not played yet.
        """
        if half == self.half:
            return self.tokens
        if not 1 <= half < self.half:
            raise IndexError(f"half {half} has not been played")
        pieces, doubles, *_ = self._boards[half - 1]
        return self._tokens(pieces, doubles)

    def _tokens(self, pieces: list[int], doubles: int) -> dict[Hex, tuple[str, bool]]:
        out = {}
        for player, bits in zip(self.players, pieces):
            for hex in self._t.hexes(bits):
                out[hex] = (player, bool(doubles >> self._t.index[hex] & 1))
        return out

    @property
    def empty_ice(self) -> list[Hex]:
        """The ice hexes with no token, in ``(q, r)`` order."""
        return self._t.hexes(((1 << len(self._t.ice)) - 1) & ~self._occupied)

    @property
    def moves(self) -> list[tuple[str, Action]]:
        """Every action played so far with its player, first to last."""
        return [(self.players[(t0, t1)[at][0]], action) for action, t0, t1, at, *_ in self._stack]

    def key(self) -> tuple:
        """A hashable key of the position: of two games on one map with the same players,
        equal keys mean the same board (both halves), turn tracks, active hex and doubles
        left, so the same legal actions now and the same final scores for the same actions.
        """
        return (tuple(self._pieces), self._doubles, self._tracks[0], self._tracks[1], self._at,
                self._scouted, self._pos, self._half, tuple((tuple(p), d) for p, d, *_ in self._boards))

    def moves_of_half(self, half: int) -> list[tuple[str, Action]]:
        """The actions played in ``half`` (1 or 2) with their players, first to last (the
        action that ended a half belongs to it)."""
        return [move for move, entry in zip(self.moves, self._stack) if entry[-1] + 1 == half]

    def __len__(self) -> int:
        """The number of actions played."""
        return len(self._stack)

    # -- legality -------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions, places first (in ``(q, r)`` order, single before double), then scout."""
        if self._pos < 0:
            return ()
        track = self._tracks[self._at]
        key = (self._shore & ~self._occupied, self._doubles_left[track[0]] > 0, len(track) > 1)
        return self._t.legal.get(key) or self._t.legal_actions(*key)

    def check(self, action: Action) -> None:
        """Raise if ``action`` is illegal now; do nothing if it is legal.

        Raises:
            IllegalActionError: with the rule that forbids it (game over, hex off the
                map, water, taken, not next to the active hex, no doubles left, last
                player placing).
        """
        if self._pos < 0:
            raise IllegalActionError("the game is over")
        player = self.current_player
        if isinstance(action, Scout):
            if len(self._tracks[self._at]) == 1:
                raise IllegalActionError(
                    f"last player placing: {player} is the only player left on the active "
                    "turn track and must place until the round ends")
            return
        if not isinstance(action, Place):
            raise IllegalActionError(f"not an action: {action!r}")
        terrain = self.map.terrain(action.hex)
        if terrain is None:
            raise IllegalActionError(f"hex {format_hex(action.hex)} is not on the map")
        if terrain == "water":
            raise IllegalActionError(f"hex {format_hex(action.hex)} is water: penguins go on ice hexes only")
        bit = self._t.bits[action.hex]
        if self._occupied & bit:
            raise IllegalActionError(f"ice hex {format_hex(action.hex)} already holds a penguin")
        if not self._shore & bit:
            raise IllegalActionError(f"ice hex {format_hex(action.hex)} is not next to the "
                                     f"active hex {format_hex(self.active_hex)}")
        if action.double and not self._doubles_left[self._tracks[self._at][0]]:
            raise IllegalActionError(
                f"{player} has no doubles left ({DOUBLES} per player"
                f"{' per half' if self.mirror_match else ''})")

    def touches_own(self, hex: Hex) -> bool:
        """Whether ice ``hex`` is next to a token of the current player (``False`` when
        the game is over)."""
        player = self.current_seat
        return player is not None and bool(self._t.ice_neighbours[self._t.index[hex]] & self._pieces[player])

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # -- playing ----------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Check and play ``action`` for the current player; return the events it caused.

        Events come in order: :class:`Placed` or :class:`Scouted`; at a round's end,
        :class:`HalfEnded` (mirror match, end of half 1) and :class:`RoundEnded`; at the
        game's end, :class:`GameEnded`.

        Raises:
            IllegalActionError: see :meth:`check`; the game is unchanged.
        """
        self.check(action)
        index = self._tracks[self._at][0]
        player, half, shore = self.players[index], self._half, self._shore
        left = self._doubles_left[index] - (isinstance(action, Place) and action.double)
        self.push(action)
        if isinstance(action, Scout):
            return [Scouted(player)]
        events: list[Event] = [Placed(player, action.hex, action.double, left)]
        if half != self._half:
            events.append(HalfEnded(1, self._sheet(*self._boards[0][:2])))
        elif shore & ~self._occupied:
            return events
        events.append(RoundEnded(self.active_hex, self.tracks, self._at))
        if self.is_over:
            result = self.result()
            events.append(GameEnded(result.scores, result.winners, result.halves))
        return events

    def push(self, action: Action) -> None:
        """Play a legal ``action`` without checking it (the fast path for search).

        The action must come from :meth:`legal_actions`; anything else leaves the game
        in an undefined state. Undo with :meth:`pop`.
        """
        tracks, at = self._tracks, self._at
        track = tracks[at]
        player = track[0]
        self._stack.append((action, tracks[0], tracks[1], at, self._scouted, self._pos, self._half))
        if action.__class__ is Scout:
            tracks[at] = track[1:]
            tracks[1 - at] += (player,)
            self._scouted = True
            return
        bit = self._t.bits[action.hex]
        self._pieces[player] |= bit
        self._occupied = occupied = self._occupied | bit
        if action.double:
            self._doubles |= bit
            self._doubles_left[player] -= 1
        tracks[at] = track[1:] + (player,)
        if not self._shore & ~occupied:
            self._end_round()

    def _end_round(self) -> None:
        """Round end (RULES.md): scouts' track becomes active; the next active hex."""
        if self._scouted:
            at = self._at
            self._tracks[1 - at] += self._tracks[at]
            self._tracks[at] = ()
            self._at = 1 - at
            self._scouted = False
        order, shore, occupied = self._t.orders[self._half], self._t.shore, self._occupied
        for pos in range(self._pos + 1, len(order)):
            if shore[order[pos]] & ~occupied:
                self._pos = pos
                self._shore = shore[order[pos]]
                return
        if self.mirror_match and self._half == 0:
            self._boards.append((self._pieces, self._doubles, self._occupied, self._doubles_left))
            self._start_half(1, tuple(reversed(range(len(self.players)))))
        else:
            self._pos = -1

    def pop(self) -> Action:
        """Undo the last action and return it; the game is exactly as it was before it.

        Raises:
            IndexError: if no action has been played.
        """
        action, t0, t1, at, scouted, pos, half = self._stack.pop()
        if half != self._half:
            self._pieces, self._doubles, self._occupied, self._doubles_left = self._boards.pop()
            self._half = half
        self._tracks = [t0, t1]
        self._at = at
        self._scouted = scouted
        self._pos = pos
        self._shore = self._t.shore[self._t.orders[half][pos]]
        if action.__class__ is Place:
            player = (t0, t1)[at][0]
            bit = self._t.bits[action.hex]
            self._pieces[player] &= ~bit
            self._occupied &= ~bit
            if action.double:
                self._doubles &= ~bit
                self._doubles_left[player] += 1
        return action

    def snapshot(self) -> Snapshot:
        """The position as plain data, for a playout of the caller's own (:class:`Snapshot`;
        fresh lists, so the caller may change them; the search's are
        :mod:`waddle.hex.playout`)."""
        return Snapshot(list(self._pieces), self._doubles, self._occupied, list(self._doubles_left),
                        [list(self._tracks[0]), list(self._tracks[1])], self._at, self._scouted,
                        self._pos, self._half, [(list(p), d) for p, d, *_ in self._boards])

    def copy(self) -> Game:
        """An independent copy of this game, with its action stack."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other._pieces = list(self._pieces)
        other._doubles_left = list(self._doubles_left)
        other._tracks = list(self._tracks)
        other._boards = [(list(p), d, o, list(left)) for p, d, o, left in self._boards]
        other._stack = list(self._stack)
        return other

    # -- scores -------------------------------------------------------------------------

    def _sheet(self, pieces: list[int], doubles: int) -> ScoreSheet:
        return score_sheet(self._t, self.players, pieces, doubles)

    def live_totals(self) -> list[int]:
        """Each player's total VP if the game ended now, in seat order (fast path for bots)."""
        now = totals(self._t, self._pieces, self._doubles)
        for pieces, doubles, *_ in self._boards:
            now = [a + b for a, b in zip(now, totals(self._t, pieces, doubles))]
        return now

    def result(self) -> Result:
        """The score now: final once :attr:`is_over`, else the live score (RULES.md "Scoring")."""
        halves = tuple(self._sheet(p, d) for p, d, *_ in self._boards)
        halves += (self._sheet(self._pieces, self._doubles),)
        scores = {p: sum((h.scores[p] for h in halves), Score()) for p in self.players}
        best = max(s.total for s in scores.values())
        leaders = tuple(p for p, s in scores.items() if s.total == best)
        return Result(self.is_over, scores, leaders if self.is_over else (), leaders, halves)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self.current_player} to act at {self.active_hex}"
        return f"<Game {'/'.join(self.players)}, {len(self)} actions, {state}>"


class Snapshot(NamedTuple):
    """A position as plain data (:meth:`Game.snapshot`), over the map's
    :class:`~waddle.hex.tables.Tables`: ``pieces`` per seat and ``doubles`` are ice
    bitsets of this half's board, ``occupied`` their union; ``doubles_left`` per seat;
    ``tracks`` turn tracks A and B as seats, front first; ``at`` the active track (0 or
    1); ``scouted`` whether anyone scouted this round; ``pos`` the active hex's index in
    ``Tables.orders[half]`` (-1: over); ``half`` 0, or 1 in a mirror match's second half;
    ``earlier`` the ``(pieces, doubles)`` of the halves already played."""

    pieces: list[int]
    doubles: int
    occupied: int
    doubles_left: list[int]
    tracks: list[list[int]]
    at: int
    scouted: bool
    pos: int
    half: int
    earlier: list[tuple[list[int], int]]


@dataclass(frozen=True, slots=True)
class Result:
    """The score of a game.

    ``scores`` are totals per player (both halves added in a mirror match);
    ``winners`` the players with the highest total once ``finished`` (a tie shares
    the victory), else empty; ``leaders`` the players ahead now; ``halves`` one
    :class:`~waddle.hex.scoring.ScoreSheet` per half played (the last one live while
    the game goes on).
    """

    finished: bool
    scores: dict[str, Score]
    winners: tuple[str, ...]
    leaders: tuple[str, ...]
    halves: tuple[ScoreSheet, ...]
