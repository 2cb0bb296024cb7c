"""The Waddle client: the trio client core (:mod:`client.core`), the table state it
keeps (:mod:`client.state`), headless bots (:mod:`client.botplay`), the terminal UI
(:mod:`client.ui`) and the ``waddle`` command line (:mod:`client.cli`).

    from client import connect
    async with connect("127.0.0.1", 7777, name="Ada") as client: ...

The names below are imported on first use, so ``waddle --help`` stays fast.
"""

import importlib

_EXPORTS = {"ActionRejected": "client.core", "Client": "client.core", "ClientError": "client.core",
            "connect": "client.core", "Status": "client.state", "TableState": "client.state"}

__all__ = ["ActionRejected", "Client", "ClientError", "Status", "TableState", "connect"]


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'client' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
