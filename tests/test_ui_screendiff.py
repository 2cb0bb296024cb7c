"""The faster screen diff writes exactly what prompt-toolkit's own diff writes."""

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
from property_kit import examples

from client.ui import screendiff

SIZE = Size(rows=6, columns=12)
ORIGIN = Point(0, 0)
ORIGINAL = getattr(renderer._output_screen_diff, "__wrapped__", renderer._output_screen_diff)
#: "class:x" is bold (a space in it is blank), "class:y" has a background (a space in it
#: is not); "字" is two cells wide and "" is the cell a wide character covers.
STYLE = Style([("x", "bold"), ("y", "bg:#ff0000")])

cells = st.tuples(st.sampled_from("ab "), st.sampled_from(["", "class:x", "class:y"]))
wide_cells = st.tuples(st.sampled_from(["a", " ", "字", ""]), st.sampled_from(["", "class:y"]))


def rows(cell=cells):
    return st.dictionaries(st.integers(0, SIZE.columns - 1), cell, max_size=SIZE.columns)


frames = st.fixed_dictionaries({
    "rows": st.dictionaries(st.integers(0, SIZE.rows - 1), rows() | rows(wide_cells),
                            max_size=SIZE.rows),
    "height": st.integers(0, SIZE.rows + 2),
    "escapes": st.dictionaries(st.tuples(st.integers(0, SIZE.rows - 1),
                                         st.integers(0, SIZE.columns - 1)),
                               st.just("\x1b]8;;x\x1b\\"), max_size=3),
    "cursor": st.tuples(st.integers(0, SIZE.columns - 1), st.integers(0, SIZE.rows - 1)),
    "show_cursor": st.booleans(),
})


def screen_of(frame: dict) -> Screen:
    screen = Screen()
    for y, row in frame["rows"].items():
        for x, (char, style) in row.items():
            screen.data_buffer[y][x] = _CHAR_CACHE[char, style]
    for (y, x), escape in frame["escapes"].items():
        screen.zero_width_escapes[y][x] = escape
    screen.height = frame["height"]
    screen.show_cursor = frame["show_cursor"]
    screen.cursor_positions[None] = Point(*frame["cursor"])
    return screen


def output(diff, screen: Screen, previous: Screen | None, *, width: int = SIZE.columns,
           full_screen: bool = True, is_done: bool = False, at=ORIGIN,
           last_style=None) -> tuple[str, Point, str | None]:
    """What ``diff`` writes to a terminal to turn ``previous`` (drawn ``width`` wide) into
    ``screen``, and the cursor and style it reports."""
    stream = io.StringIO()
    out = Vt100_Output(stream, lambda: SIZE, term="xterm")
    attrs = renderer._StyleStringToAttrsCache(STYLE.get_attrs_for_style_str,
                                              DummyStyleTransformation())
    app = SimpleNamespace(layout=SimpleNamespace(current_window=None))
    position, style = diff(app, out, screen, at, ColorDepth.DEPTH_8_BIT, previous, last_style,
                           is_done, full_screen, attrs, renderer._StyleStringHasStyleCache(attrs),
                           SIZE, width)
    out.flush()
    return stream.getvalue(), position, style


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


def installed():
    """The diff :func:`screendiff.install` puts in place of prompt-toolkit's."""
    return installed_over(ORIGINAL)


@settings(max_examples=examples(100))
@given(st.lists(frames, min_size=2, max_size=4), st.booleans(),
       st.tuples(st.integers(0, SIZE.columns - 1), st.integers(0, SIZE.rows - 1)),
       st.sampled_from([None, "", "class:x", "class:y"]))
def test_a_sequence_of_frames_is_written_exactly_as_prompt_toolkits_own_diff_writes_it(
        sequence, full_screen, at, last_style):
    diff, at = installed(), Point(*at)
    for before, now in zip(sequence, sequence[1:]):
        mine = output(diff, screen_of(now), screen_of(before), full_screen=full_screen, at=at,
                      last_style=last_style)
        theirs = output(ORIGINAL, screen_of(now), screen_of(before), full_screen=full_screen,
                        at=at, last_style=last_style)
        assert mine == theirs


@settings(max_examples=examples(100))
@given(frames, frames)
def test_the_diff_leaves_both_screens_as_they_were(before, now):
    """prompt-toolkit's own diff fills the rows it reads with blank cells; then a row no
    longer equals the same row drawn next frame."""
    screen, previous = screen_of(now), screen_of(before)
    diff = installed()
    assert output(diff, screen, previous) == output(diff, screen, previous)
    output(diff, screen, None)
    output(diff, screen, previous, width=SIZE.columns + 3)
    assert screen.data_buffer == screen_of(now).data_buffer
    assert previous.data_buffer == screen_of(before).data_buffer


@given(frames, frames)
def test_the_first_frame_a_frame_after_a_resize_and_the_last_are_prompt_toolkits(before, now):
    diff = installed()
    assert output(diff, screen_of(now), None) == output(ORIGINAL, screen_of(now), None)
    for options in ({"width": SIZE.columns + 3}, {"is_done": True}):
        assert (output(diff, screen_of(now), screen_of(before), **options)
                == output(ORIGINAL, screen_of(now), screen_of(before), **options))


def test_only_the_changed_cell_of_a_changed_row_is_written():
    before = screen_of({"rows": {0: {0: ("a", ""), 1: ("a", "")}, 1: {0: ("a", "")}},
                        "height": 2, "escapes": {}, "cursor": (0, 0), "show_cursor": False})
    now = screen_of({"rows": {0: {0: ("a", ""), 1: ("b", "")}, 1: {0: ("a", "")}},
                     "height": 2, "escapes": {}, "cursor": (0, 0), "show_cursor": False})
    written, position, _ = output(installed(), now, before)
    assert written.count("a") == 0 and written.count("b") == 1
    assert position == Point(0, 0)


def test_installing_twice_installs_once():
    diff = installed()
    assert installed_over(diff) is diff


def test_a_diff_with_other_parameters_is_left_as_it_is():
    def other(app, output, screen, something_new):
        pass

    assert installed_over(other) is other
