"""Advertising a table, or a club of tables, on the LAN by mDNS/DNS-SD (``--lan``; RFC
6762 and 6763).

The host registers one service of type ``_waddle._tcp`` under the table's name, with the
TXT fields of :mod:`protocol.discovery` (:func:`txt`; a club's: :func:`club_txt`).

Nothing is advertised unless asked (:attr:`server.host.ServerConfig.lan`). The fields
are kept current: the advertiser looks at the table every :data:`REFRESH` seconds and
sends an update only when a field changed. At stop the service is unregistered (DNS-SD's
goodbye: browsers drop it at once).

The boundary with zeroconf: python-zeroconf's synchronous ``Zeroconf`` runs its own
asyncio loop in its own thread; its calls (register, update, unregister, close) block
their caller until that loop has done them (probing for a unique name takes about 1.5 s).
The host is trio, so each call runs in a trio worker thread
(:func:`trio.to_thread.run_sync`) and the host's loop never waits on it. Only the trio
thread reads the table: the TXT fields are computed there and handed over as a finished
``ServiceInfo``; zeroconf never calls back into the host.
"""

from __future__ import annotations

import functools
import logging
import socket
from typing import TYPE_CHECKING, Any

import trio

from protocol.discovery import SERVICE_TYPE, TXT_VERSION
from protocol.messages import PROTOCOL_VERSION
from protocol.text import clean

if TYPE_CHECKING:
    from server.club import Club
    from server.table import Table

log = logging.getLogger("waddle.server")

#: Seconds between looks at the table for changed TXT fields.
REFRESH = 1.0
#: The longest instance name, in bytes of UTF-8 (one DNS label, RFC 6763 section 4.1.1).
NAME_BYTES = 63
#: The addresses a host listening on every interface has (advertises those of its interfaces).
WILDCARDS = frozenset({"", "0.0.0.0"})


def txt(table: Table, ssh_port: int | None = None) -> dict[str, str]:
    """The TXT fields of ``table`` now (:mod:`protocol.discovery`), e.g. ``{"txtvers": "1",
    "game": "hex", "seats": "3", "players": "4", "phase": "lobby", "code": "yes",
    "proto": "2"}``; ``ssh`` is added when ``ssh_port`` is given."""
    players = table.settings.players
    free = players - len(table.seats) if table.phase == "lobby" else 0
    fields = {"txtvers": TXT_VERSION, "game": table.ruleset.name, "seats": str(max(free, 0)),
              "players": str(players), "phase": table.phase,
              "code": "yes" if table.code else "no", "proto": str(PROTOCOL_VERSION)}
    if ssh_port is not None:
        fields["ssh"] = str(ssh_port)
    return fields


def club_txt(club: Club, ssh_port: int | None = None) -> dict[str, str]:
    """The TXT fields of ``club`` now (:mod:`protocol.discovery`): ``club`` and its open
    ``tables`` in place of one table's game, seats and phase, e.g. ``{"txtvers": "1",
    "club": "yes", "tables": "3", "proto": "2"}``; ``ssh`` as :func:`txt`."""
    fields = {"txtvers": TXT_VERSION, "club": "yes", "tables": str(len(club.tables)),
              "proto": str(PROTOCOL_VERSION)}
    if ssh_port is not None:
        fields["ssh"] = str(ssh_port)
    return fields


def instance_name(name: str) -> str:
    """``name`` as a DNS-SD instance name: cleaned (:func:`protocol.text.clean`), dots made
    spaces (zeroconf parses a dotted instance as a subtype), at most :data:`NAME_BYTES`
    bytes of UTF-8 (cut between characters); ``"Waddle"`` if nothing is left."""
    text = clean(name.replace(".", " "))
    while len(text.encode()) > NAME_BYTES:
        text = text[:-1].rstrip()
    return text or "Waddle"


def addresses(listening: str) -> list[bytes]:
    """The IPv4 addresses (packed) to advertise for a host listening on ``listening``: that
    address itself, or, listening on every interface, every interface's address but
    loopback's (loopback's alone where there is no other, as in a private namespace).

    Raises:
        OSError: ``listening`` is not an IPv4 address.
    """
    if listening not in WILDCARDS:
        return [socket.inet_aton(listening)]
    from zeroconf import get_all_addresses

    found = sorted(set(get_all_addresses()))
    outside = [a for a in found if not a.startswith("127.")]
    return [socket.inet_aton(a) for a in (outside or found)]


def _info(name: str, port: int, packed: list[bytes], fields: dict[str, str]):
    from zeroconf import ServiceInfo

    server = f"{instance_name(socket.gethostname()).replace(' ', '-')}.local."
    return ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port, addresses=packed,
                       properties=fields, server=server)


class Advertiser:
    """One table's (or club's) service on the LAN, for the host's nursery.

    ``name``: the instance name wanted (:func:`instance_name`; another service of that
    name on the LAN makes zeroconf add `` (2)``); ``fields``: a function of no arguments
    giving the TXT fields now (:func:`txt`, :func:`club_txt`).
    """

    def __init__(self, name: str, address: str, port: int, fields) -> None:
        self.wanted = instance_name(name)
        self.address = address
        self.port = port
        self.fields = fields
        #: The instance name registered (``NAME._waddle._tcp.local.``), once it is.
        self.registered: str | None = None

    async def run(self, *, task_status: trio.TaskStatus[str | None] = trio.TASK_STATUS_IGNORED) -> None:
        """Register, keep the TXT fields current until cancelled, then unregister.
        ``task_status.started(name)`` once registered; a LAN that cannot be joined
        (no interface, no multicast) is logged and ``started(None)``: the host serves on."""
        from zeroconf import IPVersion, Zeroconf

        try:
            zc = await trio.to_thread.run_sync(functools.partial(Zeroconf, ip_version=IPVersion.V4Only))
        except OSError as exc:
            log.error("cannot advertise the table on the LAN: %s", exc.strerror or exc)
            task_status.started(None)
            return
        try:
            await self._serve(zc, task_status)
        finally:
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(_close, zc)
                if self.registered:
                    log.info("no longer advertised on the LAN")

    async def _serve(self, zc, task_status: trio.TaskStatus[str | None]) -> None:
        fields = self.fields()
        info = _info(self.wanted, self.port, addresses(self.address), fields)
        await trio.to_thread.run_sync(functools.partial(zc.register_service, info, allow_name_change=True))
        self.registered = info.name
        log.info("advertised on the LAN as %r (%s)", info.name[:-len(SERVICE_TYPE) - 1], SERVICE_TYPE)
        task_status.started(info.name)
        while True:
            await trio.sleep(REFRESH)
            now = self.fields()
            if now != fields:
                fields = now
                info = _info(info.name[:-len(SERVICE_TYPE) - 1], self.port, info.addresses, fields)
                await trio.to_thread.run_sync(zc.update_service, info)


def _close(zc: Any) -> None:
    """Unregister every service of ``zc`` (their goodbyes are sent) and close it; in a
    worker thread."""
    try:
        zc.unregister_all_services()
    finally:
        zc.close()
