"""A container that writes formatted text straight onto prompt-toolkit's screen.

A prompt-toolkit :class:`~prompt_toolkit.layout.Window` copies every character of every
line into the screen, spaces included, and keeps a map of where each one went (for
cursors, scrolling and wrapping). The board and the side panel need none of that: they are
drawn fresh for their space, one fragment list per frame. :class:`Canvas` writes the
characters that show and leaves unstyled spaces unwritten (the screen is blank there), so
a frame costs what is visible, not the area: the board of a 5-player game at 200x60 is
about 1,800 visible characters in 9,500 cells (docs/benchmarks.md, "Terminal UI"). And a
line drawn the frame before, at the same place, reuses that frame's cells: after a key
moves the cursor, only the lines it changed are laid out again; and in those, a fragment
already laid out at the same column reuses its cells (a board line whose one hex changed).

Characters are placed by their width in terminal cells as prompt-toolkit counts them
(:func:`prompt_toolkit.utils.get_cwidth`): a wide character takes two cells, a zero-width
one (a joiner, a variation selector) joins the character before it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import AnyFormattedText, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.layout.dimension import AnyDimension, Dimension, to_dimension
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import _CHAR_CACHE, Char, Screen, WritePosition
from prompt_toolkit.mouse_events import MouseEvent

__all__ = ["Canvas"]

#: One line of a canvas: its ``(style, text)`` fragments, without line breaks.
Line = tuple[tuple[str, str], ...]

_EMPTY = _CHAR_CACHE["", ""]
#: A piece of a line: unstyled, runs of spaces (left unwritten) and runs of anything else;
#: styled, all of it.
_PIECES = re.compile(r" +|[^ ]+")
_CELLS = re.compile(r".+", re.DOTALL)


class Canvas(Container):
    """Formatted text drawn as is from the top left of its space.

    Args:
        text: a callable returning the fragments to draw, lines split by ``"\\n"``. No
            wrapping, no scrolling, no cursor: what does not fit the space is cut.
        lines: instead of ``text``, a callable returning the lines to draw, each a tuple
            of ``(style, text)`` fragments without line breaks (the board keeps its lines
            so, and a line that is the same object as the frame before is found at once).
        width, height: the space wanted (a number, a :class:`Dimension` or a callable
            returning one), as for a ``Window``.
        on_mouse: called with a mouse event whose position is relative to the canvas's top
            left (as a ``Window``'s control receives it); returns ``NotImplemented`` when it
            does not handle it. ``None``: mouse events pass.
    """

    def __init__(self, text: Callable[[], AnyFormattedText] | None = None, *,
                 lines: Callable[[], Sequence[Line]] | None = None, width: AnyDimension = None,
                 height: AnyDimension = None,
                 on_mouse: Callable[[MouseEvent], object] | None = None) -> None:
        if (text is None) == (lines is None):
            raise TypeError("a Canvas draws either text or lines")
        self.lines = lines or (lambda: _lines(to_formatted_text(text())))
        self.width = width
        self.height = height
        self.on_mouse = on_mouse
        self._drawn: dict[tuple, dict[int, Char]] = {}  # the last frame's lines: their cells

    def reset(self) -> None:
        self._drawn = {}

    def preferred_width(self, max_available_width: int) -> Dimension:
        return to_dimension(self.width)

    def preferred_height(self, width: int, max_available_height: int) -> Dimension:
        return to_dimension(self.height)

    def write_to_screen(self, screen: Screen, mouse_handlers: MouseHandlers,
                        write_position: WritePosition, parent_style: str, erase_bg: bool,
                        z_index: int | None) -> None:
        if z_index is None:
            self._write(screen, mouse_handlers, write_position, parent_style)
        else:
            screen.draw_with_z_index(z_index, lambda: self._write(
                screen, mouse_handlers, write_position, parent_style))

    def _write(self, screen: Screen, mouse_handlers: MouseHandlers, position: WritePosition,
               parent_style: str) -> None:
        left, top = position.xpos, position.ypos
        right, bottom = left + position.width, top + position.height
        drawn = {}
        for y, line in zip(range(top, bottom), self.lines()):
            key = (left, right, parent_style, line)
            cells = self._drawn.get(key)
            if cells is None:
                cells = _cells(line, left, right, parent_style)
            drawn[key] = cells
            if cells:
                screen.data_buffer[y].update(cells)
        self._drawn = drawn
        screen.height = max(screen.height, bottom)  # as a Window does: rows drawn below it
        if self.on_mouse is not None:
            _set_mouse_handler(mouse_handlers, left, right, top, bottom,
                               lambda event: self._mouse(event, left, top))

    def _mouse(self, event: MouseEvent, left: int, top: int) -> object:
        x, y = event.position
        return self.on_mouse(MouseEvent(position=Point(x=x - left, y=y - top),
                                        event_type=event.event_type, button=event.button,
                                        modifiers=event.modifiers))

    def get_children(self) -> list[Container]:
        return []


def _set_mouse_handler(mouse_handlers: MouseHandlers, left: int, right: int, top: int,
                       bottom: int, handler: Callable) -> None:
    """:meth:`MouseHandlers.set_mouse_handler_for_range`, a row at a time instead of a
    cell at a time (the board's canvas covers about 6,000 cells at 200x60)."""
    row = dict.fromkeys(range(left, right), handler)
    for y in range(top, bottom):
        mouse_handlers.mouse_handlers[y].update(row)


def _lines(fragments: StyleAndTextTuples) -> Iterator[Line]:
    """The ``(style, text)`` fragments of each line, without the line breaks."""
    line: list[tuple[str, str]] = []
    for style, text, *_ in fragments:
        if "\n" not in text:
            line.append((style, text))
            continue
        first, *rest = text.split("\n")
        if first:
            line.append((style, first))
        for piece in rest:
            yield tuple(line)
            line = [(style, piece)] if piece else []
    yield tuple(line)


def _cells(line: Line, left: int, right: int, parent_style: str) -> dict[int, Char]:
    """The cells one line sets, by column, from ``left`` and cut at ``right``."""
    row: dict[int, Char] = {}
    x = left
    for style, text in line:
        drawn = _fragment(x, style, text, left, right, parent_style) if text else None
        if drawn is None:
            x = _draw(row, x, left, right, style, text, parent_style)
        else:
            cells, x = drawn
            row.update(cells)
    return row


@lru_cache(maxsize=8192)
def _fragment(x: int, style: str, text: str, left: int, right: int,
              parent_style: str) -> tuple[dict[int, Char], int] | None:
    """The cells one fragment sets from cell ``x`` and the cell after it, or ``None``
    if it holds a zero-width character (it joins the cell before, which may be another
    fragment's: such a fragment is drawn in its line). (Cached: a changed line mostly
    holds the fragments it held, at the same places.)"""
    if any(_CHAR_CACHE[c, style].width == 0 for c in text):
        return None
    cells: dict[int, Char] = {}
    return cells, _draw(cells, x, left, right, style, text, parent_style)


def _draw(row: dict[int, Char], x: int, left: int, right: int, style: str, text: str,
          parent_style: str) -> int:
    """Write one fragment from cell ``x`` of ``row``, cut at ``right``; return the cell
    after it. An unstyled fragment's spaces are left unwritten."""
    blank = not style.strip()
    style = f"{parent_style} {style}" if parent_style else style
    for piece in (_PIECES if blank else _CELLS).finditer(text):
        run = piece.group()
        if blank and run[0] == " ":
            x += len(run)
        else:
            x = _put(row, x, left, right, run, style)
    return x


def _put(row: dict, x: int, left: int, right: int, run: str, style: str) -> int:
    """Write ``run`` (no line break) from cell ``x`` of ``row``, cut at ``right``; return
    the cell after it."""
    if run.isascii() and run.isprintable():  # one cell a character: no widths to look up
        row.update(zip(range(x, min(x + len(run), right)), [_CHAR_CACHE[c, style] for c in run]))
        return x + len(run)
    for c in run:
        char = _CHAR_CACHE[c, style]
        if char.width == 0:
            _join(row, x, left, c)
            continue
        if x + char.width <= right:
            row[x] = char
            for cell in range(x + 1, x + char.width):
                row[cell] = _EMPTY
        x += char.width
    return x


def _join(row: dict, x: int, left: int, c: str) -> None:
    """Join the zero-width character ``c`` to the character before cell ``x``."""
    for width in (2, 1):
        if x - width >= left and row.get(x - width, _EMPTY).width == width:
            before = row[x - width]
            row[x - width] = _CHAR_CACHE[before.char + c, before.style]
            return
