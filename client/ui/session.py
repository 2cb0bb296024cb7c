"""The UI's session: the trio client core, and optionally the host itself.

:class:`RemoteSession` is what the terminal UI runs and reads: the
:class:`client.core.Client` of one table, whose :attr:`~client.core.Client.state` (the one
:class:`client.state.TableState`) the screen reads directly. Wishes go through the
client's non-blocking methods (``act_nowait``, ``send_nowait``) and return whether they
could be queued (else :attr:`RemoteSession.error` says why).

With ``server`` (a :class:`server.host.Host`), the session runs the host in the same
trio run first and connects to it on 127.0.0.1: that is ``waddle host`` and
``waddle play``; then it also knows what others type to join (:attr:`address`) and,
once the finished game is saved, where (:attr:`record_path`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trio

from client.core import AtClub, Client, ClientError, TableGone
from client.state import TableState
from protocol.messages import Configure, Continue, Ready, Rematch, Settings, Start, Undo


class RemoteSession:
    """The table at ``host:port`` seen through one client.

    Args:
        host, port: where the table is (``port`` is ignored with ``server``: the
            server's own port is used).
        client_options: keyword arguments of :class:`client.core.Client` (``name``,
            ``label``, ``code``, ``watch``...).
        server: a host to run in this trio run before connecting (``None``: join).
        record_path: where the host saves the record, shown at the end once the
            finished game is saved there (host only).
        address: what others need to join, shown in the lobby (host only); ``{port}``
            in it is replaced by the server's port once it listens, ``{ssh}`` by its
            SSH gateway's command (``ssh -p PORT NAME@HOST``).
    """

    def __init__(self, host: str, port: int, *, client_options: dict[str, Any] | None = None,
                 server=None, record_path: str | None = None, address: str = "") -> None:
        self._options = client_options or {}
        self.client = Client(host, port, **self._options)
        self.address = address
        #: Where the last finished game was saved, once it is (host only).
        self.record_path: str | None = None
        self._record_path = record_path
        self._server = server

    @property
    def state(self) -> TableState:
        """The table as this client knows it."""
        return self.client.state

    @property
    def error(self) -> str:
        """Why the last wish could not be queued."""
        return self.client.last_error or "not connected"

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change of :attr:`state`."""
        self.state.listeners.append(listener)

    async def run(self) -> None:
        """Run the host (if any) and the client; stay until cancelled so the last screen stays up.

        Raises:
            client.core.AtClub: the host is a club and the client named no table.
            client.core.TableGone: the club has no such table (any more).
            OSError: the host could not listen, or the first connection failed or was
                refused; one line saying why.
        """
        try:
            async with trio.open_nursery() as nursery:
                if self._server is not None:
                    try:
                        self.client.port = await nursery.start(self._server.run)
                    except OSError as exc:
                        server = self._server
                        raise OSError(f"cannot host on {server.address}:{server.wanted_port}: "
                                      f"{exc.strerror or exc}") from None
                    ssh = self._server.ssh
                    self.address = self.address.format(port=self.client.port,
                                                       ssh=f"{ssh.command}\n(SSH host key {ssh.fingerprint})"
                                                       if ssh else "")
                    nursery.start_soon(self._show_record)
                await self.client.run()
                await trio.sleep_forever()
        except* (OSError, ClientError) as group:
            first = _first(group)
            if isinstance(first, (AtClub, TableGone)):  # the club's lobby is the caller's to show
                raise first from None
            raise OSError(str(first)) from None

    async def _show_record(self) -> None:
        """Each time the host's game is over and saved, say where (a rematch is saved to
        its own file: :meth:`server.table.Table.new_game`); forget it when the next game
        starts."""
        try:
            while True:
                await self.client.wait_for(lambda state: state.finished)
                table = self._server.table
                await table.flush()
                self.record_path = str(table.save_path) if table.save_path else self._record_path
                self.state.changed()
                number = self.state.game_number
                await self.client.wait_for(lambda state, number=number: state.game_number != number)
                self.record_path = None  # a rematch: quitting it says where it is saved and how it goes on
                self.state.changed()
        except ClientError:
            return

    # -- wishes: each returns whether it could be queued -------------------------------------

    def act(self, action: Any) -> bool:
        """Play ``action`` for this client's seat."""
        return self.client.act_nowait(action)

    def undo(self) -> bool:
        """Take back this seat's last action (decided on the version seen now)."""
        token = self.client.token
        if token is None:
            self.client.last_error = "this client holds no seat"
            return False
        return self.client.send_nowait(Undo(version=self.state.version, token=token))

    def look_now(self) -> bool:
        """Look for a host that stopped at once (:meth:`client.core.Client.look_now`)."""
        return self.client.look_now()

    def go_on(self) -> bool:
        """End the table's pause for this seat (half-time)."""
        return self.client.send_nowait(Continue())

    def rematch(self, accept: bool) -> bool:
        """Ask for (or withdraw from) a rematch once the game is over."""
        return self.client.send_nowait(Rematch(accept=accept))

    def say(self, text: str) -> bool:
        """Send a chat line."""
        return self.client.say_nowait(text)

    def configure(self, settings: Settings) -> bool:
        """Change the table's settings (owner, lobby)."""
        return self.client.send_nowait(Configure(settings=settings))

    def start(self) -> bool:
        """Start the game (owner, lobby)."""
        return self.client.send_nowait(Start())

    def ready(self, ready: bool) -> bool:
        """Say whether this seat is ready (lobby)."""
        return self.client.send_nowait(Ready(ready=ready))


def _first(group: BaseExceptionGroup) -> BaseException:
    """The first exception in ``group`` that is not itself a group."""
    while isinstance(group, BaseExceptionGroup):
        group = group.exceptions[0]
    return group
