"""The UI's session over the network: the trio client core, and optionally the host itself.

:class:`RemoteSession` adapts a :class:`client.core.Client` to the
:class:`~client.ui.view.Session` the UI reads: after every change of the client's
state it copies what the screen shows into the UI's
:class:`~client.ui.view.TableState` (seats, settings, the game replica, new events,
chat, the last rejection); a new replica (``started``, or a ``snapshot`` after a
resume or reconnect) refills the event log from its moves. Wishes go through the client's non-blocking methods
(``act_nowait``, ``send_nowait``); a refusal to queue becomes ``state.notice``.

With ``server`` (a :class:`server.host.Host`), the session runs the host in the same
trio run first and connects to it on 127.0.0.1: that is ``waddle host`` and
``waddle play``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import trio

from client.core import Client, ClientError
from client.state import Status
from client.ui.view import TableState
from protocol.messages import Configure as ConfigureMessage
from protocol.messages import Ready, Settings, Start
from protocol.text import clean
from waddle import Action

_CONNECTION = {Status.CONNECTING: "connected", Status.CONNECTED: "connected",
               Status.RECONNECTING: "reconnecting", Status.CLOSED: "closed"}


class RemoteSession:
    """The table at ``host:port`` seen through one client.

    Args:
        host, port: where the table is (``port`` is ignored with ``server``: the
            server's own port is used).
        client_options: keyword arguments of :class:`client.core.Client` (``name``,
            ``colour``, ``code``, ``watch``...).
        server: a host to run in this trio run before connecting (``None``: join).
        record_path: where the host saves the record, shown at the end once the
            finished game is saved there (host only).
        address: what others need to join, shown in the lobby (host only); ``{port}``
            in it is replaced by the server's port once it listens.
    """

    def __init__(self, host: str, port: int, *, client_options: dict[str, Any] | None = None,
                 server=None, record_path: str | None = None, address: str = "") -> None:
        self.state = TableState(address=address)
        self._record_path = record_path
        self._where = (host, port)
        self._options = client_options or {}
        self._server = server
        self._listeners: list[Callable[[], None]] = []
        self._played = None
        self._version = 0
        self._rejection = None
        self.client: Client | None = None

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    async def run(self) -> None:
        """Run the host (if any) and the client; stay until cancelled so the last screen stays up.

        Raises:
            OSError: the host could not listen, or the first connection failed or was
                refused; one line saying why.
        """
        host, port = self._where
        try:
            async with trio.open_nursery() as nursery:
                if self._server is not None:
                    try:
                        port = await nursery.start(self._server.run)
                    except OSError as exc:
                        config = self._server.config
                        raise OSError(f"cannot host on {config.address}:{config.port}: "
                                      f"{exc.strerror or exc}") from None
                    self.state.address = self.state.address.format(port=port)
                self.client = Client(host, port, **self._options)
                self.client.state.listeners.append(self._sync)
                if self._server is not None:
                    nursery.start_soon(self._show_record)
                await self.client.run()
                await trio.sleep_forever()
        except* (OSError, ClientError) as group:
            raise OSError(str(_first(group))) from None

    async def _show_record(self) -> None:
        """Once the host's game is over and saved, show where."""
        try:
            await self.client.wait_for(lambda state: state.finished)
        except ClientError:
            return
        await self._server.table.flush()
        self.state.record_path = self._record_path
        self._notify()

    # -- wishes ----------------------------------------------------------------------

    def act(self, action: Action) -> None:
        self._check(self.client is not None and self.client.act_nowait(action))

    def say(self, text: str) -> None:
        self._check(self.client is not None and self.client.say_nowait(text))

    def configure(self, settings: Settings) -> None:
        self._send(ConfigureMessage(settings=settings))

    def start(self) -> None:
        self._send(Start())

    def ready(self, ready: bool) -> None:
        self._send(Ready(ready=ready))

    def _send(self, message) -> None:
        self._check(self.client is not None and self.client.send_nowait(message))

    def _check(self, sent: bool) -> None:
        if not sent:
            self.state.notice = clean((self.client and self.client.last_error) or "not connected")
            self._notify()

    # -- the client's state -> the UI's state ---------------------------------------------

    def _sync(self) -> None:
        core, state = self.client.state, self.state
        state.connection = _CONNECTION[core.status]
        state.phase = core.phase or "connecting"
        state.seats = list(core.seats)
        state.settings = core.settings or state.settings
        state.owner = next((s.seat for s in core.seats if s.colour == core.owner), None)
        state.my_seat = next((s.seat for s in core.seats if s.colour == core.colour), None)
        if core.game is not None and core.game is not state.game:  # started, or a snapshot
            state.replay_log(core.game)
            self._played = core.last_played
        state.game = core.game
        state.chat = [(clean(line.name), line.colour, clean(line.text)) for line in core.chat]
        if core.last_played is not None and core.last_played is not self._played:
            self._played = core.last_played
            state.add_log(core.last_played.events)
            state.notice = ""
        if core.version != self._version:
            self._version = core.version
            timer = state.settings.turn_timer
            state.turn_deadline = time.monotonic() + timer if timer and not core.finished else None
        if core.last_rejection is not None and core.last_rejection is not self._rejection:
            self._rejection = core.last_rejection
            state.notice = clean(core.last_rejection.message)
        if core.status is Status.CLOSED and core.closed_reason:
            state.notice = clean(core.closed_reason)
        self._notify()

    def _notify(self) -> None:
        for listener in self._listeners:
            listener()


def _first(group: BaseExceptionGroup) -> BaseException:
    """The first exception in ``group`` that is not itself a group."""
    while isinstance(group, BaseExceptionGroup):
        group = group.exceptions[0]
    return group
