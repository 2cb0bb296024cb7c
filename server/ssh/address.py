"""How guests reach the gateway: the address to show them and the ``ssh`` command to type."""

from __future__ import annotations

import shlex
import socket

#: The placeholder for the guest's own name in the command shown at start.
NAME = "NAME"


def shown_address(address: str) -> str:
    """The address guests type for a gateway listening on ``address``: the same, or this
    machine's LAN address when it listens on every interface (``0.0.0.0``, ``::``)."""
    return lan_address() if address in ("0.0.0.0", "::", "") else address


def lan_address() -> str:
    """This machine's address on the network its default route leads to (a UDP socket
    connected to a documentation address: routing only, no packet is sent), else its name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def ssh_command(shown: str, port: int, name: str = NAME) -> str:
    """What a guest named ``name`` types, e.g. ``"ssh -p 2222 NAME@192.168.1.5"`` (a
    real name is quoted for a POSIX shell when it needs it; no ``-p`` for port 22)."""
    user = name if name == NAME else shlex.quote(name)
    return ("ssh " if port == 22 else f"ssh -p {port} ") + f"{user}@{shown}"
