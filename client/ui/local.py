"""A table on this machine without a network: the engine directly, built-in bots in the other seats.

:class:`LocalSession` is a :class:`~client.ui.view.Session` for playing alone against
bots and for testing the UI without a host. The player holds seat 0 and owns the table;
every other seat is a bot (``settings.bots``, in seat order). The game follows the same
engine calls a host makes (legal actions, apply, events), so the UI sees exactly what a
network session would show; bots think in a worker thread so the screen never freezes.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import trio

from protocol.messages import FileMap, SeatInfo, Settings, StandardMap
from waddle import COLOURS, Action, Game, IllegalActionError, Map, load_map
from waddle.bots import make_bot
from waddle.record import save_record, to_record
from waddle.tiles import standard_map

from client.ui.view import TableState


def build_map(settings: Settings) -> Map:
    """The map ``settings`` choose for ``settings.players`` players.

    Raises:
        MapError: for a map file that cannot be used.
        ValueError: for a bundled map (none is bundled yet).
    """
    choice = settings.map
    if isinstance(choice, StandardMap):
        return standard_map(settings.players, choice.seed)
    if isinstance(choice, FileMap):
        return load_map(choice.path)
    raise ValueError(f"no bundled map {choice.name!r}")


class LocalSession:
    """The player ``name`` against bots, on this machine.

    Args:
        name: the player's name (cleaned before display).
        settings: the table's starting settings; ``settings.bots`` (padded with
            ``"greedy"``) choose the bots of seats 1 and up.
        seed: seeds the bots (and the standard map when its seed is ``None``).
        bot_delay: seconds a bot waits before acting, so people can follow the game.
        records: the folder where the finished game's record is saved.
    """

    def __init__(self, name: str, settings: Settings, *, seed: int | None = None,
                 bot_delay: float = 0.4, records: Path | str = ".") -> None:
        self.state = TableState(phase="lobby", settings=settings, owner=0, my_seat=0)
        self.state.seats = self._seats(name, settings)
        self._seed = seed
        self._bot_delay = bot_delay
        self._records = Path(records)
        self._listeners: list[Callable[[], None]] = []
        self._send, self._receive = trio.open_memory_channel[tuple](64)
        self._wake = trio.Event()
        self._bots: dict[str, object] = {}

    # -- the Session interface -------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def act(self, action: Action) -> None:
        self._send.send_nowait(("act", action))

    def say(self, text: str) -> None:
        self._send.send_nowait(("say", text))

    def configure(self, settings: Settings) -> None:
        self._send.send_nowait(("configure", settings))

    def start(self) -> None:
        self._send.send_nowait(("start",))

    def ready(self, ready: bool) -> None:
        self._send.send_nowait(("ready", ready))

    async def run(self) -> None:
        """Handle the player's requests and play the bots' turns until cancelled."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._play_bots)
            async for request in self._receive:
                getattr(self, f"_on_{request[0]}")(*request[1:])
                self._changed()

    # -- requests ----------------------------------------------------------------------

    def _on_act(self, action: Action) -> None:
        state = self.state
        if not state.my_turn:
            state.notice = "it is not your turn"
            return
        try:
            self._apply(action)
        except IllegalActionError as exc:
            state.notice = str(exc)

    def _on_say(self, text: str) -> None:
        self.state.add_chat(self.state.seats[0].name, text)

    def _on_configure(self, settings: Settings) -> None:
        if self.state.phase == "lobby":
            self.state.settings = settings
            self.state.seats = self._seats(self.state.seats[0].name, settings)

    def _on_ready(self, ready: bool) -> None:
        seat = self.state.seats[0]
        self.state.seats[0] = SeatInfo(seat=0, colour=seat.colour, name=seat.name,
                                       connected=True, ready=ready)

    def _on_start(self) -> None:
        state = self.state
        if state.phase != "lobby":
            return
        try:
            map = build_map(state.settings)
        except ValueError as exc:
            state.notice = f"cannot start: {exc}"
            return
        state.game = Game(map, [s.colour for s in state.seats],
                          mirror_match=state.settings.mirror_match)
        rng = random.Random(self._seed)
        self._bots = {s.colour: make_bot(s.bot, rng.randrange(2**32)) for s in state.seats if s.bot}
        state.phase = "playing"
        state.notice = ""

    # -- the game ------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        state = self.state
        game = state.game
        state.add_log([e.to_dict() for e in game.apply(action)])
        state.notice = ""
        if game.is_over:
            state.phase = "finished"
            self._save()

    def _save(self) -> None:
        path = self._records / f"waddle-{datetime.now():%Y%m%d-%H%M%S}.json"
        try:
            save_record(path, to_record(self.state.game, seed=self._seed))
        except OSError as exc:
            self.state.notice = f"could not save the record: {exc}"
            return
        self.state.record_path = str(path)

    async def _play_bots(self) -> None:
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            while (game := self.state.game) is not None and not game.is_over \
                    and game.current_player in self._bots:
                await trio.sleep(self._bot_delay)
                bot = self._bots[game.current_player]
                action = await trio.to_thread.run_sync(functools.partial(bot.choose, game.copy()))
                self._apply(action)
                self._changed()

    def _changed(self) -> None:
        self._wake.set()
        for listener in self._listeners:
            listener()

    @staticmethod
    def _seats(name: str, settings: Settings) -> list[SeatInfo]:
        bots = list(settings.bots) + ["greedy"] * settings.players
        seats = [SeatInfo(seat=0, colour=COLOURS[0], name=name, connected=True, ready=False)]
        for i in range(1, settings.players):
            kind = bots[i - 1]
            seats.append(SeatInfo(seat=i, colour=COLOURS[i], name=f"{kind} bot", connected=False,
                                  ready=True, bot=kind))
        return seats
