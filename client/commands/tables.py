"""``waddle tables HOST:PORT [--json]``: list a club's tables (``waddle serve --club``,
:mod:`client.club`); ``waddle tables --lan [--json]``: list the tables advertised on this
LAN (mDNS/DNS-SD, :mod:`client.lan`), also the list ``waddle join`` and ``waddle watch``
show, to pick a table from, when given no ``HOST:PORT``.

Nothing is browsed unless asked: ``--lan`` here, or ``join``/``watch`` without an
address. Multicast does not cross routers or VPNs (Tailscale): give ``HOST:PORT`` there.
"""

from __future__ import annotations

import argparse

from client.cli import UserError, seconds

#: Seconds a browse lasts at most by default (it ends a second after the last new answer).
DEFAULT_BROWSE = 5.0
#: Answers tried before the picker gives up on a person who types no table's number.
PICK_TRIES = 5
BEYOND = "multicast does not cross routers or VPNs such as Tailscale: give HOST:PORT there"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST:PORT", nargs="?",
                        help="a club's host (waddle serve --club): list its tables")
    parser.add_argument("--lan", action="store_true",
                        help="look for tables advertised on this LAN (mDNS)")
    parser.add_argument("--json", action="store_true",
                        help="print the tables as a JSON list, for scripts")
    add_browse_argument(parser)


def add_browse_argument(parser: argparse.ArgumentParser) -> None:
    """``--browse SECONDS``: how long to look for tables on the LAN at most."""
    parser.add_argument("--browse", type=seconds, default=DEFAULT_BROWSE, metavar="SECONDS",
                        help="look for tables on the LAN this long at most; the look ends a "
                             f"second after the last new table answered (default {DEFAULT_BROWSE:g})")


def run(args: argparse.Namespace) -> int:
    import json

    if args.address is not None and args.lan:
        raise UserError("say one place to look: HOST:PORT (a club's tables) or --lan (the tables "
                        "advertised on this LAN), not both")
    if args.address is not None:
        return club_tables(args)
    if not args.lan:
        raise UserError("say where to look: HOST:PORT (a club's tables) or --lan (the tables "
                        "advertised on this LAN)")
    tables = browse(args.browse)
    if args.json:
        print(json.dumps([table.to_json() for table in tables], indent=2, ensure_ascii=False))
    elif tables:
        print("\n".join(listing(tables)))
    else:
        print(nothing_found(args.browse))
    return 0


def club_tables(args: argparse.Namespace) -> int:
    """Print the tables of the club at ``args.address``: a line each (or ``--json``: a list).

    Raises:
        UserError: the host cannot be reached, is not a club or refused (saying why).
        ValueError: a malformed ``HOST:PORT``.
    """
    import json

    import msgspec
    import trio

    from client.address import parse_address
    from client.club import list_tables, table_line
    from client.core import ClientError
    from waddle.ruleset import DEFAULT_RULESET

    host, port = parse_address(args.address)
    try:
        tables = trio.run(list_tables, host, port).tables
    except ClientError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(msgspec.to_builtins(tables), indent=2))  # the host's text \u-escaped: no terminal obeys it
    elif tables:
        print("\n".join(table_line(table) for table in tables))
    else:
        print(f"no tables at {args.address} yet: open one (waddle bot {args.address} --create {DEFAULT_RULESET}, "
              f"or in the club's lobby: waddle join {args.address})")
    return 0


def browse(seconds: float) -> list:
    """The :class:`client.lan.LanTable` s on the LAN (:func:`client.lan.browse`).

    Raises:
        OSError: the LAN cannot be browsed (no interface), saying so.
    """
    from client.lan import browse

    try:
        return browse(seconds)
    except OSError as exc:
        raise OSError(f"cannot look for tables on the LAN: {exc.strerror or exc}") from None


def nothing_found(seconds: float) -> str:
    return f"no table answered on the LAN within {seconds:g} s ({BEYOND})"


def listing(tables: list) -> list[str]:
    """One numbered line a table, for a person: name, game, seats, code, ``HOST:PORT``,
    and the SSH port and the host's protocol where it differs from ours, e.g.
    ``"1  ann on box          Waddle           2/4 seats free  code  192.168.1.5:7777"``;
    a club's: ``"2  box                 club of tables   3 tables              192.168.1.5:7777"``
    (each of its tables has its own code)."""
    from protocol.text import pad, shown

    width = len(str(len(tables)))
    return [f"{number:>{width}}  {pad(shown(table.name), 18)}  {pad(_game(table), 15)}  "
            f"{_seats(table):<14}  {_code(table):<4}  {table.join_address}{_extras(table)}"
            for number, table in enumerate(tables, 1)]


def _game(table) -> str:
    from waddle.ruleset import BUILT_IN, get_ruleset

    if table.club:
        return "club of tables"
    name = table.game
    return get_ruleset(name).title if name in BUILT_IN else f"? {name}"  # not a game we know


def _seats(table) -> str:
    if table.club:
        return "?" if table.tables is None else f"{table.tables} table{'' if table.tables == 1 else 's'}"
    if table.phase == "lobby" and table.seats_free is not None and table.players is not None:
        return f"{table.seats_free}/{table.players} seats free" if table.seats_free else "lobby full"
    return {"playing": "game in play", "finished": "game over"}.get(table.phase, "?")


def _code(table) -> str:
    return {True: "code", False: "open"}.get(table.code_required, "")


def _extras(table) -> str:
    from protocol.messages import PROTOCOL_VERSION

    extras = f"  ssh -p {table.ssh_port}" if table.ssh_port else ""
    if table.protocol is not None and table.protocol != PROTOCOL_VERSION:
        extras += f"  (protocol {table.protocol}; this waddle speaks {PROTOCOL_VERSION})"
    return extras


def pick(seconds: float, ask=input, say=print):
    """Browse the LAN, show the tables found (:func:`listing`) with ``say`` and ask with
    ``ask`` (a prompt -> a line) which one to take; Enter takes the first, ``q`` none. Returns the
    :class:`client.lan.LanTable` chosen.

    Raises:
        UserError: no table answered, or no table was chosen (end of input, or
            :data:`PICK_TRIES` answers that are no table's number, or ``q``).
        OSError: the LAN cannot be browsed.
    """
    say(f"Looking for tables on the LAN (at most {seconds:g} s)...")
    tables = browse(seconds)
    if not tables:
        raise UserError(nothing_found(seconds))
    say("\n".join(listing(tables)))
    number = ask_number(len(tables), "table", ask, say)
    if number is not None:
        return tables[number]
    raise UserError("no table chosen (give HOST:PORT to join one by its address)")


def ask_number(count: int, what: str, ask=input, say=print) -> int | None:
    """Ask with ``ask`` which of ``count`` numbered things (a ``what``: ``"table"``,
    ``"game"``) to take; Enter takes the first, ``q`` none. Returns its index (from 0), or
    ``None``: none chosen (``q``, the end of input, or :data:`PICK_TRIES` answers that are
    no number of one)."""
    prompt = f"Which {what}? {'1' if count == 1 else f'1-{count}'} (Enter: 1, q: none) "
    for _ in range(PICK_TRIES):
        try:
            answer = ask(prompt).strip()
        except EOFError:
            return None
        if answer.lower() == "q":
            return None
        if not answer:
            return 0
        if answer.isdigit() and 1 <= int(answer) <= count:
            return int(answer) - 1
        say(f"no {what} numbered {answer!r}")
    return None
