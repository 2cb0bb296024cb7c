"""Skipping unchanged rows changes the work of prompt-toolkit's screen diff, never its output."""

import io
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit import renderer
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.layout.screen import _CHAR_CACHE, Screen
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import DummyStyleTransformation, Style

from client.ui import screendiff

SIZE = Size(rows=6, columns=12)
ORIGINAL = getattr(renderer._output_screen_diff, "__wrapped__", renderer._output_screen_diff)

rows = st.dictionaries(st.integers(0, SIZE.columns - 1),
                       st.tuples(st.sampled_from("ab "), st.sampled_from(["", "class:x"])),
                       max_size=SIZE.columns)
screens = st.dictionaries(st.integers(0, SIZE.rows - 1), rows, max_size=SIZE.rows)


def screen_of(cells: dict) -> Screen:
    screen = Screen()
    for y, row in cells.items():
        for x, (char, style) in row.items():
            screen.data_buffer[y][x] = _CHAR_CACHE[char, style]
    screen.height = SIZE.rows
    return screen


def output(diff, screen: Screen, previous: Screen | None, width: int = SIZE.columns) -> str:
    """What ``diff`` writes to a terminal to turn ``previous`` (drawn ``width`` wide) into
    ``screen``."""
    stream = io.StringIO()
    out = Vt100_Output(stream, lambda: SIZE, term="xterm")
    attrs = renderer._StyleStringToAttrsCache(Style([("x", "bold")]).get_attrs_for_style_str,
                                              DummyStyleTransformation())
    app = SimpleNamespace(layout=SimpleNamespace(current_window=None))
    diff(app, out, screen, Point(0, 0), ColorDepth.DEPTH_8_BIT, previous, None, False, True,
         attrs, renderer._StyleStringHasStyleCache(attrs), SIZE, width)
    out.flush()
    return stream.getvalue()


def installed_over(diff):
    """What :func:`screendiff.install` leaves in place of ``diff`` (prompt-toolkit's own
    diff is put back afterwards)."""
    saved = renderer._output_screen_diff
    renderer._output_screen_diff = diff
    try:
        screendiff.install()
        return renderer._output_screen_diff
    finally:
        renderer._output_screen_diff = saved


def wrapped():
    """The diff :func:`screendiff.install` puts in place, installed on the original."""
    return installed_over(ORIGINAL)


@settings(max_examples=300, deadline=None)
@given(st.lists(screens, min_size=2, max_size=4))
def test_a_sequence_of_frames_is_written_exactly_as_prompt_toolkits_own_diff_writes_it(frames):
    diff = wrapped()
    mine = [output(diff, screen_of(now), screen_of(before)) for before, now in zip(frames, frames[1:])]
    theirs = [output(ORIGINAL, screen_of(now), screen_of(before))
              for before, now in zip(frames, frames[1:])]
    assert mine == theirs


@given(screens, screens)
def test_the_first_frame_and_a_frame_after_a_resize_are_drawn_whole(before, now):
    diff = wrapped()
    assert output(diff, screen_of(now), None) == output(ORIGINAL, screen_of(now), None)
    assert (output(diff, screen_of(now), screen_of(before), width=SIZE.columns + 3)
            == output(ORIGINAL, screen_of(now), screen_of(before), width=SIZE.columns + 3))


def test_an_unchanged_row_is_left_out_and_a_changed_one_kept_as_a_copy():
    before = screen_of({0: {0: ("a", "")}, 1: {0: ("a", "")}})
    now = screen_of({0: {0: ("a", "")}, 1: {0: ("b", "")}})
    kept, kept_before = screendiff.changed_rows(now, before)
    assert list(kept.data_buffer) == [1] and list(kept_before.data_buffer) == [1]
    assert kept.data_buffer[1] == now.data_buffer[1] and kept.data_buffer[1] is not now.data_buffer[1]


def test_installing_twice_wraps_once():
    diff = wrapped()
    assert installed_over(diff) is diff


def test_a_diff_with_other_parameters_is_left_as_it_is():
    def other(app, output, screen, something_new):
        pass

    assert installed_over(other) is other
