"""The terminal UI of one SSH guest: what the SSH gateway runs in each guest's
pseudo-terminal (``python -m client.sshguest``; :mod:`server.ssh.session`). Not a command
for people: ``waddle host --ssh PORT`` starts it.

It is ``waddle join`` over the Unix socket of the guest's session (``--socket``), as
``--name``, with the UI options the guest's terminal allows (``--ascii``, ``--no-color``).
The join code and the seat token to reclaim, when the gateway has them, come in the
environment (``WADDLE_CODE``, ``WADDLE_SEAT_TOKEN``: the command line is visible to every
user of the host), and every seat token the host gives is written back on ``--seat-fd``
as a ``seated TOKEN`` line, so the gateway gives the guest the same seat next time. On
the way out it prints how to come back (``--again``: the guest's ssh command).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys


class GatewaySeats:
    """The seat memory of an SSH guest (what :class:`client.core.Client` asks of a
    :class:`client.seats.SeatStore`): the gateway's token for the guest, and each token
    the host gives written back on the file descriptor ``fd``."""

    def __init__(self, token: str | None, fd: int | None) -> None:
        self.token = token
        self._out = os.fdopen(fd, "w", encoding="ascii", buffering=1) if fd is not None else None

    def lookup(self, address: str, table: str, name: str) -> str | None:
        return self.token

    def remember(self, address: str, table: str, name: str, label: str, token: str) -> bool:
        self.token = token
        if self._out is None:
            return False
        try:
            self._out.write(f"seated {token}\n")
        except OSError:
            return False
        return True

    def forget(self, token: str) -> bool:
        if self.token == token:
            self.token = None
        return True


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from client.ui import options

    parser = argparse.ArgumentParser(prog="python -m client.sshguest",
                                     description="the terminal UI of one SSH guest (run by the gateway)")
    parser.add_argument("--socket", required=True, help="the Unix socket of the guest's session")
    parser.add_argument("--name", required=True, help="the guest's name")
    parser.add_argument("--seat-fd", type=int, help="write each seat token given here")
    parser.add_argument("--again", default="", help="the command that brings the guest back")
    options.add_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    _take_terminal()
    from client.commands import run_ui
    from client.commands.join import come_back_with
    from client.ui import options
    from client.ui.session import RemoteSession

    seats = GatewaySeats(os.environ.pop("WADDLE_SEAT_TOKEN", None), args.seat_fd)
    session = RemoteSession("ssh", 0, client_options={
        "name": options.check_name(args.name), "code": os.environ.pop("WADDLE_CODE", None),
        "unix_socket": args.socket, "seat_store": seats, "first_wait": 10.0})
    try:
        status = run_ui(session, args)
    except OSError as exc:
        from protocol.text import clean

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
