"""The terminal UI of one SSH guest: what the SSH gateway runs in each guest's
pseudo-terminal (``python -m client.sshguest``; :mod:`server.ssh.session`). Not a command
for people: ``waddle host --ssh PORT`` starts it.

It is ``waddle join`` over the Unix socket of the guest's session (``--socket``), as
``--name``, with the UI options the guest's terminal allows (``--ascii``, ``--no-color``):
at a host of one table its table; at a club (``--club``) its lobby (:mod:`client.ui.club`;
the table of ``--table`` first, a returning guest's seat), each table's screen in turn,
back to the lobby when one ends. The join code and the seat tokens to reclaim, when the gateway has
them, come in the environment (``WADDLE_CODE``; ``WADDLE_SEATS``, a JSON object of table
ids to tokens: the command line is visible to every user of the host), and every seat
token the host gives is written back on ``--seat-fd`` as a ``seated TABLE TOKEN`` line,
so the gateway gives the guest the same seats next time. On the way out of a table it
says how to come back (``--again``: the guest's ssh command).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

#: What ``--at`` names when the gateway gives no address (the club's lobby shows it).
SOMEWHERE = "ssh:0"


class GatewaySeats:
    """The seat memory of an SSH guest (what :class:`client.core.Client` asks of a
    :class:`client.seats.SeatStore`): the gateway's tokens for the guest by table id
    (``tokens``), and each token the host gives written back on the file descriptor ``fd``."""

    def __init__(self, tokens: dict[str, str], fd: int | None) -> None:
        self.tokens = dict(tokens)
        self._out = os.fdopen(fd, "w", encoding="ascii", buffering=1) if fd is not None else None

    def lookup(self, address: str, table: str, name: str) -> str | None:
        return self.tokens.get(table)

    def remember(self, address: str, table: str, name: str, label: str, token: str) -> bool:
        self.tokens[table] = token
        if self._out is None:
            return False
        try:
            self._out.write(f"seated {table} {token}\n")
        except OSError:
            return False
        return True

    def forget(self, token: str) -> bool:
        self.tokens = {table: kept for table, kept in self.tokens.items() if kept != token}
        return True


def tokens_from(text: str | None) -> dict[str, str]:
    """``WADDLE_SEATS`` read: table ids to tokens (text that is not such an object: none)."""
    try:
        tokens = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(tokens, dict):
        return {}
    return {table: token for table, token in tokens.items() if isinstance(token, str)}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from client.ui import options

    parser = argparse.ArgumentParser(prog="python -m client.sshguest",
                                     description="the terminal UI of one SSH guest (run by the gateway)")
    parser.add_argument("--socket", required=True, help="the Unix socket of the guest's session")
    parser.add_argument("--name", required=True, help="the guest's name")
    parser.add_argument("--seat-fd", type=int, help="write each seat token given here")
    parser.add_argument("--again", default="", help="the command that brings the guest back")
    parser.add_argument("--at", default=SOMEWHERE, metavar="HOST:PORT",
                        help="where the guest reached the host (its ssh address), as the club's lobby names it")
    parser.add_argument("--club", action="store_true", help="the host is a club: show its lobby")
    parser.add_argument("--table", metavar="ID", help="with --club, the table to open before its lobby")
    options.add_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    _take_terminal()
    from client.commands import run_ui
    from client.commands.join import club_evening, come_back_with
    from client.core import AtClub
    from client.ui import options
    from client.ui.session import RemoteSession
    from protocol.text import clean

    host, _, port = args.at.rpartition(":")
    port = int(port) if port.isdigit() else 0
    seats = GatewaySeats(tokens_from(os.environ.pop("WADDLE_SEATS", None)), args.seat_fd)
    client_options = {"code": os.environ.pop("WADDLE_CODE", None), "unix_socket": args.socket,
                      "seat_store": seats}
    club = {"seat_store": seats, "unix_socket": args.socket}  # a club's tables each ask their own code
    args.code, args.wait = None, 10.0
    try:
        if args.club:
            return club_evening(host, port, args, club, again=args.again, first=args.table)
        session = RemoteSession(host, port, client_options={
            "name": options.check_name(args.name), "first_wait": 10.0, **client_options})
        try:
            status = run_ui(session, args)
        except AtClub:  # a gateway that did not say so
            return club_evening(host, port, args, club, again=args.again)
    except OSError as exc:
        print(f"waddle: {clean(str(exc))}", file=sys.stderr)
        return 2
    message = come_back_with(session.state, args.again)
    if message:
        print(message, flush=True)
    return status


def _take_terminal() -> None:
    """Make standard input (the guest's pseudo-terminal) this session's controlling
    terminal, so that the kernel tells the UI when the guest's window changes size."""
    import fcntl
    import termios

    with contextlib.suppress(OSError):
        fcntl.ioctl(sys.stdin.fileno(), termios.TIOCSCTTY, 0)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
