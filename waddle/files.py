"""Reading and writing the engine's JSON files (records, saves): the only I/O it does."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def write_json(path: str | Path, data: Mapping[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` atomically (a crash leaves the old file or the
    new), flushed to the disk before the rename.

    Raises:
        OSError: if the file cannot be written (no temporary file is left behind).
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(data, file, indent=1)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
