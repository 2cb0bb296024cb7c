"""A faster screen diff for prompt-toolkit: rows that did not change are skipped whole.

After every frame prompt-toolkit's renderer compares the new screen with the previous one
cell by cell in Python (``prompt_toolkit.renderer._output_screen_diff``) and writes the
cells that differ. At 200x60 that is about 12,000 cells a frame, most of them unchanged:
a key moves the cursor, and a few rows change. :func:`install` wraps that function so a
row equal to the row before it (compared as a whole, in C: the screen's cells are shared
:class:`~prompt_toolkit.layout.screen.Char` objects, so equal rows compare by identity) is
left out of both screens before the cell-by-cell pass. A row left out is one where no cell
differs, so the pass writes exactly what it would have written: only the work changes.

The first frame, a frame after a resize and the last frame (``is_done``) are drawn whole,
as prompt-toolkit does. If a prompt-toolkit release no longer has the function, or it takes
other parameters, nothing is installed and its own diff runs (measured in
``docs/benchmarks.md``, "Terminal UI").
"""

from __future__ import annotations

import copy
import inspect
from collections import defaultdict

from prompt_toolkit import renderer
from prompt_toolkit.layout.screen import Screen

__all__ = ["changed_rows", "install"]

#: The parameters of the function wrapped (as in prompt-toolkit 3.0.52 and 3.0.53).
PARAMETERS = ("app", "output", "screen", "current_pos", "color_depth", "previous_screen",
              "last_style", "is_done", "full_screen", "attrs_for_style_string",
              "style_string_has_style", "size", "previous_width")


def install() -> None:
    """Make prompt-toolkit's renderer skip unchanged rows (once per process; safe to
    call again)."""
    original = getattr(renderer, "_output_screen_diff", None)
    if original is None or getattr(original, "skips_unchanged_rows", False) \
            or tuple(inspect.signature(original).parameters) != PARAMETERS:
        return

    def diff(app, output, screen, current_pos, color_depth, previous_screen, last_style,
             is_done, full_screen, attrs_for_style_string, style_string_has_style, size,
             previous_width):
        if previous_screen is not None and not is_done and previous_width == size.columns:
            screen, previous_screen = changed_rows(screen, previous_screen)
        return original(app, output, screen, current_pos, color_depth, previous_screen,
                        last_style, is_done, full_screen, attrs_for_style_string,
                        style_string_has_style, size, previous_width)

    diff.skips_unchanged_rows = True
    diff.__wrapped__ = original
    renderer._output_screen_diff = diff


def changed_rows(screen: Screen, previous: Screen) -> tuple[Screen, Screen]:
    """Copies of ``screen`` and ``previous`` that keep only the rows where the two differ
    (the other rows are empty in both); every other attribute (height, cursor, zero-width
    escapes) is shared with the original.

    The kept rows are copies: the cell-by-cell pass fills the cells it reads and does not
    find (a :class:`~prompt_toolkit.layout.screen.Screen` row is a ``defaultdict``), and
    filled in the original, a row would no longer equal the same row drawn next frame."""
    new_rows, old_rows = screen.data_buffer, previous.data_buffer
    changed = [y for y in new_rows.keys() | old_rows.keys()
               if new_rows.get(y, {}) != old_rows.get(y, {})]
    return _with_rows(screen, changed), _with_rows(previous, changed)


def _with_rows(screen: Screen, rows: list[int]) -> Screen:
    kept = copy.copy(screen)
    kept.data_buffer = defaultdict(screen.data_buffer.default_factory)
    for y in rows:
        if y in screen.data_buffer:
            kept.data_buffer[y] = screen.data_buffer[y].copy()
    return kept
