"""The canvas writes formatted text onto prompt-toolkit's screen as a Window would show it."""

from prompt_toolkit.data_structures import Point
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from client.ui.canvas import Canvas


def draw(fragments, width=6, height=2, left=2, top=1, on_mouse=None):
    screen, handlers = Screen(), MouseHandlers()
    Canvas(lambda: fragments, on_mouse=on_mouse).write_to_screen(
        screen, handlers, WritePosition(left, top, width, height), "", False, None)
    return screen, handlers


def row(screen, y, left=2, width=6):
    return "".join(screen.data_buffer[y][x].char or "_" for x in range(left, left + width))


def test_text_is_placed_from_the_top_left_of_its_space_and_cut_at_its_edges():
    screen, _ = draw([("", "abcdefgh\nij\nkl")])
    assert row(screen, 1) == "abcdef"
    assert row(screen, 2) == "ij    "
    assert screen.data_buffer[1][8].char == " "  # nothing past the right edge
    assert all(screen.data_buffer[3][x].char == " " for x in range(2, 8))  # nor below


def test_the_screen_counts_the_canvas_rows_even_blank_ones():
    """The renderer draws the rows up to the screen's height: a canvas at the bottom
    (the key hints) would not show."""
    screen, _ = draw([("", "a")], height=3, top=20)
    assert screen.height == 23


def test_unstyled_spaces_are_left_unwritten_and_styled_ones_are_written():
    screen, _ = draw([("", "a  b"), ("class:cursor", "  ")])
    written = screen.data_buffer[1]
    assert 3 not in written and 4 not in written
    assert written[6].style == "class:cursor" and written[7].style == "class:cursor"


def test_a_wide_character_takes_two_cells_and_one_cut_at_the_edge_is_not_drawn():
    screen, _ = draw([("", "a界b\nabcde界")])
    assert [screen.data_buffer[1][x].char for x in range(2, 6)] == ["a", "界", "", "b"]
    assert row(screen, 2) == "abcde "


def test_a_zero_width_joiner_joins_the_character_before_it():
    family = "\U0001F469\u200d\U0001F467"
    screen, _ = draw([("", f"{family}x")])
    cells = screen.data_buffer[1]
    assert cells[2].char == "\U0001F469\u200d" and cells[4].char == "\U0001F467" and cells[6].char == "x"


def test_a_mouse_event_reaches_the_handler_relative_to_the_canvas():
    seen = []
    _, handlers = draw([("", "ab")], on_mouse=lambda event: seen.append(event.position))
    event = MouseEvent(position=Point(x=5, y=2), event_type=MouseEventType.MOUSE_UP,
                       button=MouseButton.LEFT, modifiers=frozenset())
    handlers.mouse_handlers[2][5](event)
    assert seen == [Point(x=3, y=1)]


def test_the_mouse_handler_covers_the_canvas_and_nothing_else():
    mine = object()
    screen, handlers = Screen(), MouseHandlers()
    canvas = Canvas(lambda: [("", "ab")], on_mouse=lambda event: mine)
    canvas.write_to_screen(screen, handlers, WritePosition(2, 1, 6, 2), "", False, None)
    event = MouseEvent(position=Point(x=0, y=0), event_type=MouseEventType.MOUSE_UP,
                       button=MouseButton.LEFT, modifiers=frozenset())
    covered = {(x, y) for y, row in handlers.mouse_handlers.items() for x, handler in row.items()
               if handler(event) is mine}
    assert covered == {(x, y) for x in range(2, 8) for y in range(1, 3)}


def test_a_canvas_drawn_again_shows_the_changed_line_and_every_other_line_as_before():
    text = [("", "ab\ncd\nef")]
    canvas = Canvas(lambda: text)
    screens = [Screen(), Screen()]
    canvas.write_to_screen(screens[0], MouseHandlers(), WritePosition(2, 1, 6, 3), "", False, None)
    text = [("", "ab\nxy\nef")]
    canvas.write_to_screen(screens[1], MouseHandlers(), WritePosition(2, 1, 6, 3), "", False, None)
    assert [row(screens[1], y) for y in (1, 2, 3)] == ["ab    ", "xy    ", "ef    "]
    assert row(screens[0], 2) == "cd    "


def test_a_canvas_moved_or_narrowed_draws_its_lines_at_the_new_place_and_width():
    canvas = Canvas(lambda: [("class:x", "abcd")])
    first, moved = Screen(), Screen()
    canvas.write_to_screen(first, MouseHandlers(), WritePosition(2, 1, 6, 1), "", False, None)
    canvas.write_to_screen(moved, MouseHandlers(), WritePosition(0, 1, 3, 1), "", False, None)
    assert row(moved, 1, left=0, width=4) == "abc "
    assert moved.data_buffer[1][0].style == "class:x"
