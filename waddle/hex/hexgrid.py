"""Axial hex coordinates.

A hex is a tuple ``(q, r)`` of ints in axial coordinates (Red Blob Games,
"Hexagonal Grids"). The six neighbours of ``(q, r)`` are listed in
:data:`DIRECTIONS` order, starting east and turning counter-clockwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Hex = tuple[int, int]

#: The six axial direction offsets, east first, then counter-clockwise.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(hex: Hex) -> Iterator[Hex]:
    """Yield the six neighbours of ``hex`` in :data:`DIRECTIONS` order."""
    q, r = hex
    for dq, dr in DIRECTIONS:
        yield (q + dq, r + dr)


def are_neighbours(a: Hex, b: Hex) -> bool:
    """Whether hexes ``a`` and ``b`` share an edge."""
    return distance(a, b) == 1


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between hexes ``a`` and ``b`` on the hex grid."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(hex: Hex, turns: int) -> Hex:
    """Rotate ``hex`` about ``(0, 0)`` by ``turns`` sixths of a turn; one sixth takes ``(1, 0)`` to ``(0, 1)``."""
    q, r = hex
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def components(hexes: Iterable[Hex]) -> list[frozenset[Hex]]:
    """Split ``hexes`` into maximal connected groups, ordered by their smallest hex."""
    rest = set(hexes)
    groups = []
    for start in sorted(rest):
        if start not in rest:
            continue
        group, frontier = {start}, [start]
        rest.discard(start)
        while frontier:
            for n in neighbours(frontier.pop()):
                if n in rest:
                    rest.discard(n)
                    group.add(n)
                    frontier.append(n)
        groups.append(frozenset(group))
    return groups


def format_hex(hex: Hex) -> str:
    """The text form ``"q,r"`` of a hex, as used in action text."""
    return f"{hex[0]},{hex[1]}"


def parse_hex(text: str) -> Hex:
    """Parse ``"q,r"`` (spaces and parentheses allowed) into a hex.

    Raises:
        ValueError: if ``text`` is not two comma-separated integers.
    """
    parts = text.strip().strip("()").split(",")
    if len(parts) != 2:
        raise ValueError(f"not a hex {text!r}: expected 'q,r'")
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        raise ValueError(f"not a hex {text!r}: q and r must be integers") from None
