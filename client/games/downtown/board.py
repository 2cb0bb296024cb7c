"""The places as text: a pure function from the penguins on each place to styled cells.

The places are drawn as the table lays them out (DOWNTOWN.md "Places and neighbourhoods"):
with 2 players one ring of five, ``P1`` at the top and on clockwise (the one
neighbourhood, always active, has no label); with 3 players rows of
3, 2 and 3, the two centre places between the Light row above and the Dark row below
(they belong to both); with 4 players two rings side by side, Light and Dark. A place is a
box of :data:`CELL` characters by 3 lines::

    +- L1 --+
    | RRY.. |        R a red penguin, Y a yellow one, . room (5 at most)
    +-------+

Marks that say what a place is in colourless text too: the cursor's box is drawn with
``#`` and ``=`` (double lines in Unicode); ``*`` before the penguins: the place counted
in the score shown (the last card scored, or the play being composed); penguins just
put on by the play being composed are lower case; the bottom border may carry a note
(``+1r2y``: put on, ``-1r``: taken off, ``out``: emptied). A neighbourhood's label is
``> Light <`` while it is active. Styles are prompt-toolkit class names
(``class:player.red``, ``class:player.yellow`` for penguins, ``class:cursor``,
``class:highlight``, ``class:active``, ``class:legal`` for penguins just put on,
``class:dim``), so the same fragments serve colour, ``NO_COLOR`` and tests.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from waddle.downtown.board import CAPACITY, Layout

Fragment = tuple[str, str]

#: A place's box: columns and lines.
CELL = 9
CELL_LINES = 3
#: Where each place of a ring of five stands: ``(column, line)`` of its box's corner,
#: clockwise from the top.
RING = ((6, 0), (12, 3), (11, 6), (1, 6), (0, 3))
RING_WIDTH = 21
#: The 3-player rows: places by row, and each row's indent.
ROWS_3 = (((0, 1, 2), 0), ((3, 4), 5), ((5, 6, 7), 0))
#: Columns between two rings (4 players) and between two boxes in a row (3 players).
GAP = 2
#: What the box's lines are drawn with: (top-left, top, top-right, side, bottom-left, bottom-right).
_BOXES = {
    (False, False): "┌─┐│└┘", (False, True): "╔═╗║╚╝",
    (True, False): "+-+|++", (True, True): "#=####",
}
_HOOD_TITLES = {"ring": "", "light": "Light", "dark": "Dark"}


@dataclass(frozen=True, slots=True)
class PlaceLook:
    """How one place is drawn: its ``red`` and ``yellow`` penguins (after the play being
    composed), of them ``new_red`` and ``new_yellow`` just put on, a ``note`` for its
    bottom border, and whether it is the ``cursor``, ``counted`` in the score shown, or
    ``dim`` (not a choice now)."""

    red: int
    yellow: int
    new_red: int = 0
    new_yellow: int = 0
    note: str = ""
    cursor: bool = False
    counted: bool = False
    dim: bool = False


@dataclass(frozen=True, slots=True)
class Places:
    """The drawn places: ``lines`` of fragments (each exactly ``width`` columns), and
    ``boxes``: each place's box as ``(column, line)`` of its top-left corner."""

    lines: tuple[tuple[Fragment, ...], ...]
    boxes: tuple[tuple[int, int], ...]
    width: int

    @property
    def height(self) -> int:
        """Lines drawn."""
        return len(self.lines)

    def text(self) -> str:
        """The places as plain text, trailing spaces removed."""
        return "\n".join("".join(t for _, t in line).rstrip() for line in self.lines)

    def place_at(self, x: int, y: int) -> int | None:
        """The place whose box covers column ``x`` of line ``y``, or ``None``."""
        for place, (bx, by) in enumerate(self.boxes):
            if bx <= x < bx + CELL and by <= y < by + CELL_LINES:
                return place
        return None


class _Canvas:
    """A grid of styled characters."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.cells = [[("", " ")] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        for i, char in enumerate(text):
            if 0 <= x + i < self.width:
                self.cells[y][x + i] = (style, char)

    def lines(self) -> tuple[tuple[Fragment, ...], ...]:
        out = []
        for row in self.cells:
            line: list[Fragment] = []
            for style, char in row:
                if line and line[-1][0] == style:
                    line[-1] = (style, line[-1][1] + char)
                else:
                    line.append((style, char))
            out.append(tuple(line))
        return tuple(out)


def hood_title(name: str) -> str:
    """A neighbourhood's name for people: ``"Light"``, ``"Dark"``; the 2-player ring has none."""
    return _HOOD_TITLES.get(name, name.title())


def geometry(layout: Layout) -> tuple[list[tuple[int, int]], int, int, list[tuple[int, int, int]]]:
    """Where the boxes and labels of ``layout`` go: the boxes' corners (by place), the
    width and height, and the labels as ``(neighbourhood, column, line)``."""
    if layout.players == 2:
        return list(RING), RING_WIDTH, 9, []
    if layout.players == 4:
        right = RING_WIDTH + GAP
        boxes = [(x, y + 1) for x, y in RING] + [(right + x, y + 1) for x, y in RING]
        return boxes, 2 * RING_WIDTH + GAP, 10, [(0, 0, 0), (1, right, 0)]
    boxes = [(0, 0)] * len(layout.places)
    for row, (places, indent) in enumerate(ROWS_3):
        for i, place in enumerate(places):
            boxes[place] = (indent + i * (CELL + GAP), 1 + row * CELL_LINES)
    return boxes, 3 * CELL + 2 * GAP, 11, [(0, 0, 0), (1, 0, 10)]


def render_places(layout: Layout, looks: Sequence[PlaceLook], *, active: Collection[int] = (),
                  ascii: bool = False, notes: Mapping[int, str] | None = None) -> Places:
    """The places of ``layout`` drawn as ``looks`` (one per place, board order) say;
    the neighbourhoods in ``active`` marked active; ``notes``: a word after a
    neighbourhood's label (e.g. what the play being composed does there)."""
    boxes, width, height, labels = geometry(layout)
    canvas = _Canvas(width, height)
    for hood, x, y in labels:
        name = layout.hood_names[hood]
        title = hood_title(name)
        if layout.players == 3:
            title += " (" + " ".join(layout.places[p] for p in layout.hoods[hood]) + ")"
        note = (notes or {}).get(hood, "")
        if hood in active:
            title = f"> {title} <"
        text = " ".join(t for t in (title, note) if t)
        canvas.put(x, y, text[:width - x], "class:active" if hood in active else "class:heading")
    for place, ((x, y), look) in enumerate(zip(boxes, looks)):
        _box(canvas, x, y, layout.places[place], look, ascii)
    return Places(canvas.lines(), tuple(boxes), width)


def penguin_text(red: int, yellow: int, ascii: bool = False) -> str:
    """A place's penguins as letters: ``RRY..`` (``·`` for room in Unicode)."""
    room = "." if ascii else "·"
    return "R" * red + "Y" * yellow + room * max(0, CAPACITY - red - yellow)


def _box(canvas: _Canvas, x: int, y: int, name: str, look: PlaceLook, ascii: bool) -> None:
    tl, top, tr, side, bl, br = _BOXES[(ascii, look.cursor)]
    frame = "class:cursor" if look.cursor else "class:dim" if look.dim else ""
    inner = CELL - 2
    canvas.put(x, y, tl + top + f" {name} ".ljust(inner - 1, top) + tr, frame)
    canvas.put(x, y + 1, side, frame)
    canvas.put(x + CELL - 1, y + 1, side, frame)
    canvas.put(x + 1, y + 1, "*" if look.counted else " ", "class:highlight" if look.counted else "")
    old_red, old_yellow = look.red - look.new_red, look.yellow - look.new_yellow
    letters = (["R"] * old_red + ["r"] * look.new_red + ["Y"] * old_yellow + ["y"] * look.new_yellow)
    for i, letter in enumerate(letters[:CAPACITY]):
        colour = "class:player.red" if letter in "Rr" else "class:player.yellow"
        style = f"{colour} class:legal" if letter.islower() else colour
        canvas.put(x + 2 + i, y + 1, letter, "class:dim" if look.dim else style)
    room = "." if ascii else "·"
    canvas.put(x + 2 + min(len(letters), CAPACITY), y + 1, room * (CAPACITY - len(letters)), "class:dim")
    note = look.note[:inner]
    bottom = bl + top * ((inner - len(note)) // 2) + note
    canvas.put(x, y + 2, bottom + top * (CELL - 1 - len(bottom)) + br, frame)
