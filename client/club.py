"""Asking a club (``waddle serve --club``) for its tables, or to open one: one short
connection each (``docs/club.md``).

A seat at a club's table is then taken by an ordinary :class:`client.core.Client` with
``table=ID`` (``hello.table``): it reconnects and reclaims straight to that table, as at
a host of one table::

    created = await create_table("127.0.0.1", 7777, "hex", settings)
    async with connect("127.0.0.1", 7777, name="Ada", table=created.table) as client:
        ...
"""

from __future__ import annotations

from typing import Any

import trio

from client.core import ClientError
from protocol import (
    PROTOCOL_VERSION,
    Closing,
    CreateTable,
    FramedStream,
    Hello,
    Leave,
    ListTables,
    ProtocolError,
    Rejected,
    Settings,
    TableCreated,
    Tables,
    Welcome,
    clean,
)
from protocol.messages import MAX_LABEL, MAX_MESSAGE, TableInfo, TableSeat
from protocol.text import clean_name, pad, shown

#: Seconds a club request may take (connecting, the handshake, the answer).
TIMEOUT = 10.0
#: What a table's phase is called in a listing.
PHASES = {"lobby": "not started", "playing": "in play", "finished": "game over"}


async def list_tables(host: str, port: int, *, timeout: float = TIMEOUT,
                      unix_socket: str | None = None) -> Tables:
    """The club's tables at ``host``:``port`` (or over the Unix socket ``unix_socket``:
    an SSH guest's, :mod:`client.sshguest`, ``host:port`` then only naming the club).

    Raises:
        ClientError: the host cannot be reached, is not a club, or refused (the message says why).
    """
    return await request(host, port, ListTables(), Tables, timeout=timeout, unix_socket=unix_socket)


async def create_table(host: str, port: int, game: str, settings: Settings | None = None, *,
                       name: str | None = None, code: str | None = None,
                       timeout: float = TIMEOUT, unix_socket: str | None = None) -> TableCreated:
    """Open a table of ``game`` with ``settings`` (``None``: the club's defaults), ``name``
    and join ``code`` at the club at ``host``:``port`` (or ``unix_socket``, as
    :func:`list_tables`); its id is ``.table``.

    Raises:
        ClientError: as :func:`list_tables`, and the club's refusal (``bad_settings``,
            ``name_taken``, ``too_many_tables``) in the message.
    """
    return await request(host, port, CreateTable(game=game, settings=settings, name=name, code=code),
                         TableCreated, timeout=timeout, unix_socket=unix_socket)


async def request(host: str, port: int, message: Any, answer: type, *, timeout: float = TIMEOUT,
                  unix_socket: str | None = None) -> Any:
    """Send one club request over a new connection (to ``unix_socket`` if given) and
    return its ``answer``; leave.

    Raises:
        ClientError: see :func:`list_tables`.
    """
    where = f"{host}:{port}"
    try:
        with trio.fail_after(timeout):
            if unix_socket is not None:
                stream = await trio.open_unix_socket(unix_socket)
            else:
                stream = await trio.open_tcp_stream(host, port)
            async with stream:
                framed = FramedStream.for_client(stream)
                await framed.send(Hello(protocol=PROTOCOL_VERSION, client="waddle-club"))
                welcome = await framed.receive()
                _check_club(where, welcome)
                await framed.send(message)
                while True:
                    reply = await framed.receive()
                    if isinstance(reply, answer):
                        await framed.send(Leave())
                        return reply
                    _check_reply(where, reply)
    except trio.TooSlowError:
        raise ClientError(f"{where} did not answer within {timeout:g} s") from None
    except (OSError, ProtocolError) as exc:
        raise ClientError(f"cannot ask {where}: {clean(str(exc)) or type(exc).__name__}") from None


def seat_text(seat: TableSeat, phase: str = "lobby") -> str:
    """A seat of a listed table in ``phase`` for people, its host's text cleaned:
    ``"Ann 31.2"`` (with the rating the club's history knows), ``"Pingu (greedy bot)"``,
    ``"Bob (away)"`` (a person not connected, before the game is over)."""
    name = shown(clean_name(seat.name, "?"))
    if seat.bot is None and not seat.connected and phase != "finished":
        name += " (away)"
    return name if seat.rating is None else f"{name} {seat.rating:.1f}"


def table_columns(info: TableInfo) -> tuple[str, ...]:
    """One table of a club's listing for people, its host's text cleaned, in columns: id,
    name, game, seats taken of its seats, its game's state, spectators, code and who sits
    there, e.g. ``("5c1f0e9a2b7d4411", "Friday", "Waddle Downtown", "2/4 seated",
    "not started", "1 watching", "code", "Ann 31.2, Bob")``."""
    return (shown(clean(info.table, MAX_LABEL)), shown(clean(info.name)), shown(clean(info.title, MAX_LABEL)),
            f"{len(info.seats)}/{info.players} seated", PHASES.get(info.phase, "?"),
            f"{info.spectators} watching" if info.spectators else "", "code" if info.code_required else "open",
            ", ".join(seat_text(seat, info.phase) for seat in info.seats))


def table_line(info: TableInfo) -> str:
    """:func:`table_columns` in one line, e.g. ``"5c1f0e9a2b7d4411  Friday              Waddle
    Downtown  2/4 seated  not started  1 watching   code  Ann 31.2, Bob"``."""
    table, name, title, seated, phase, watching, code, seats = table_columns(info)
    return (f"{pad(table, 16)}  {pad(name, 18)}  {pad(title, 15)}  {seated}  {phase:<11}  {watching:<11}  "
            f"{code}{'  ' + seats if seats else ''}").rstrip()


def _check_club(where: str, welcome: Any) -> None:
    if isinstance(welcome, Closing):
        _check_reply(where, welcome)
    if not isinstance(welcome, Welcome):
        raise ClientError(f"{where} is not a Waddle host")
    if not welcome.club:
        raise ClientError(f"{where} hosts one table, not a club (waddle join {where})")


def _check_reply(where: str, reply: Any) -> None:
    """Raise for a refusal or a closing; anything else (a ping) is skipped."""
    if isinstance(reply, Rejected):
        raise ClientError(f"refused by {where} ({clean(reply.code, MAX_LABEL)}): "
                          f"{clean(reply.message, MAX_MESSAGE)}")
    if isinstance(reply, Closing):
        raise ClientError(f"{where} closed the connection ({clean(reply.code, MAX_LABEL)}): "
                          f"{clean(reply.message, MAX_MESSAGE)}")
