"""The table: one hosted game from lobby to finished, the only authority over it.

A :class:`Table` plays one game (a :class:`waddle.ruleset.Ruleset`) and knows it only
through that interface. It holds the seats (:mod:`server.seats`), the spectators, the
event log (:mod:`server.log`) and the :class:`~waddle.ruleset.Match`, and hands each
decoded client message (:meth:`Table.handle`) to the part of the table it is about, a
room of its own:

- :mod:`server.lobby`: the lobby and seats (join, reclaim, watch, ready, chat, leave;
  the owner's settings and start);
- :mod:`server.games`: the start of a game and rematches;
- :mod:`server.acts`: the act pipeline (checks, apply, written ahead, then told),
  take-backs and pauses;
- :mod:`server.audiences`: what each audience (a seat, or the spectators) may see, and
  sending it;
- :mod:`server.saves`: what the save file holds, and a table resumed from one.

Everything the table sends goes through its :class:`~server.outbox.Outbox`: one call
into the table from outside (a client message, a bot's action, a connection's end) is a
turn, and what a turn sends reaches each connection in one write when it ends (the
mover's event and ``ack`` at once), through the connection's non-blocking write (what
does not fit waits in that connection's bounded queue), so no client can stall another.
:func:`server.driver.run` runs the table: the driver (bots, stand-ins, timers, pauses)
and the saver (:mod:`server.persistence`). Checks and codes: ``docs/protocol.md``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import trio

from protocol.messages import (
    Act,
    Configure,
    Continue,
    Join,
    Ready,
    Reclaim,
    Rematch,
    Say,
    Settings,
    Start,
    Sync,
    Undo,
    Watch,
)
from server.acts import ActPart
from server.audiences import AudiencePart
from server.flush import Flusher
from server.games import GamePart
from server.guard import Guard
from server.lobby import LobbyPart
from server.log import EventLog
from server.outbox import Outbox
from server.pause import Pause
from server.persistence import Saver
from server.saves import SavePart
from server.seats import Peer, Seat, Seats
from waddle.ruleset import DEFAULT_RULESET, Match, Prepared, Ruleset, get_ruleset


class Table(LobbyPart, GamePart, ActPart, AudiencePart, SavePart):
    """One table: its state, and the parts that act on it (see the module docstring).

    Args:
        settings: the starting settings (the owner may change them in the lobby); their
            ``options`` ``None`` means the game's defaults.
        ruleset: the game (default: :data:`waddle.ruleset.DEFAULT_RULESET`).
        code: the join code, or ``None`` for an open table.
        save: the file the game is saved to after every action (``None``: not saved).
            It holds the seat tokens: it is the host's private file.
        grace: seconds a disconnected player's turn waits before a stand-in bot plays.
        lobby_grace: seconds a seat whose connection dropped in the lobby stays held for a
            reclaim before it is freed (its token then stops working).
        standin: the bot kind that plays for absent or timed-out players (``None``: the
            table's bot kind, :attr:`standin_kind`).
        bot_delay: seconds a bot seat waits before acting (0 in tests and benchmarks).
        prepared: what the game needs, made ready by the host itself (the hex game: a
            map), used instead of what the settings choose.
        seed: seeds the bots, the opening turn order and the game (``None``: random; the
            order then follows the game's own seed, e.g. the standard map's).
        pause: seconds a pause the game asks for (the hex game: half-time) lasts at most
            while people have not all said to go on.
        guard: what slows down guesses of the join code (shared by a host's tables).
        flusher: brings the save to the disk with other tables' (:mod:`server.flush`: a
            club's); ``None``: on its own, through :attr:`offload`.
        compute: how the game is prepared (CPU-heavy pure work, a map:
            ``await compute(function, *args)``): a club's worker process
            (:class:`server.workers.Workers`); ``None``: through :attr:`offload`.
    """

    def __init__(self, settings: Settings | None = None, *, ruleset: Ruleset | None = None,
                 code: str | None = None, save: str | Path | None = None, grace: float = 30.0,
                 lobby_grace: float = 30.0, standin: str | None = None, bot_delay: float = 0.0,
                 prepared: Prepared | None = None, seed: int | None = None,
                 pause: float = 20.0, guard: Guard | None = None, flusher: Flusher | None = None,
                 compute: Callable[..., Awaitable[Any]] | None = None) -> None:
        self.ruleset = ruleset or get_ruleset(DEFAULT_RULESET)
        self.settings = self._complete(settings or Settings())
        #: The game's options the host itself chose (a file they name, the owner may keep).
        self.host_options = self.settings.options
        self.code = code or None
        #: Slows down guesses of the join code (:mod:`server.guard`): ``guard``, shared by
        #: a host's tables and ways in (SSH), else one of the table's own.
        self.guard = guard if guard is not None else Guard()  # (an empty Guard is falsy: it has a len)
        self.grace = grace
        self.lobby_grace = lobby_grace
        self.standin = standin
        self.bot_delay = bot_delay
        self.pause_timeout = pause
        #: The pause the game is in (half-time), or ``None``.
        self.pause: Pause | None = None
        #: The game's number at this table: 1, then one more for each rematch.
        self.games = 1
        #: The people who asked for a rematch of the finished game.
        self.rematch: set[Seat] = set()
        #: The table's id (``welcome.table``): random, kept by a resume.
        self.id = secrets.token_hex(8)
        self.phase = "lobby"
        self.seats = Seats(self.ruleset.seats)
        #: The connections at the table (seated or watching).
        self.peers: set[Peer] = set()
        #: Called when what a club's listing shows of the table may have changed (every
        #: lobby sent: seats, their connections, settings, phase, game; a spectator
        #: come or gone): the club's, holding the table's id, not the table (``None``:
        #: nobody listens).
        self.on_shown: Callable[[], None] | None = None
        #: What a turn sends, written when it ends (:mod:`server.outbox`).
        self.outbox = Outbox()
        self.match: Match | None = None
        self.log = EventLog()
        #: For each seat number, the version of the last event that made it decide again
        #: (:meth:`waddle.ruleset.Match.outdates`): an action decided before it is stale.
        self.changed: list[int] = []
        #: The seats a stand-in bot plays for while their player is away.
        self.standins: set[Seat] = set()
        self.bot_kinds: list[str | None] = []  # per action: the bot that chose it
        self.fixed = prepared
        self.prepared: tuple[Settings, Prepared | None] | None = None  # made in the lobby
        self.seed = seed
        self.rng = random.Random(seed)
        self.turn_started: float | None = None
        #: When the game at the table began (Unix seconds; ``None``: not yet, or not known).
        self.started_at: float | None = None
        #: Where the table's host listens (address, port), saved so a resume listens there
        #: again (:class:`server.host.Host`); ``None``: not known.
        self.listening: tuple[str, int] | None = None
        #: How blocking work runs (a bot's choice, preparing a map, writing the save file):
        #: ``await offload(function, *args)``. By default in a worker thread, so a slow
        #: search bot or disk never blocks the host; tests may run it inline.
        self.offload = trio.to_thread.run_sync
        self.compute = compute
        #: Called with the table when its game just ended (its last action written
        #: ahead): the host's history (``None``: nobody). The host's, not the table's:
        #: a callback holding the table would keep a closed one alive.
        self.on_game_over: Callable[[Table], None] | None = None
        self.saver = Saver(Path(save), self.save_data, lambda: self.version, lambda: self.id,
                           lambda *a: self.offload(*a), flusher=flusher) if save else None
        self._first_save = Path(save) if save else None

    def shown_changed(self) -> None:
        """What the club's listing shows of the table may have changed: tell :attr:`on_shown`."""
        if self.on_shown is not None:
            self.on_shown()

    def wake(self) -> None:
        """Tell the table's driver that the table changed in a way it may act on (who is to
        act, a timer, a pause, the lobby): :class:`server.driver.Driver` puts its own in
        this method's place while it runs; without a driver there is nobody to tell."""

    def _complete(self, settings: Settings) -> Settings:
        """``settings`` with the game's default options where they have none."""
        if settings.options is None:
            settings = msgspec.structs.replace(settings, options=self.ruleset.options_type())
        return settings

    # -- state ------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The event version: 0 in the lobby, 1 at the start, +1 per action."""
        return self.log.version

    @property
    def save_path(self) -> Path | None:
        """The save file, or ``None``."""
        return self.saver.path if self.saver else None

    @property
    def standin_kind(self) -> str:
        """The bot kind that plays for absent players and turns the timer ends: the
        ``standin`` given, else the table's bot kind (the last of ``settings.bots``, the
        one that repeats for the empty seats), else ``"random"`` (``docs/protocol.md``)."""
        return self.standin or (self.settings.bots[-1] if self.settings.bots else "random")

    def seat_of(self, label: str | None) -> Seat | None:
        """The seat labelled ``label``, if any."""
        return next((s for s in self.seats if s.label == label), None)

    # -- dispatch ---------------------------------------------------------------------

    def handle(self, peer: Peer, message: Any) -> None:
        """Act on a decoded client message from ``peer`` (not hello, ping, pong or leave),
        as one turn of the outbox whose first connection is ``peer``."""
        with self.outbox.turn(peer):
            self._handlers[type(message)](self, peer, message)

    #: What each client message does (functions of the parts' classes, so a table holds
    #: no reference to itself and is freed as soon as it is dropped, without a collection).
    _handlers = {Join: LobbyPart._join, Reclaim: LobbyPart._reclaim, Watch: LobbyPart._watch,
                 Configure: LobbyPart._configure, Start: LobbyPart._start, Ready: LobbyPart._ready,
                 Say: LobbyPart._say, Act: ActPart._act, Undo: ActPart._undo,
                 Rematch: GamePart._rematch, Continue: ActPart._continue, Sync: AudiencePart._sync}
