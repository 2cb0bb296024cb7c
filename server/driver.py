"""The table's driver: runs a table (:func:`run`), plays bot seats and stand-ins, ends turns whose timer ran out,
frees lobby seats whose player did not come back, ends a pause that timed out, and
prepares the game in the lobby.

It wakes when the table changes (``table.wake``) or a deadline comes; in a game in play
it is woken only when what it waits for changed (a move between people at a table
without a turn timer changes nothing it waits for). A seat that may
act is played by a bot when it is a bot seat (after ``table.bot_delay``), when its
player has been away for ``table.grace`` seconds, or when the turn timer ran out; a
stand-in is the table's bot kind (:attr:`server.table.Table.standin_kind`). Bots think
in a worker thread (a quick one, such as a random bot, on the loop) on a private copy of
what their seat knows (:meth:`waddle.ruleset.Match.position`). During a pause (half-time) no bot acts; the
pause ends when its time is up (:meth:`server.table.Table.go_on`).
"""

from __future__ import annotations

import logging
from typing import Any

import trio

from protocol.text import with_article
from server.seats import Seat
from server.table import Table
from waddle.ruleset import Bot

log = logging.getLogger("waddle.server")


async def run(table: Table, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Run ``table``: play its bot seats and stand-ins and save it after every action,
    until cancelled (the last save on the way out); for ``nursery.start``."""
    try:
        async with trio.open_nursery() as nursery:
            if table.saver is not None:
                nursery.start_soon(table.saver.run)
            task_status.started()
            await Driver(table).run()
    finally:
        if table.saver is not None:
            with trio.CancelScope(shield=True):
                await table.saver.aclose()


#: What :attr:`Driver._waiting` holds while the driver is not waiting (it is acting).
_BUSY = object()


class Driver:
    """Runs the timed and automatic parts of one table (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._bots: dict[str, Bot] = {}  # by seat label
        self._woken = trio.Event()
        self._waiting: object = _BUSY  # while waiting: what for (:meth:`_due`'s answer)

    async def run(self) -> None:
        """Drive the table until cancelled."""
        table = self.table
        if table.phase == "playing":
            table.turn_started = now = trio.current_time()
            for seat in table.seats:
                if seat.bot is None and seat.peer is None:
                    seat.away_since = now
        table.wake = self._wake
        try:
            while True:
                self._woken = trio.Event()
                if table.phase == "lobby" and not table.is_prepared:
                    await self._prepare()
                    continue
                due = self._due()
                if due is None or due[0] > trio.current_time():
                    await self._wait(due)
                elif table.phase == "lobby":
                    self._free_lost_seats()
                elif table.pause is not None:
                    table.go_on()  # the pause timed out
                else:
                    await self._bot_turn(due[1])
        finally:
            del table.wake  # the table's own again

    def _due(self) -> tuple[float, int | None] | None:
        """When the driver is to act next (trio time), and for which seat: :meth:`_lobby_due`
        or :meth:`_turn_due`."""
        return self._lobby_due() if self.table.phase == "lobby" else self._turn_due()

    async def _wait(self, due: tuple[float, int | None] | None) -> None:
        """Until the table wakes the driver (:meth:`_wake`) or ``due`` comes (``None``: no deadline)."""
        self._waiting = due
        try:
            if due is None:
                await self._woken.wait()
            else:
                with trio.move_on_at(due[0]):
                    await self._woken.wait()
        finally:
            self._waiting = _BUSY

    def _wake(self) -> None:
        """The table changed: wake the driver, unless it waits in a game in play and would
        wait for the same again (its wake-up would change nothing)."""
        if self._waiting is _BUSY or self.table.phase != "playing" or self._due() != self._waiting:
            self._woken.set()

    # -- the lobby ------------------------------------------------------------------------------

    async def _prepare(self) -> None:
        """Make the game ready for the current settings while the lobby fills, in a worker
        thread (or the table's worker process: :attr:`server.table.Table.compute`)."""
        table = self.table
        settings = table.settings
        try:
            prepared = await (table.compute or table.offload)(table.ruleset.prepare, settings.options,
                                                             settings.players, table.seed)
        except ValueError:
            prepared = None  # start() tries again and reports the problem
        table.prepared = (settings, prepared)

    def _lobby_due(self) -> tuple[float, None] | None:
        """When the first seat whose connection dropped in the lobby is to be freed, or ``None``."""
        table = self.table
        return min(((s.away_since + table.lobby_grace, None) for s in table.seats
                    if s.peer is None and s.away_since is not None), default=None)

    def _free_lost_seats(self) -> None:
        """Free the lobby seats whose connection dropped ``lobby_grace`` seconds ago or more."""
        table = self.table
        now = trio.current_time()
        lost = [s for s in table.seats if s.peer is None and s.away_since is not None
                and s.away_since + table.lobby_grace <= now]
        for seat in lost:
            table.seats.remove(seat)
            log.info("%s (%s) did not come back: the seat is free", seat.name, seat.label)
        table.broadcast_lobby()

    # -- the game -------------------------------------------------------------------------------

    def _seat_due(self, seat: Seat) -> float | None:
        """When a bot should act for ``seat`` (one that may act now), or ``None``."""
        table = self.table
        if seat.bot is not None:
            return table.turn_started + table.bot_delay
        times = []
        if seat.peer is None:
            times.append(seat.away_since + table.grace)
        if table.settings.turn_timer is not None:
            times.append(table.turn_started + table.settings.turn_timer)
        return min(times, default=None)

    def _turn_due(self) -> tuple[float, int | None] | None:
        """The earliest ``(time, seat number)`` at which a bot should act (during a pause:
        ``(its end, None)``), or ``None``."""
        table = self.table
        if table.phase != "playing":
            return None
        if table.pause is not None:
            return table.pause.until, None
        dues = [(due, number) for number in sorted(table.match.to_act())
                if (due := self._seat_due(table.seats[number])) is not None]
        return min(dues, default=None)

    def _bot(self, seat: Seat, kind: str) -> Bot:
        bot = self._bots.get(seat.label)
        if bot is None:
            bot = self._bots[seat.label] = self.table.ruleset.make_bot(kind, self.table.rng.randrange(2**31))
        return bot

    async def _bot_turn(self, number: int) -> None:
        table = self.table
        seat = table.seats[number]
        kind = seat.bot or table.standin_kind
        version = table.version
        action = await self._choose(self._bot(seat, kind), number, kind)
        if table.version != version or table.pause is not None or number not in table.match.to_act():
            return  # somebody acted (or took back) while the bot was thinking
        due = self._seat_due(seat)
        if due is None or due > trio.current_time():
            return  # the player came back while the bot was thinking
        if seat.bot is None and seat.peer is None and seat not in table.standins:
            table.standins.add(seat)
            log.info("%s bot plays for %s (%s) while they are away", with_article(kind), seat.name, seat.label)
            table.broadcast_lobby()
        table.apply(number, action, kind)

    async def _choose(self, bot: Bot, number: int, kind: str) -> Any:
        """``bot``'s action for seat ``number``; a random bot's if it fails."""
        try:
            return await self._think(bot, number)
        except Exception:
            log.exception("bot %s failed for seat %d; a random bot plays instead", kind, number)
            return await self._think(self.table.ruleset.make_bot("random"), number)

    async def _think(self, bot: Bot, number: int) -> Any:
        """``bot``'s choice for seat ``number``: in a worker thread, a quick bot's here
        (:class:`waddle.ruleset.Bot`)."""
        position = self.table.match.position(number)  # a private copy, of the state now
        if getattr(bot, "quick", False):
            await trio.lowlevel.checkpoint()  # (the table may change meanwhile: the copy does not)
            return bot.choose(position)
        return await self.table.offload(bot.choose, position)
