"""Actions: place a single or a double on an ice hex, or scout.

Text forms round-trip through :func:`parse_action`: ``"place 1,-1"``,
``"double 1,-1"`` and ``"scout"``. Actions are msgspec Structs: their JSON form, on
the wire and in records (``docs/records.md``, without the record's ``player``), is
``{"type": "place", "hex": [1, -1], "double": false}`` or ``{"type": "scout"}``.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from waddle.hex.hexgrid import format_hex, parse_hex
from waddle.hex.maps import MAX_COORD
from waddle.jsonform import json_form

#: A coordinate as the wire and records bound it (a map's hexes keep to it too).
Coord = Annotated[int, msgspec.Meta(ge=-MAX_COORD, le=MAX_COORD)]


class Place(msgspec.Struct, frozen=True, tag="place", tag_field="type"):
    """Put a penguin on the empty ice ``hex`` next to the active hex; ``double`` uses a double token."""

    hex: tuple[Coord, Coord]
    double: bool = False

    def __str__(self) -> str:
        return f"{'double' if self.double else 'place'} {format_hex(self.hex)}"

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{"type": "place", "hex": [q, r], "double": bool}``."""
        return json_form(self)


class Scout(msgspec.Struct, frozen=True, tag="scout", tag_field="type"):
    """Scout ahead: move to the back of the other turn track, placing no more this round."""

    def __str__(self) -> str:
        return "scout"

    def to_dict(self) -> dict[str, Any]:
        """The record form ``{"type": "scout"}``."""
        return json_form(self)


Action = Place | Scout

#: The one scout action.
SCOUT = Scout()


def parse_action(text: str) -> Action:
    """Parse the text form of an action (``"place q,r"``, ``"double q,r"``, ``"scout"``).

    Raises:
        ValueError: if ``text`` is not an action's text form.
    """
    word, _, rest = text.strip().partition(" ")
    if word == "scout" and not rest.strip():
        return SCOUT
    if word in ("place", "double"):
        return Place(parse_hex(rest), word == "double")
    raise ValueError(f"not an action {text!r}: expected 'place q,r', 'double q,r' or 'scout'")


def action_from_dict(data: Any) -> Action:
    """Build an action from its record form (extra keys such as ``player`` are ignored).

    Raises:
        ValueError: if ``data`` is not an action object.
    """
    if not isinstance(data, dict):
        raise ValueError("an action must be an object")
    kind = data.get("type")
    if kind == "scout":
        return SCOUT
    if kind != "place":
        raise ValueError(f"unknown action type {kind!r} (expected 'place' or 'scout')")
    hex, double = data.get("hex"), data.get("double", False)
    if (not isinstance(hex, list) or len(hex) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in hex)):
        raise ValueError("'hex' must be [q, r], two integers")
    if not isinstance(double, bool):
        raise ValueError("'double' must be true or false")
    return Place((hex[0], hex[1]), double)
