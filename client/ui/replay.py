"""The replay viewer's session: a game record stepped through, instead of a network table.

:class:`Replay` holds a record's steps: the match at the start (``Ruleset.replay``), each
action's seat and events as a spectator saw them, and, for the analysis, each step's
position as its mover knew it (:meth:`waddle.ruleset.Match.position`). Step ``k`` is the
game after its first ``k`` actions (0: the start, ``len(replay)``: the last action).
:class:`ReplaySession` is what the terminal UI (:class:`client.ui.app.WaddleApp`) runs over
instead of a :class:`~client.ui.session.RemoteSession`: its :attr:`~ReplaySession.state` is
a :class:`client.state.TableState` fed the messages a host would have sent a spectator at
that step, so every game's view draws it as it does live. Going forward one step applies
one ``played``; any other jump builds the state afresh.

The view is the spectator's (DOWNTOWN.md "What is public and what is secret"): a record
holds every hand and the deck order, but the viewer shows only what everybody at the table
saw, so watching a running host's save file gives nothing away, and a move is judged on
what its player knew (the analysis of a step sees only the mover's position). A game that
keeps secrets (:attr:`waddle.ruleset.Ruleset.secrets`) is analysed only once it is over:
before, the mover's position holds a hand nobody else may know, so the replay keeps no
position and every analysis is refused (:data:`IN_PLAY`).

With ``follow``, :meth:`ReplaySession.run` looks at the file every
:data:`client.savefile.POLL_SECONDS` and takes in the actions added since (a running
host's save); a viewer at the last step stays at the last step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import trio

from client.savefile import POLL_SECONDS, FileWatch, choosers, read_record, seat_names
from client.state import TableState
from protocol.messages import Lobby, Played, SeatInfo, Settings, Snapshot, Watching, Welcome
from waddle.errors import RecordError
from waddle.ruleset import Analysis, Ruleset, ruleset_of_record, rulesets

#: What every wish of the shell answers in a replay.
NOT_LIVE = "this is a replay: nothing is sent to a table"
#: Why a game that keeps secrets is not analysed before it is over: the keys' refusal, and
#: the panel's line.
IN_PLAY = "no analysis of a game in play: the search would see the hidden hands"
IN_PLAY_LINE = "No analysis until the game is over: the hands are hidden"
#: A move whose mover's expected final score dropped by this share of the game's highest
#: expected score (at least the points after it) is a blunder (``??``), half of it a
#: mistake (``?``), as chess sites mark them.
BLUNDER, BLUNDER_POINTS = 0.10, 2.0
MISTAKE, MISTAKE_POINTS = 0.05, 1.0


def record_ruleset(data: Mapping[str, Any], source: str) -> Ruleset:
    """The ruleset whose record ``data`` is.

    Raises:
        waddle.errors.RecordError: of no known game (naming ``source``).
    """
    ruleset = ruleset_of_record(data)
    if ruleset is None:
        known = " or ".join(repr(r.record_format) for r in rulesets().values())
        raise RecordError(f"{source}: format: expected {known}, found {data.get('format')!r}")
    return ruleset


class Replay:
    """The steps of one record (see the module docstring), and the analysis found so far.

    Attributes:
        ruleset: the record's game.
        source: where the record came from (a file name), for messages.
        actions: ``(seat, action)`` of every action, in order.
        events: each action's events as a spectator saw them.
        positions: for each step, the position its mover knew (the last: the end's, or in
            a record that stops before the end, the next mover's); none while
            :attr:`analysable` is false.
        pauses: after each action, what the table paused for (``Match.pause_after``: the
            hex game's half-time), so that step shows what the table showed then (the
            first half's final board and score).
        analyses: the analysis of each step analysed so far (step -> :class:`Analysis`).
        step: the step shown.
        note: what the banner adds ("following FILE", or why the file cannot be read now).
        left_out: what of the file's journal was left out and why ("": nothing), for the
            panel: the steps end before the actions the host had journalled.
    """

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.ruleset = record_ruleset(data, source)
        self.source = source
        match, self.actions = self.ruleset.replay(data, source=source)
        self.start = match.view(None)
        self.events: list[list[Any]] = []
        self.positions: list[Any] = []
        self.pauses: list[str | None] = []
        for seat, action in self.actions:
            self.positions.append(match.position(seat))
            events = match.apply(seat, action)
            self.pauses.append(match.pause_after(events))
            self.events.append(match.redact(events, None))
        to_act = match.to_act()   # a game that goes on: the next mover's (the lowest of several)
        self.positions.append(match.position(min(to_act) if to_act else 0))
        self.finished = match.is_over
        #: Whether the steps may be analysed: a game without secrets, or one that is over
        #: (its record given out); else the movers' positions (their hands) are dropped.
        self.analysable = self.finished or not self.ruleset.secrets
        if not self.analysable:
            self.positions = []
        self.choosers = choosers(data, len(self.actions))
        names = seat_names(data)
        self.seats = [SeatInfo(seat=i, label=label, colour=self.ruleset.label_look(label).colour,
                               name=names.get(label, label), connected=True, ready=True)
                      for i, label in enumerate(match.labels)]
        self.analyses: dict[int, Analysis] = {}
        self.step = 0
        #: What the banner adds (the file followed, or why it cannot be read now).
        self.note = ""
        self.left_out = ""

    def __len__(self) -> int:
        """The number of actions (the last step's number)."""
        return len(self.actions)

    def extends(self, other: Replay) -> bool:
        """Whether this record is ``other``'s game with more actions (or the same)."""
        return (self.seats == other.seats and self.start == other.start
                and self.actions[:len(other.actions)] == other.actions)

    @property
    def refusal(self) -> str:
        """Why the steps may not be analysed now, for the keys ("" if they may)."""
        return "" if self.analysable else IN_PLAY

    def mover(self, step: int) -> int | None:
        """The seat that played the action after ``step`` (``None`` at the last step)."""
        return self.actions[step][0] if step < len(self.actions) else None

    def drop(self, step: int) -> float | None:
        """How much action ``step`` (0 for the first) cost its mover: the mover's expected
        final score before it (the search's, with the best move) minus after it (the next
        step's analysis), in points; ``None`` until both steps are analysed."""
        before, after = self.analyses.get(step), self.analyses.get(step + 1)
        if before is None or after is None or step >= len(self.actions):
            return None
        mover = self.actions[step][0]
        return before.expected[mover] - after.expected[mover]

    def marks(self) -> dict[int, str]:
        """Action -> ``"??"`` (a blunder) or ``"?"`` (a mistake), for the actions analysed
        (see :data:`BLUNDER`)."""
        top = max((max(a.expected) for a in self.analyses.values()), default=0.0)
        out = {}
        for step in range(len(self.actions)):
            drop = self.drop(step)
            if drop is not None and drop >= max(BLUNDER * top, BLUNDER_POINTS):
                out[step] = "??"
            elif drop is not None and drop >= max(MISTAKE * top, MISTAKE_POINTS):
                out[step] = "?"
        return out

    def lobby(self, step: int) -> Lobby:
        """The ``lobby`` message at ``step`` (finished at the last step of a finished game;
        paused after an action the table paused after)."""
        phase = "finished" if self.finished and step == len(self) else "playing"
        settings = Settings(players=len(self.seats), options=self.ruleset.options_type())
        pause = self.pauses[step - 1] if step else None
        return Lobby(phase=phase, settings=settings, seats=self.seats, pause=pause)

    def played(self, step: int) -> Played:
        """The ``played`` message of action ``step`` (1 for the first)."""
        seat, _ = self.actions[step - 1]
        return Played(version=step, seat=seat, events=self.events[step - 1], bot=self.choosers[step - 1])

    def state_at(self, step: int) -> TableState:
        """A fresh table state at ``step`` (no listeners), as a spectator would have it."""
        state = TableState()
        state.apply(Welcome(protocol=0, server="replay", game=self.ruleset.name, code_required=False,
                            phase="playing"))
        state.apply(Watching())
        state.apply(Snapshot(version=0, view=self.start, lobby=self.lobby(0)))
        for number in range(1, step + 1):
            state.apply(self.played(number))
        state.apply(self.lobby(step))
        return state


class ReplaySession:
    """The session of the replay viewer (see the module docstring): the same attributes and
    wishes as :class:`~client.ui.session.RemoteSession`, every wish refused.

    Args:
        path: the record or save file (``-``: standard input, read once); with ``record``,
            only the record's name for people (``history game 12``).
        follow: take in the actions the file gains while it is shown (a game not over:
            then the viewer opens at its last step, the game as it is now).
        record: the record itself (a game of the history: ``waddle replay`` with no
            file), never followed.

    Raises:
        waddle.errors.RecordError: the file cannot be read or does not replay.
    """

    address = ""
    record_path = None
    error = NOT_LIVE
    #: Why the file could not be used at the last look ("" if it could).
    reload_error = ""

    def __init__(self, path: str, *, follow: bool = False, record: dict[str, Any] | None = None) -> None:
        self.path = path
        source = "<stdin>" if path == "-" else path
        self.replay = Replay(record, source) if record is not None else self._replay(source)
        self.follow = follow and record is None and not self.replay.finished
        self._listeners: list[Callable[[], None]] = []
        self.replay.step = len(self.replay) if self.follow else 0
        self._state = self.replay.state_at(self.replay.step)

    @property
    def state(self) -> TableState:
        """The table as a spectator saw it at the step shown."""
        return self._state

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change of :attr:`state` (a step, a new action)."""
        self._listeners.append(listener)
        self._state.listeners.append(listener)

    def go(self, step: int, *, afresh: bool = False) -> None:
        """Show ``step`` (clamped to the record's steps); ``afresh``: build the state anew
        even for the next step (the steps changed)."""
        replay = self.replay
        step = max(0, min(len(replay), step))
        if step == replay.step + 1 and not afresh:
            replay.step = step
            self._state.apply(replay.played(step))
            self._state.apply(replay.lobby(step))
            return
        replay.step = step
        self._state = replay.state_at(step)
        self._state.listeners.extend(self._listeners)
        self._state.changed()

    @property
    def follow(self) -> bool:
        """Whether :meth:`run` follows the file (never standard input)."""
        return self._follow

    @follow.setter
    def follow(self, value: bool) -> None:
        self._follow = value and self.path != "-"
        self.replay.note = f"following {self.path}" if self._follow else ""

    def _replay(self, source: str) -> Replay:
        """The file's steps (:func:`read_record`), with what of its journal was left out."""
        problems: list[str] = []
        replay = Replay(read_record(self.path, problem=problems.append), source)
        replay.left_out = "; ".join(problems)
        return replay

    async def run(self) -> None:
        """Follow the file (with :attr:`follow`), else wait; until cancelled."""
        watch = FileWatch(self.path) if self.follow else None
        while self.follow:
            await trio.sleep(POLL_SECONDS)
            if watch.changed():
                self.reload()
        await trio.sleep_forever()

    def reload(self) -> None:
        """Read the file again: a game with more actions extends the steps (a viewer at the
        last step goes on to the new last); another game (a take-back, a rematch saved in
        place) replaces them. A file that cannot be used now keeps what is shown, and the
        next change is tried again."""
        old = self.replay
        try:
            fresh = self._replay(old.source)
        except RecordError as exc:
            self.reload_error = old.note = str(exc)
            self._state.changed()
            return
        self.reload_error = ""
        if fresh.finished:
            self._follow = False   # the game is over: nothing more will come
        fresh.note = f"following {self.path}" if self._follow else ""
        at_end = old.step == len(old)
        if fresh.extends(old):
            fresh.analyses = old.analyses
        self.replay = fresh
        self.go(len(fresh) if at_end else old.step, afresh=True)

    # -- wishes: none can be sent ---------------------------------------------------------

    def act(self, action: Any) -> bool:
        return False

    def undo(self) -> bool:
        return False

    def look_now(self) -> bool:
        """A replay has no host to look for."""
        return False

    def go_on(self) -> bool:
        return False

    def rematch(self, accept: bool) -> bool:
        return False

    def say(self, text: str) -> bool:
        return False

    def configure(self, settings: Settings) -> bool:
        return False

    def start(self) -> bool:
        return False

    def ready(self, ready: bool) -> bool:
        return False
