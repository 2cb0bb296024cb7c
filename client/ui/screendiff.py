"""A faster screen diff for prompt-toolkit: the same bytes, less Python per frame.

After every frame prompt-toolkit's renderer compares the new screen with the previous one
cell by cell in Python (``prompt_toolkit.renderer._output_screen_diff``) and writes the
cells that differ. At 200x60 that is about 12,000 cells a frame: a key moves the cursor
and a few rows change; a move that starts your turn changes about 37 of the 60 rows (the
log scrolls beside the board), and walking those rows' columns took about 4.5 ms.

:func:`install` puts :func:`redraw` in its place for the frames that change a screen
already drawn at the same width. It skips a row equal to the row before (compared whole,
in C: the screen's cells are shared :class:`~prompt_toolkit.layout.screen.Char` objects),
and in a changed row it finds the cells that are not the same object in C too, comparing
only those in Python. Rows holding a wide character are walked as prompt-toolkit walks
them. Unlike prompt-toolkit's, it does not fill the screens' rows with the blank cells
it reads (and prompt-toolkit's diff fills a copy), so a row stays equal to the same row
drawn next frame. The bytes written are
prompt-toolkit's: ``tests/test_ui_screendiff.py`` checks that on random frames.

The first frame, a frame after a resize and the last frame (``is_done``) go to
prompt-toolkit's own diff, which draws them whole. If a prompt-toolkit release no longer
has the function, or it takes other parameters, nothing is installed and its own diff
runs (measured in ``docs/benchmarks.md``, "Terminal UI").

:class:`_Terminal` and :func:`redraw` follow prompt-toolkit 3.0.52's
``_output_screen_diff`` (its cursor moves, style changes and row trimming), under its
licence:

    Copyright (c) 2014, Jonathan Slenders
    All rights reserved.

    Redistribution and use in source and binary forms, with or without modification,
    are permitted provided that the following conditions are met:

    * Redistributions of source code must retain the above copyright notice, this
      list of conditions and the following disclaimer.

    * Redistributions in binary form must reproduce the above copyright notice, this
      list of conditions and the following disclaimer in the documentation and/or
      other materials provided with the distribution.

    * Neither the name of the {organization} nor the names of its
      contributors may be used to endorse or promote products derived from
      this software without specific prior written permission.

    THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND
    ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
    WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
    DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR
    ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
    (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
    LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON
    ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
    (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
    SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""

from __future__ import annotations

import copy
import inspect
from collections import defaultdict
from collections.abc import Iterator
from itertools import compress, groupby, repeat
from operator import attrgetter, is_not

from prompt_toolkit import renderer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout.screen import Char, Screen

__all__ = ["install", "redraw"]

#: The parameters of the function replaced (as in prompt-toolkit 3.0.52 and 3.0.53).
PARAMETERS = ("app", "output", "screen", "current_pos", "color_depth", "previous_screen",
              "last_style", "is_done", "full_screen", "attrs_for_style_string",
              "style_string_has_style", "size", "previous_width")

_width, _style, _char = attrgetter("width"), attrgetter("style"), attrgetter("char")


def install() -> None:
    """Make prompt-toolkit's renderer draw a changed frame with :func:`redraw` (once per
    process; safe to call again)."""
    original = getattr(renderer, "_output_screen_diff", None)
    if original is None or getattr(original, "redraws", False) \
            or tuple(inspect.signature(original).parameters) != PARAMETERS:
        return

    def diff(app, output, screen, current_pos, color_depth, previous_screen, last_style,
             is_done, full_screen, attrs_for_style_string, style_string_has_style, size,
             previous_width):
        if previous_screen is None or is_done or previous_width != size.columns \
                or _blank(screen) is not _blank(previous_screen):
            return original(app, output, _unfilled(screen), current_pos, color_depth,
                            previous_screen, last_style, is_done, full_screen,
                            attrs_for_style_string, style_string_has_style, size,
                            previous_width)
        return redraw(app, output, screen, current_pos, color_depth, previous_screen,
                      last_style, full_screen, attrs_for_style_string, style_string_has_style,
                      size)

    diff.redraws = True
    diff.__wrapped__ = original
    renderer._output_screen_diff = diff


def redraw(app, output, screen: Screen, current_pos: Point, color_depth, previous_screen: Screen,
           last_style: str | None, full_screen: bool, attrs_for_style_string,
           style_string_has_style, size) -> tuple[Point, str | None]:
    """Write to ``output`` what turns ``previous_screen`` (drawn at the width of ``size``,
    the same blank cell) into ``screen``; return the cursor's position and the style
    last set, as prompt-toolkit's diff does (its parameters, less ``is_done`` and
    ``previous_width``). The screens are read only."""
    terminal = _Terminal(output, size.columns, color_depth, attrs_for_style_string,
                         current_pos, last_style)
    output.hide_cursor()
    if not full_screen:
        output.disable_autowrap()
    new_rows, old_rows = screen.data_buffer, previous_screen.data_buffer
    blank, escapes = _blank(screen), screen.zero_width_escapes
    for y in range(min(max(screen.height, previous_screen.height), size.rows)):
        new_row, old_row = new_rows.get(y, {}), old_rows.get(y, {})
        if new_row != old_row:
            terminal.row(y, new_row, old_row, blank, escapes.get(y, {}), style_string_has_style)
    height = min(screen.height, size.rows)
    if height > previous_screen.height:
        terminal.move(0, height - 1)
    cursor = screen.get_cursor_position(app.layout.current_window)
    terminal.move(cursor.x, cursor.y)
    if not full_screen:
        output.enable_autowrap()
    terminal.reset_attributes()
    if screen.show_cursor:
        output.show_cursor()
    return Point(*terminal.position), terminal.style


def _unfilled(screen: Screen) -> Screen:
    """A copy of ``screen`` for prompt-toolkit's diff to fill with the blank cells it
    reads, so ``screen`` (the next frame's previous screen) keeps only what was written
    and its rows compare equal to the same rows drawn again. Rows are copied; every other
    attribute is shared."""
    copied = copy.copy(screen)
    copied.data_buffer = defaultdict(screen.data_buffer.default_factory,
                                     {y: row.copy() for y, row in screen.data_buffer.items()})
    return copied


def _blank(screen: Screen) -> Char:
    """The cell a screen reads where nothing was written."""
    return screen.data_buffer.default_factory().default_factory()


class _Terminal:
    """What a diff writes, and the terminal as it leaves it: the cursor's position and
    the style last set (``None``: reset)."""

    __slots__ = ("output", "width", "color_depth", "attrs", "position", "style")

    def __init__(self, output, width: int, color_depth, attrs, position: Point,
                 style: str | None) -> None:
        self.output, self.width, self.color_depth, self.attrs = output, width, color_depth, attrs
        self.position = (position.x, position.y)
        self.style = style

    def row(self, y: int, new_row: dict[int, Char], old_row: dict[int, Char], blank: Char,
            escapes: dict[int, str], has_style) -> None:
        """Write the cells of row ``y`` that changed, and erase the rest of a row that
        got shorter."""
        last = min(self.width - 1, _last_column(new_row, has_style))
        cells, columns, wide = _changed(new_row, old_row, last, blank)
        if wide or escapes:
            for x in columns:
                self.move(x, y)
                if x in escapes:
                    self.output.write_raw(escapes[x])
                self.put(cells[x:x + 1])
                self.position = (x + (cells[x].width or 1), y)
        else:
            for start, end in _runs(columns, self.width - 1):
                self.move(start, y)
                self.put(cells[start:end])
                self.position = (end, y)
        if last < min(self.width - 1, _last_column(old_row, has_style)):
            self.move(last + 1, y)
            self.reset_attributes()
            self.output.erase_end_of_line()

    def reset_attributes(self) -> None:
        self.output.reset_attributes()
        self.style = None

    def move(self, x: int, y: int) -> None:
        """Move the cursor to column ``x`` of row ``y``."""
        output, (at_x, at_y) = self.output, self.position
        self.position = (x, y)
        if y > at_y:        # newlines, not cursor-down: they may add lines at the bottom
            self.reset_attributes()
            output.write("\r\n" * (y - at_y))
            output.cursor_forward(x)
            return
        if y < at_y:
            output.cursor_up(at_y - y)
        if at_x >= self.width - 1:
            output.write("\r")
            output.cursor_forward(x)
        elif x < at_x:
            output.cursor_backward(at_x - x)
        elif x > at_x:
            output.cursor_forward(x - at_x)

    def put(self, cells: list[Char]) -> None:
        """Write cells side by side, setting each style's attributes where they differ
        from the last (one write a run of cells in one style: the same bytes)."""
        for style, run in groupby(cells, _style):
            if self.style != style:
                attrs = self.attrs[style]
                if not self.style or attrs != self.attrs[self.style]:
                    self.output.set_attributes(attrs, self.color_depth)
                self.style = style
            self.output.write("".join(map(_char, run)))


def _last_column(row: dict[int, Char], has_style) -> int:
    """The last column of ``row`` written with a visible cell (not an unstyled space), or 0."""
    if not row:
        return 0
    last = max(row)  # mostly visible: the canvas leaves unstyled spaces unwritten
    cell = row[last]
    if cell.char != " " or has_style[cell.style]:
        return last
    for x in sorted(row, reverse=True):
        cell = row[x]
        if cell.char != " " or has_style[cell.style]:
            return x
    return 0


def _changed(new_row: dict[int, Char], old_row: dict[int, Char], last: int,
             blank: Char) -> tuple[list[Char], list[int], bool]:
    """The new cells of a row from column 0 to ``last``; the columns among them whose
    cell differs (character or style) and is not covered by a wide character before it,
    left to right; and whether the row has a wide character."""
    columns = range(last + 1)
    new = list(map(new_row.get, columns, repeat(blank)))
    old = list(map(old_row.get, columns, repeat(blank)))
    if max(map(_width, new)) > 1:
        return new, list(_walk(new, old)), True
    return new, [x for x in compress(columns, map(is_not, new, old))
                 if new[x].char != old[x].char or new[x].style != old[x].style], False


def _walk(new: list[Char], old: list[Char]) -> Iterator[int]:
    """:func:`_changed`'s columns in a row with wide characters: a wide cell covers the next."""
    x = 0
    while x < len(new):
        cell, before = new[x], old[x]
        if cell.char != before.char or cell.style != before.style:
            yield x
        x += cell.width or 1


def _runs(columns: list[int], edge: int) -> Iterator[tuple[int, int]]:
    """The runs of consecutive ``columns`` as ``(first, after the last)``; the column
    ``edge`` (the terminal's last) starts a run of its own, since prompt-toolkit's diff
    moves the cursor back to it by a carriage return."""
    start = end = None
    for x in columns:
        if x != end or x == edge:
            if start is not None:
                yield start, end
            start = x
        end = x + 1
    if start is not None:
        yield start, end
