"""``HOST:PORT`` addresses on the command line."""

from __future__ import annotations


def parse_address(text: str) -> tuple[str, int]:
    """Split ``"HOST:PORT"`` (``"[::1]:7777"`` for an IPv6 host) into ``(host, port)``.

    Raises:
        ValueError: no host or port, or a port that is not 1..65535.
    """
    text = text.strip()
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
    else:
        host, sep, port = text.rpartition(":")
    if not sep or not host or (":" in host and not text.startswith("[")):
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:7777), got {text!r}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"bad port {port!r} in {text!r}: expected a number from 1 to 65535")
    return host, int(port)
