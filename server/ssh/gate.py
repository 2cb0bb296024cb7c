"""The SSH server (asyncssh, on the gateway's asyncio loop): handshakes, logins, limits,
and nothing but the game's session.

Logins (:class:`GuestServer`): a public key (any key: it identifies the guest; at a table
with a code a key that holds no seat here is then asked for the code on the screen), the
join code as the password or as the one answer of ``keyboard-interactive``, or, at a
table without a code, ``keyboard-interactive`` with no question at all. A connection has
:data:`CODE_TRIES` tries at the code, then it is closed.

Refused, each of them: ``exec`` and ``subsystem`` (sftp, scp) requests, a shell without a
pseudo-terminal, agent and X11 forwarding, TCP and Unix-socket forwarding both ways,
tun/tap. Limits: connections still shaking hands or logging in, at most
:data:`HANDSHAKES_PER_ADDRESS` from one address and :data:`HANDSHAKES` in all (over them
the oldest such connection is dropped, so a flood of idle handshakes from one address
never keeps anybody else out), ``login_timeout`` seconds each; sessions, at most
``max_per_address`` from one address and ``max_sessions`` in all, a guest whose seat is
remembered (:mod:`server.ssh.admission`) let in over both.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from protocol.messages import MAX_NAME
from protocol.text import clean_name
from server.logbudget import peer_log
from server.ssh.address import NAME, shown_address, ssh_command
from server.ssh.library import asyncssh
from server.ssh.session import GuestSession

log = logging.getLogger("waddle.server.ssh")

#: Connections from one address that may be shaking hands or logging in at once.
HANDSHAKES_PER_ADDRESS = 4
#: Connections shaking hands or logging in at once, in all.
HANDSHAKES = 64
#: Wrong join codes a connection may give before it is closed.
CODE_TRIES = 3
#: Seconds between SSH keepalives; a guest silent for three of them is gone.
KEEPALIVE = 15.0


class Gate:
    """The SSH listener of one table: ``bridge`` (:class:`server.ssh.bridge.Bridge`) to
    the host, ``config`` (:class:`server.ssh.bridge.SshConfig`), the host ``key``, on
    ``address``; ``max_per_address`` sessions from one address."""

    def __init__(self, bridge, config, key: asyncssh.SSHKey, address: str, max_per_address: int) -> None:
        self.bridge, self.config, self.key, self.address = bridge, config, key, address
        self.max_per_address = max_per_address
        self.port: int | None = None
        self.shown = address
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._handshaking: OrderedDict[GuestServer, str] = OrderedDict()  # oldest first: its address
        self.sessions: dict[GuestSession, str] = {}  # the guests' sessions: their addresses

    async def listen(self) -> int:
        """Listen; return the port.

        Raises:
            OSError: the address cannot be bound.
        """
        self._acceptor = await asyncssh.listen(
            self.address, self.config.port, server_factory=lambda: GuestServer(self),
            server_host_keys=[self.key], encoding=None, line_editor=False,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            login_timeout=self.config.login_timeout, keepalive_interval=KEEPALIVE,
            keepalive_count_max=3, server_version="Waddle")
        self.port = self._acceptor.get_port()
        self.shown = shown_address(self.address)
        log.info("SSH gateway listening on %s:%d", self.address, self.port)
        return self.port

    async def close(self) -> None:
        """Stop listening and end every session (each one's screen process stopped)."""
        if self._acceptor is not None:
            self._acceptor.close()
        for server in list(self._handshaking):
            server.drop()
        sessions = list(self.sessions)
        await asyncio.gather(*(session.end("the host stopped") for session in sessions),
                             return_exceptions=True)
        if self._acceptor is not None:
            await self._acceptor.wait_closed()

    def command(self, name: str = NAME) -> str:
        """The ``ssh`` command of a guest named ``name`` (:func:`server.ssh.address.ssh_command`)."""
        return ssh_command(self.shown, self.port, name)

    # -- handshakes -------------------------------------------------------------------

    def handshaking(self, server: GuestServer, address: str) -> None:
        """``server``'s connection from ``address`` began: drop the oldest handshaking one
        from that address, or in all, if over the limits."""
        same = [s for s, a in self._handshaking.items() if a == address]
        if len(same) >= HANDSHAKES_PER_ADDRESS:
            same[0].drop()
        elif len(self._handshaking) >= HANDSHAKES:
            next(iter(self._handshaking)).drop()
        self._handshaking[server] = address

    def logged_in(self, server: GuestServer) -> None:
        self._handshaking.pop(server, None)

    # -- sessions -----------------------------------------------------------------------

    def may_open(self, address: str, returning: bool) -> str | None:
        """Why a new session from ``address`` may not open now (``None``: it may); a
        ``returning`` guest (its seat remembered) always may."""
        if returning:
            return None
        if sum(1 for a in self.sessions.values() if a == address) >= self.max_per_address:
            return "too many SSH sessions from your address"
        if len(self.sessions) >= self.config.max_sessions:
            return "the host serves as many SSH guests as it can"
        return None


class GuestServer(asyncssh.SSHServer):
    """One SSH connection: its login, and the one session it may open."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.name = ""
        #: The public key that logged in, by fingerprint (``None``: the code, or no login needed).
        self.fingerprint: str | None = None
        #: Whether the guest gave the table's code (or the table has none).
        self.admitted = False
        self.needs_code = True
        self.code: str | None = None  # the join code it logged in with
        self._offered: str | None = None  # the last key offered (proven only if the login succeeds by it)
        self._tries = 0
        self._session_opened = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = peer[0] if peer else ""
        self.gate.handshaking(self, self.address)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.logged_in(self)

    def drop(self) -> None:
        """Close this connection at once (over a limit)."""
        self.gate.logged_in(self)
        if self.conn is not None:
            self.conn.abort()

    async def begin_auth(self, username: str) -> bool:
        self.name = clean_name(username, "guest")[:MAX_NAME]
        self.needs_code = await self.gate.bridge.call(self.gate.bridge.admission.needs_code)
        return True

    def auth_completed(self) -> None:
        self.gate.logged_in(self)
        if not self.admitted:  # by a key: the key that was offered last is the one proven
            self.fingerprint = self._offered

    # -- public keys ----------------------------------------------------------------------

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._offered = key.get_fingerprint("sha256")
        return True

    # -- the join code ------------------------------------------------------------------

    def password_auth_supported(self) -> bool:
        return True

    async def validate_password(self, username: str, password: str) -> bool:
        return await self._check(password)

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str):
        if not self.needs_code:
            self.admitted = True
            return True
        return "Waddle", "This table has a join code.", "", [("Join code: ", False)]

    async def validate_kbdint_response(self, username: str, responses) -> bool:
        return len(responses) == 1 and await self._check(responses[0])

    async def _check(self, code: str) -> bool:
        bridge = self.gate.bridge
        if await bridge.call(bridge.admission.check_code, self.address, code):
            self.admitted, self.code = True, code
            return True
        self._tries += 1
        peer_log.info("SSH %s@%s: wrong join code", self.name, self.address)
        if self._tries >= CODE_TRIES and self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, "too many wrong join codes")
        return False

    # -- what may be opened ---------------------------------------------------------------

    def session_requested(self):
        if self._session_opened:
            return False  # one game screen per connection
        self._session_opened = True
        return GuestSession(self)

    def connection_requested(self, dest_host, dest_port, orig_host, orig_port):
        peer_log.info("SSH %s@%s: TCP forwarding refused", self.name, self.address)
        return False

    def server_requested(self, listen_host, listen_port):
        peer_log.info("SSH %s@%s: remote forwarding refused", self.name, self.address)
        return False

    def unix_connection_requested(self, dest_path):
        return False

    def unix_server_requested(self, listen_path):
        return False

    def tun_requested(self, unit):
        return False

    def tap_requested(self, unit):
        return False
