"""Reading and writing the engine's JSON files (records, saves): the only I/O it does."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec


def write_json(path: str | Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` atomically (a crash leaves the old file or the
    new), flushed to the disk before the rename. A ``path`` that is not a regular file
    (``/dev/null``, a pipe) is written to, never replaced: the rename would put a file
    in the place of the device.

    The text is UTF-8, indented by one space per level; it is encoded by msgspec (a
    finished 4-player game's save in 0.03 ms, against 0.7 ms with the standard library's
    ``json``: a host writes one at every start and end, on its event loop or beside it).

    Raises:
        OSError: if the file cannot be written (no temporary file is left behind).
        TypeError: if ``data`` holds a value JSON cannot carry (nothing is written).
    """
    path = Path(path)
    text = msgspec.json.format(msgspec.json.encode(data), indent=1) + b"\n"
    if path.exists() and not path.is_file():
        with open(path, "wb") as file:
            file.write(text)
        return
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
