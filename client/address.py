"""``HOST:PORT`` addresses and port numbers on the command line."""

from __future__ import annotations


def check_port(port: int | str, *, any_free: bool = False, address: str | None = None) -> int:
    """The port number ``port`` (an int, or digits from an address) after checking its range:
    1..65535 for a port to connect to, 0..65535 with ``any_free`` (a host's ``--port``: 0
    asks for any free port).

    Raises:
        ValueError: not a number in range, naming the port (and ``address``, the
            ``HOST:PORT`` text it came from, if given).
    """
    low = 0 if any_free else 1
    number = port if isinstance(port, int) else int(port) if port.isdigit() else None
    if number is None or not low <= number <= 65535:
        where = f"{port!r} in {address!r}" if address is not None else f"{port}"
        free = " (0: any free port)" if any_free else ""
        raise ValueError(f"bad port {where}: expected a number from {low} to 65535{free}")
    return number


def parse_address(text: str) -> tuple[str, int]:
    """Split ``"HOST:PORT"`` (``"[::1]:7777"`` for an IPv6 host) into ``(host, port)``.

    Raises:
        ValueError: no host or port, or a port that is not 1..65535 (:func:`check_port`).
    """
    text = text.strip()
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
    else:
        host, sep, port = text.rpartition(":")
    if not sep or not host or (":" in host and not text.startswith("[")):
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:7777), got {text!r}")
    return host, check_port(port, address=text)
