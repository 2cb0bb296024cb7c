"""``waddle join HOST:PORT``: take a seat at a hosted table and play in the terminal UI.

Without ``HOST:PORT`` it looks for tables on the LAN and asks which one to join
(:func:`client.commands.tables.pick`), and for the join code if that table wants one.

The seat's token is remembered (:mod:`client.seats`): run the same command again (same
address and ``--name``) after the terminal closed, and it takes the seat back.
"""

from __future__ import annotations

import argparse
import getpass
import os

from client.commands import add_wait_argument, run_ui
from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser, "player")
    parser.add_argument("--colour", metavar="COLOUR",
                        help="your preferred seat colour (default: the first free one)")


def run(args: argparse.Namespace) -> int:
    from client.seats import SeatStore

    return open_table(args, label=args.colour, seat_store=SeatStore())


def add_table_arguments(parser: argparse.ArgumentParser, default_name: str) -> None:
    """``HOST:PORT`` (without it: a table found on the LAN), ``--name``, ``--code``,
    ``--browse`` and the UI options (``join`` and ``watch``)."""
    from client.commands.tables import add_browse_argument

    parser.add_argument("address", metavar="HOST:PORT", nargs="?",
                        help="where the table is hosted (default: look on the LAN and ask)")
    parser.add_argument("--name", default=os.environ.get("USER") or default_name,
                        help=options.name_help())
    parser.add_argument("--code", help="the table's join code, if it has one")
    parser.add_argument("--table", metavar="ID",
                        help="at a club (waddle serve --club), the table with this id "
                             "(waddle tables HOST:PORT lists them)")
    add_wait_argument(parser)
    add_browse_argument(parser)
    options.add_arguments(parser)


def open_table(args: argparse.Namespace, **client_options) -> int:
    """Connect to ``args.address`` as ``args.name`` and run the UI until the player quits;
    at a club without ``--table``, its lobby first (:func:`club_evening`).

    Raises:
        ValueError: a malformed ``HOST:PORT``.
        OSError: the host cannot be reached or refuses the client.
    """
    from client.address import parse_address
    from client.core import AtClub

    if args.address is None:
        choose_on_lan(args)
    host, port = parse_address(args.address)
    try:
        session = table_ui(host, port, args, client_options)
    except AtClub:
        return club_evening(host, port, args, client_options)
    message = come_back(session.state, args)
    if message:
        print(message, flush=True)
    return 0


def table_ui(host: str, port: int, args: argparse.Namespace, client_options: dict, address: str = ""):
    """Run the UI of the table at ``host``:``port`` (``args.table`` at a club) until the
    player quits; the session it ran (its state as the UI last saw it).

    Raises:
        client.core.AtClub: the host is a club and ``args.table`` is none.
        OSError: the host cannot be reached or refuses the client.
    """
    from client.ui.session import RemoteSession

    session = RemoteSession(host, port, client_options={
        "name": options.check_name(args.name), "code": args.code, "first_wait": args.wait,
        "table": args.table, **client_options}, address=address)
    run_ui(session, args)
    return session


def club_evening(host: str, port: int, args: argparse.Namespace, client_options: dict,
                 ask=getpass.getpass, *, again: str | None = None, first: str | None = None,
                 hosting: tuple[str, ...] | None = None) -> int:
    """The club's lobby (:mod:`client.ui.club`), then the table chosen there, then the
    lobby again, until the player leaves the lobby (then printing how to come back to
    the seat kept at the last table, if one is). A table that wants a code and was
    given none (``--code``) asks for it with ``ask`` (by default not shown as it is typed,
    as ssh asks a password; nothing typed: the lobby again, saying the table needs one); a
    refusal (a full table, a wrong code), or a table that is gone (a club resumed without
    it), is shown in the lobby.
    ``client_options`` are each table's client's (with ``unix_socket``, the lobby's
    requests go there too: an SSH guest's, :mod:`client.sshguest`); ``again``: the command
    that brings the player back to a seat (``None``: ``waddle join`` with the table's id);
    ``first``: the id of a table to open before the lobby (a returning SSH guest's seat);
    ``hosting``: the lobby is the club's own host's (``waddle host --club``): these lines
    (how others join) are shown at its top, and leaving it stops the club (asked first).

    Raises:
        OSError: the terminal UI cannot run.
    """
    import sys

    from client.core import TableGone
    from client.ui.club import Choice, ClubLobby, choose
    from client.ui.style import want_colour

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise OSError(f"{host}:{port} is a club of many tables: its lobby needs a terminal "
                      f"(else: waddle tables {host}:{port}, then --table ID)")
    lobby = ClubLobby(host, port, options.check_name(args.name), watching=bool(client_options.get("watch")),
                      unix_socket=client_options.get("unix_socket"),
                      stops_club=hosting is not None, joins=hosting or ())
    choice = Choice(first) if first else choose(lobby, colour=want_colour(args.no_color))
    parting = None
    while choice is not None:
        args.table = choice.table
        code = args.code
        if choice.code_required and code is None:
            try:
                code = ask("Join code: ").strip() or None
            except EOFError:
                code = None
            if code is None:  # nothing typed: not tried, and said so in the lobby
                lobby.notice = "this table needs a join code"
                choice = choose(lobby, colour=want_colour(args.no_color))
                continue
        table_args = argparse.Namespace(**{**vars(args), "code": code})
        try:
            where = "" if again else (f"waddle join {host}:{port} --table {choice.table}"
                                      + (f" --code {shell_word(code)}" if code else ""))
            session = table_ui(host, port, table_args, {**client_options, "watch": choice.watch}, where)
        except TableGone as exc:
            lobby.notice, parting = exc.describe(choice.name or repr(choice.table)), None
        except OSError as exc:
            lobby.notice, parting = str(exc), None
        else:
            parting = come_back_with(session.state, again) if again else come_back(session.state, table_args)
            lobby.notice = parting or ""
        choice = choose(lobby, colour=want_colour(args.no_color))
    if parting:  # the seat kept at the last table: how to come back once the terminal is closed
        print(parting, flush=True)
    return 0


def choose_on_lan(args: argparse.Namespace, ask=input) -> None:
    """Set ``args.address`` to a table picked from those on the LAN
    (:func:`client.commands.tables.pick`), and ``args.code`` to the code asked for with
    ``ask`` when that table wants one and none was given.

    Raises:
        client.cli.UserError: no table found or chosen.
    """
    from client.commands.tables import pick

    table = pick(args.browse, ask=ask)
    args.address = table.join_address
    if table.code_required and args.code is None:
        try:
            args.code = ask("Join code: ").strip() or None
        except EOFError:
            args.code = None


def come_back(state, args: argparse.Namespace) -> str | None:
    """What a player who left a table (``state``, as the UI last saw it) is told on the way
    out: that the seat is kept and the command that takes it back; after the host stopped
    (``state.host_stopped``, while the client watched for its return), what the host said
    (whether the game is saved, how it goes on) and the same command for when it runs again;
    ``None`` for a spectator, a finished game or a client that never sat down."""
    again = f"waddle join {args.address} --name {shell_word(args.name)}"
    if getattr(args, "table", None):
        again += f" --table {shell_word(args.table)}"
    if args.code:
        again += f" --code {shell_word(args.code)}"
    return come_back_with(state, again)


def come_back_with(state, again: str) -> str | None:
    """:func:`come_back`'s message with the command ``again`` that takes the seat back
    (shared with the SSH gateway's guests, :mod:`client.sshguest`)."""
    if state.seat is None or state.phase not in ("lobby", "playing"):
        return None
    if state.host_stopped:   # cleared once connected again
        where = "lobby" if state.phase == "lobby" else "game"
        return (f"You left the {where}; {state.host_stopped}. No host is running now: "
                f"when it runs again, come back with:  {again}")
    if state.phase == "lobby":
        return f"You left the lobby; your seat is held for a short while. Join again with:  {again}"
    return ("You left the game; your seat is kept (a bot plays your turns meanwhile). "
            f"Come back with:  {again}")


def shell_word(text: str) -> str:
    """``text`` as one word for a POSIX shell, safe to print on a terminal: quoted as
    :func:`shlex.quote` does, or, when it holds a character that is not printable (an
    escape sequence, a bidi control), in ``$'...'`` with those characters escaped, so the
    terminal shows the command, never obeys it, and the command still gives ``text``."""
    import shlex

    if text.isprintable():
        return shlex.quote(text)
    out = []
    for char in text:
        if char in "\\'":
            out.append("\\" + char)
        elif char.isprintable():
            out.append(char)
        elif ord(char) < 0x100:
            out.append(f"\\x{ord(char):02x}")
        elif ord(char) < 0x10000:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(f"\\U{ord(char):08x}")
    return "$'" + "".join(out) + "'"
