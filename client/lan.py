"""Finding tables on the LAN: browsing mDNS/DNS-SD for ``_waddle._tcp`` (the record:
:mod:`protocol.discovery`; ``server.lan`` advertises it).

:func:`browse` looks for a bounded time and returns the tables that answered, as
:class:`LanTable`. Multicast reaches only the hosts of the same network segment: it does
not cross routers or VPNs (Tailscale, WireGuard); a table beyond one is joined by its
``HOST:PORT``, which always works.

Everything a record holds came from a peer on the network and is not trusted: names and
text fields are cleaned (:func:`protocol.text.clean`) and cut, numbers read only when
they are digits in range, a record without a usable address or port is dropped, and at
most :data:`MAX_TABLES` tables are kept.

Browsing needs no trio: it runs before any UI. python-zeroconf answers in its own thread
(its asyncio loop); the browser's handler only queues the names it hears, and this
thread resolves them.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from protocol.discovery import SERVICE_TYPE
from protocol.text import clean

#: Most tables kept from one browse (a hostile LAN may advertise thousands).
MAX_TABLES = 64
#: Most service names waiting to be resolved; names heard beyond it are dropped.
MAX_PENDING = 256
#: Characters kept of a table's name, and of a text field.
NAME_LENGTH, FIELD_LENGTH = 63, 24
#: Seconds a browse goes on after the last new table answered (once one has).
SETTLE = 1.0
#: Seconds one table's records are waited for at most.
RESOLVE = 1.0


@dataclass(frozen=True)
class LanTable:
    """A table that answered on the LAN, as its host advertised it (cleaned).

    ``name``: the service's instance name; ``game``: the ruleset's name (``hex``);
    ``seats_free``, ``players``: seats free for a new player and seats at the table;
    ``phase``: ``lobby``, ``playing`` or ``finished``; ``code_required``; ``protocol``:
    the host's protocol version; ``ssh_port``: its SSH gateway, if any; ``address``,
    ``port``: where to connect (the first IPv4 address advertised); ``club``: the host is
    a club of many tables (then ``tables``, how many are open, stands for the game, seats
    and phase, which a club has per table: ``waddle join`` shows its lobby). A field the
    record lacked or gave badly is ``None`` (``game``, ``phase``: ``""``).
    """

    name: str
    game: str
    seats_free: int | None
    players: int | None
    phase: str
    code_required: bool | None
    protocol: int | None
    ssh_port: int | None
    address: str
    port: int
    club: bool = False
    tables: int | None = None

    @property
    def join_address(self) -> str:
        """``HOST:PORT``, as ``waddle join`` takes it."""
        return f"{self.address}:{self.port}"

    def to_json(self) -> dict:
        """The table as a JSON object (``waddle tables --lan --json``): the fields above
        and ``join`` (:attr:`join_address`)."""
        return {**asdict(self), "join": self.join_address}


def browse(seconds: float, *, until: Callable[[list[LanTable]], bool] | None = None) -> list[LanTable]:
    """The tables advertised on the LAN, by name: browse for at most ``seconds``, and
    stop :data:`SETTLE` seconds after the last new table answered, or, given ``until``,
    as soon as ``until(tables)`` holds (a new answer or an update of one).

    Raises:
        OSError: no interface to browse on (zeroconf cannot open its sockets).
    """
    from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

    heard: queue.Queue[tuple[str, bool]] = queue.Queue(MAX_PENDING)

    def on_change(zeroconf, service_type: str, name: str, state_change) -> None:  # zeroconf's thread
        try:
            heard.put_nowait((name, state_change is not ServiceStateChange.Removed))
        except queue.Full:
            pass

    zc = Zeroconf(ip_version=IPVersion.V4Only)
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[on_change])
        try:
            return _collect(zc, heard, time.monotonic() + seconds, until)
        finally:
            browser.cancel()
    finally:
        zc.close()


def _collect(zc, heard: queue.Queue, deadline: float, until) -> list[LanTable]:
    """Resolve the names ``heard`` until ``deadline``, a settled browse or ``until``."""
    found: dict[str, LanTable] = {}
    settled = deadline
    while (left := min(deadline, settled) - time.monotonic()) > 0:
        try:
            name, present = heard.get(timeout=left)
        except queue.Empty:
            break
        if not present:
            found.pop(name, None)
            continue
        if name not in found and len(found) >= MAX_TABLES:
            continue
        info = zc.get_service_info(SERVICE_TYPE, name, timeout=int(min(left, RESOLVE) * 1000))
        table = parse(info) if info is not None else None
        if table is None:
            continue
        if name not in found and until is None:
            settled = time.monotonic() + SETTLE
        found[name] = table
        if until is not None and until(_in_order(found)):
            break
    return _in_order(found)


def _in_order(found: dict[str, LanTable]) -> list[LanTable]:
    return sorted(found.values(), key=lambda t: (t.name.casefold(), t.join_address))


def parse(info) -> LanTable | None:
    """The :class:`LanTable` a zeroconf ``ServiceInfo`` describes; ``None`` without an
    IPv4 address or a port in 1..65535."""
    from zeroconf import IPVersion

    found = info.parsed_addresses(IPVersion.V4Only)
    if not found or not 0 < (info.port or 0) <= 65535:
        return None
    fields = {_text(key).lower(): _text(value) for key, value in (info.properties or {}).items()
              if key is not None and value is not None}
    name = info.name[:-len(SERVICE_TYPE) - 1] if info.name.endswith("." + SERVICE_TYPE) else info.name
    return LanTable(name=clean(name, NAME_LENGTH) or "?", game=fields.get("game", ""),
                    seats_free=_number(fields.get("seats"), 0, 99),
                    players=_number(fields.get("players"), 1, 99), phase=fields.get("phase", ""),
                    code_required={"yes": True, "no": False}.get(fields.get("code", "")),
                    protocol=_number(fields.get("proto"), 0, 9999),
                    ssh_port=_number(fields.get("ssh"), 1, 65535), address=found[0], port=info.port,
                    club=fields.get("club") == "yes", tables=_number(fields.get("tables"), 0, 99999))


def _text(raw: bytes | str) -> str:
    """A TXT key or value as clean text of at most :data:`FIELD_LENGTH` characters."""
    if isinstance(raw, bytes):
        raw = raw[:4 * FIELD_LENGTH].decode("utf-8", "replace")
    return clean(raw, FIELD_LENGTH)


def _number(text: str | None, low: int, high: int) -> int | None:
    """``text`` as a whole number in ``low..high`` (ASCII digits only), else ``None``."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 5:
        return None
    value = int(text)
    return value if low <= value <= high else None
