"""The JSON form of the engine's msgspec Structs as plain Python data."""

from __future__ import annotations

from typing import Any

import msgspec

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def json_form(value: Any) -> Any:
    """``value`` (a Struct, or data holding Structs) as the dicts, lists, strings and
    numbers its JSON text decodes to: what a peer or a record file sees."""
    return _decode(_encode(value))
