"""The board as text: a pure function from a position to styled character cells.

Hexes are axial ``(q, r)`` (:mod:`waddle.hex.hexgrid`) drawn as a *brick* layout: hex row
``r`` takes text lines ``(r - r_min) * h .. + h - 1`` and the hex starts at column
``(2q + r - m) * w // 2`` where ``m`` is the smallest ``2q + r`` on the map, so each row
is shifted half a cell from the one above. The cell size ``(w, h)`` is the largest of
:data:`SIZES` that fits the space given.

A cell is ``w`` characters: a marker, ``w - 2`` characters of label, a marker. Markers
say what the hex is in colourless text too: ``* *`` the search bot's suggestion, ``[ ]`` the cursor, ``> <`` the active
hex, ``{ }`` a highlighted hex (a waddle or a pool in the score view), ``( )`` the water
of an outlined pool (the active pool, and those the cursor's hex touches). Labels: ``+``
an ice hex where the current player may place, ``·`` (``.`` in ASCII) other empty ice, a
player's letter (:data:`waddle.hex.render.LETTERS`) for a single penguin and the letter
twice for a double; water shows its number (``~`` if none) and, when the cell has a
second line, its fish values (as many as fit, then ``+``). Styles are prompt-toolkit
class names (``class:ice``, ``class:water``, ``class:legal``, ``class:active``,
``class:cursor``, ``class:highlight``, ``class:outline``, ``class:last`` (each player's
last penguin), ``class:player.red`` ...); colours are chosen by the application's style
sheet, so the same fragments serve colour, ``NO_COLOR`` and tests.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

from waddle.hex.hexgrid import Hex
from waddle.hex.maps import Map, Water
from waddle.hex.render import LETTERS

Fragment = tuple[str, str]


@dataclass(frozen=True, slots=True)
class CellSize:
    """The size of one hex cell in characters: ``width`` (even) by ``height`` lines."""

    width: int
    height: int


#: Cell sizes from the largest to the smallest; the first that fits is used (a wide
#: window gets big cells).
SIZES = (CellSize(12, 5), CellSize(10, 4), CellSize(8, 3), CellSize(6, 2), CellSize(4, 2),
         CellSize(4, 1))

_MARKERS = {"suggest": "**", "cursor": "[]", "active": "><", "highlight": "{}", "outline": "()"}


@dataclass(frozen=True, slots=True)
class Board:
    """A rendered board.

    ``lines`` holds one tuple of ``(style, text)`` fragments per text line (each line
    exactly ``width`` characters; a line whose cells look as they did on a board drawn
    before is the same object, so a frame finds it unchanged at once); ``cells`` maps each hex to the ``(x, y)`` of its
    cell's top-left character; ``size`` is the cell size used.
    """

    lines: tuple[tuple[Fragment, ...], ...]
    cells: Mapping[Hex, tuple[int, int]]
    size: CellSize
    width: int

    def text(self) -> str:
        """The board as plain text, one line per text line, trailing spaces removed."""
        return "\n".join("".join(f[1] for f in line).rstrip() for line in self.lines)

    def hex_at(self, x: int, y: int) -> Hex | None:
        """The hex whose cell covers column ``x`` of line ``y``, or ``None``."""
        w, h = self.size.width, self.size.height
        for hex, (cx, cy) in self.cells.items():
            if cx <= x < cx + w and cy <= y < cy + h:
                return hex
        return None


def board_extent(map: Map, size: CellSize) -> tuple[int, int]:
    """The ``(width, height)`` in characters of ``map`` drawn with cells of ``size``."""
    columns = [2 * q + r for q, r in map.hexes]
    rows = [r for _, r in map.hexes]
    width = (max(columns) - min(columns)) * size.width // 2 + size.width
    return width, (max(rows) - min(rows) + 1) * size.height


def fit(map: Map, width: int, height: int) -> CellSize | None:
    """The largest of :data:`SIZES` in which ``map`` fits ``width`` x ``height``, or ``None``."""
    for size in SIZES:
        w, h = board_extent(map, size)
        if w <= width and h <= height:
            return size
    return None


def render_board(
    map: Map,
    tokens: Mapping[Hex, tuple[str, bool]],
    *,
    width: int,
    height: int,
    active: Hex | None = None,
    legal: Collection[Hex] = (),
    cursor: Hex | None = None,
    highlight: Collection[Hex] = (),
    outline: Collection[Hex] = (),
    last: Collection[Hex] = (),
    suggested: Hex | None = None,
    ascii: bool = False,
) -> Board | None:
    """Draw ``map`` with ``tokens`` (hex -> ``(colour, is_double)``) in ``width`` x ``height``.

    ``active`` is the active hex, ``legal`` the ice hexes the current player may place
    on, ``cursor`` the selected hex, ``highlight`` hexes to mark (a waddle, a pool),
    ``outline`` the water hexes of pools to outline, ``last`` the hexes of each player's
    last placement (style ``class:last``), ``suggested`` the hex the search bot suggests
(marked ``* *``, before the cursor); ``ascii`` keeps to 7-bit characters.
    :meth:`Board.hex_at` maps a mouse position back to its hex.

    Returns ``None`` when the map does not fit even with the smallest cells.
    """
    size = fit(map, width, height)
    if size is None:
        return None
    w, h = size.width, size.height
    left = min(2 * q + r for q, r in map.hexes)
    top = min(r for _, r in map.hexes)
    cells = {(q, r): ((2 * q + r - left) * w // 2, (r - top) * h) for q, r in map.hexes}
    total, lines = board_extent(map, size)
    rows: list[list[tuple[int, tuple[Fragment, ...]]]] = [[] for _ in range(lines)]
    legal, highlight, outline, last = set(legal), set(highlight), set(outline), set(last)
    for hex, (x, y) in cells.items():
        mark = "highlight" if hex in highlight else "outline" if hex in outline else None
        marker = "suggest" if hex == suggested else "cursor" if hex == cursor else "active" if hex == active else mark
        lines = _hex_lines(map.water.get(hex), tokens.get(hex), hex in legal, hex == active, ascii, w, h,
                           marker, mark, hex in last)
        for line, fragments in enumerate(lines):
            rows[y + line].append((x, fragments))
    return Board(tuple(_join(tuple(row), total) for row in rows), cells, size, total)


@lru_cache(maxsize=4096)
def _hex_lines(water: Water | None, token: tuple[str, bool] | None, legal: bool, active: bool,
               ascii: bool, w: int, h: int, marker: str | None, mark: str | None,
               last: bool) -> tuple[tuple[Fragment, ...], ...]:
    """The ``h`` text lines of one hex ``w`` wide: ``water`` (if a water hex) or the ice
    with its ``token``, ``legal`` or not; ``marker`` around its first label; styled
    ``class:MARK`` (a highlight or an outline) and ``class:last`` if ``last``. (Cached:
    most hexes look the same from one frame to the next.)"""
    style, labels = _cell(water, token, legal, active, ascii, w - 1)
    if mark:
        style += f" class:{mark}"
    if last:
        style += " class:last"
    return _cell_lines(style, tuple(labels[:h]), w, h, marker)


def _cell(water: Water | None, token: tuple[str, bool] | None, legal: bool, active: bool,
          ascii: bool, inner: int) -> tuple[str, list[str]]:
    """The style and label lines of one hex (fish at most ``inner`` characters)."""
    if water is not None:
        number = "~" if water.number is None else str(water.number)
        fish = fish_label(water.fish, inner)
        return "class:water" + (" class:active" if active else ""), [number] + ([fish] if fish else [])
    if token is not None:
        colour, double = token
        letter = LETTERS.get(colour, "?")
        return f"class:ice class:player.{colour}", [letter * 2 if double else letter]
    if legal:
        return "class:ice class:legal", ["+"]
    return "class:ice", ["." if ascii else "·"]


def fish_label(fish: tuple[int, ...], width: int) -> str:
    """Fish values as ``5,1`` in at most ``width`` characters: as many of the first as fit,
    then ``+`` for the rest (``3,2,1`` in 3 characters is ``3+``), never run together."""
    text = ",".join(map(str, fish))
    for n in range(len(fish) - 1, 0, -1):
        if len(text) <= width:
            break
        text = ",".join(map(str, fish[:n])) + "+"
    return text


def _cell_lines(style: str, labels: tuple[str, ...], w: int, h: int,
                marker: str | None) -> tuple[tuple[Fragment, ...], ...]:
    """The ``h`` text lines of a cell ``w`` wide: its labels centred vertically; the
    first label's line between the markers, the others followed by a space."""
    first = (h - len(labels)) // 2
    lines = []
    for line in range(h):
        index = line - first
        label = labels[index] if 0 <= index < len(labels) else ""
        lines.append(_cell_line(label, w, style, index == 0, marker))
    return tuple(lines)


def _cell_line(label: str, w: int, style: str, first: bool, marker: str | None) -> tuple[Fragment, ...]:
    """One text line of a cell: marker, centred label, marker (other lines: label, space)."""
    if not first:
        return (style, label[:w - 1].center(w - 1)), (style, " ")
    left, right = _MARKERS[marker] if marker else "  "
    mark_style = f"{style} class:{marker}" if marker else style
    return (mark_style, left), (style, label[:w - 2].center(w - 2)), (mark_style, right)


@lru_cache(maxsize=1024)
def _join(row: tuple[tuple[int, tuple[Fragment, ...]], ...], total: int) -> tuple[Fragment, ...]:
    """Lay the cells of one text line out by column, padding the gaps with spaces;
    neighbouring fragments of one style are merged (fewer fragments draw faster).
    (Cached: a line whose cells did not change is the same object next frame.)"""
    out: list[Fragment] = []
    at = 0
    for x, fragments in sorted(row, key=lambda item: item[0]):
        if x > at:
            _add(out, "", " " * (x - at))
        for style, text in fragments:
            _add(out, style, text)
        at = x + sum(len(f[1]) for f in fragments)
    if at < total:
        _add(out, "", " " * (total - at))
    return tuple(out)


def _add(out: list[Fragment], style: str, text: str) -> None:
    if out and out[-1][0] == style:
        out[-1] = (style, out[-1][1] + text)
    else:
        out.append((style, text))

