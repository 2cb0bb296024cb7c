"""The host: a :class:`~server.table.Table` served over TCP.

Use from another trio program (``waddle host`` runs it in-process)::

    host = Host(ServerConfig(port=0, settings=Settings(players=3, bots=["random"])))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)     # listening on 127.0.0.1:port
        host.table.start()                       # or let the owner send "start"

or ``port = await nursery.start(serve, config)`` when the :class:`Host` object is not
needed. :meth:`Host.handle` serves one already-open stream (tests use memory streams).
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field
from pathlib import Path

import trio

from protocol.framing import encode
from protocol.messages import Closing, Settings
from server.connection import Connection, Limits
from server.driver import run as run_table
from server.table import Table
from waddle.ruleset import DEFAULT_RULESET, Prepared, get_ruleset

log = logging.getLogger("waddle.server")


@dataclass
class ServerConfig:
    """How to host.

    ``address``/``port``: where to listen (port 0: any free port; use ``0.0.0.0`` for
    the LAN only on purpose). ``settings``: the table's starting settings. ``code``: join
    code or ``None``. ``save``: the save file (``None``: not saved). ``resume``: a save
    file to continue (its settings, seats and tokens win over ``settings``; saving goes
    on to ``save`` or, without it, to ``resume``). ``grace``: seconds before a stand-in
    bot plays for an absent player; ``standin``: its kind (``None``: the table's bot
    kind, :attr:`server.table.Table.standin_kind`). ``game``: the game's ruleset name
    (:func:`waddle.ruleset.get_ruleset`). ``prepared``: what the game needs, made ready by
    the host (the hex game: a map; overrides what ``settings`` choose). ``limits``:
    per-connection timeouts and limits.
    """

    address: str = "127.0.0.1"
    port: int = 0
    settings: Settings = field(default_factory=Settings)
    code: str | None = None
    save: str | Path | None = None
    resume: str | Path | None = None
    grace: float = 30.0
    lobby_grace: float = 30.0
    standin: str | None = None
    bot_delay: float = 0.0
    seed: int | None = None
    game: str = DEFAULT_RULESET
    prepared: Prepared | None = None
    limits: Limits = field(default_factory=Limits)


class Host:
    """A table and its listener.

    Raises (on construction):
        waddle.RecordError: ``config.resume`` names a file that is not a usable save.
        ValueError: ``config.game`` names no game.
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        options = dict(grace=config.grace, lobby_grace=config.lobby_grace, standin=config.standin,
                       bot_delay=config.bot_delay, seed=config.seed)
        if config.resume:
            if config.save:
                options["save"] = config.save
            self.table = Table.resume(config.resume, **options)
        else:
            self.table = Table(config.settings, ruleset=get_ruleset(config.game), code=config.code,
                               save=config.save, prepared=config.prepared, **options)
        self.port: int | None = None
        #: Connections being served now.
        self.connections = 0
        self._ids = itertools.count(1)

    async def run(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until cancelled; ``task_status.started(port)`` once listening.

        Raises:
            OSError: the address cannot be bound.
        """
        listeners = await trio.open_tcp_listeners(self.config.port, host=self.config.address)
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            await nursery.start(run_table, self.table)
            await nursery.start(trio.serve_listeners, self._handle_tcp, listeners)
            log.info("listening on %s:%d", self.config.address, self.port)
            task_status.started(self.port)

    async def _handle_tcp(self, stream: trio.SocketStream) -> None:
        try:
            peer = stream.socket.getpeername()
            label = f"#{next(self._ids)} {peer[0]}:{peer[1]}"
        except OSError:
            label = f"#{next(self._ids)}"
        await self.handle(stream, label)

    async def handle(self, stream: trio.abc.Stream, label: str | None = None) -> None:
        """Serve one client over ``stream`` until it ends (never raises but cancellation)."""
        label = label or f"#{next(self._ids)}"
        if self.connections >= self.config.limits.max_connections:
            log.warning("%s refused: %d connections already", label, self.connections)
            await _refuse(stream)
            return
        log.debug("%s connected", label)
        self.connections += 1
        try:
            await Connection(stream, self.table, self.config.limits, label).run()
        finally:
            self.connections -= 1


async def _refuse(stream: trio.abc.Stream) -> None:
    """Tell a connection over the limit that the host is full, and hang up."""
    with trio.move_on_after(1):
        try:
            await stream.send_all(encode(Closing(code="full", message="the host serves too many connections")))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    await trio.aclose_forcefully(stream)


async def serve(config: ServerConfig, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Host a table as ``config`` says until cancelled; for ``nursery.start``, which returns the port."""
    await Host(config).run(task_status=task_status)
