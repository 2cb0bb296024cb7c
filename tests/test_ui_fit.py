"""The screen's text fitted to the window, as the renderer draws it: the banner wrapped
into the rows the body can spare or cut with an ellipsis, the text screens' lines cut
with one, never silently (docs/ui.md), and the side panel's share of a wide window.

The application runs over a table state the test sets (:class:`StillSession`: no
network, no host), drawn to a dummy output of the size asked; waiting is on renders,
bounded by a timeout; no sleeps.
"""

from __future__ import annotations

import trio
from prompt_toolkit.utils import get_cwidth
from test_ui_app import Screen, drive
from test_ui_kit import FakeSession, controller, hex_settings, seat, start, table_state, text
from test_ui_kit import play as host_plays
from test_ui_maps import flower_map

from client.state import Status
from client.ui import panels
from client.ui.text import fit_rows, wrap_line
from protocol.messages import Chat, Lobby
from waddle import Game
from waddle.hex.bots import make_bot
from waddle.hex.tiles import standard_map

NAMES = ("red", "blue", "yellow")
RESUME = "waddle host --resume a-night-of-penguins-at-the-table.json"
STOPPED = f"the host stopped; the game is saved: it goes on when the host runs {RESUME}"


class StillSession(FakeSession):
    """A :class:`FakeSession` the UI can run: its table changes only as the test says."""

    async def run(self) -> None:
        await trio.sleep_forever()


def show(state, test, *, columns=80, rows=24):
    """Run ``test(driver)`` over the UI of ``state`` in a window of ``columns`` x ``rows``."""
    drive(StillSession(state), test, Screen(columns, rows), bell=False)


def seats(*names):
    return [seat(i, NAMES[i], n, connected=True) for i, n in enumerate(names)]


def playing(names=("Ann", "Bob", "Cy"), *, label="red", moves=0, map_seed=1, **settings):
    """A hex game at ``label``'s seat after ``moves`` greedy moves."""
    state = table_state(seats(*names), label=label, settings=hex_settings(len(names), **settings))
    game = Game(standard_map(len(names), map_seed), NAMES[:len(names)])
    start(state, game)
    bot = make_bot("greedy", seed=3)
    for _ in range(moves):
        host_plays(state, game, bot.choose(game))
    return state, game


def stop_host(state) -> None:
    """As the client core takes a host's ``closing`` ``host_stopped`` (and looks for it again)."""
    state.host_stopped = STOPPED
    state.set_status(Status.RECONNECTING, f"{STOPPED}; looking for it again in 17 s")


def banner_rows(driver) -> list[str]:
    """The banner's rows on the game screen: those above the body (the board's separator)."""
    shown = driver.text().split("\n")
    return shown[:next(i for i, line in enumerate(shown) if "│" in line)]


def test_a_stopped_hosts_resume_command_wraps_onto_the_rows_the_board_spares():
    state, _ = playing(moves=5)
    stop_host(state)

    async def test(d):
        await d.shows("The host stopped", "Track A")
        banner = banner_rows(d)
        assert 1 < len(banner) <= 3
        assert RESUME in " ".join(line.strip() for line in banner)
        assert "watching for it to come back" in " ".join(banner)
        board = d.app._frame().board
        assert sum("│" in line for line in d.text().split("\n")) == 24 - 1 - len(banner) >= board.height

    show(state, test)


def test_a_banner_with_no_row_to_spare_is_cut_with_an_ellipsis():
    state, _ = playing(moves=5)
    stop_host(state)

    async def test(d):
        await d.shows("The host stopped", "Track A")
        assert d.app._frame().board.height == 20 - 2   # the board needs every row of the body
        banner = banner_rows(d)
        assert len(banner) == 1 and banner[0].endswith("…") and len(banner[0]) == 80

    show(state, test, rows=20)


def test_a_notice_wraps_in_the_banner_and_its_end_shows():
    state, _ = playing(moves=4)   # people alone at the table: no hints

    async def test(d):
        await d.shows("Track A")
        d.keys("e")
        await d.shows("hints are not allowed")
        banner = " ".join(line.strip() for line in banner_rows(d))
        assert "hints are not allowed: no bot plays at this table (the owner may allow them in the lobby)" in banner

    show(state, test)


def test_the_lobby_banner_wraps_the_settings_news_and_at_the_smallest_size_cuts_it():
    state = table_state(seats("Ann", "Bob", "Cy"), label="blue")   # everybody ready
    news = "the settings changed: R Ann, B Bob and Y Cy must say ready again (r)"

    async def test(d):
        await d.shows("Seats")
        again = [seat(i, c, n, connected=True, ready=False) for i, (c, n) in enumerate(zip(NAMES, ("Ann", "Bob", "Cy")))]
        state.apply(Lobby(phase="lobby", settings=hex_settings(3, mirror_match=True), seats=again, owner=0))
        await d.shows("(blue, not ready)")
        top = d.text().split("\n")[:3]
        assert news in " ".join(line.strip() for line in top)
        d.screen.size = d.screen.size._replace(columns=60, rows=16)
        d.app.application.invalidate()
        await d.until(lambda: d.text().split("\n")[0].endswith("…"), "the banner cut")
        assert d.text().split("\n")[1] == "Waddle: the lobby"   # at 60x16 the banner keeps to one row

    show(state, test)


def test_the_lobbys_lines_are_cut_with_an_ellipsis_never_silently():
    state = table_state(seats("Ann", "Bob"), label="red")
    chat = "a chat line much longer than the window is wide, so it cannot be shown whole: the end"
    state.apply(Chat(name="Bob", label="blue", text=chat))

    async def test(d):
        await d.shows("Seats", "Hints", "Bob: a chat line")
        shown = d.text().split("\n")
        said = next(line for line in shown if "Bob: a chat line" in line)
        assert said.endswith("…") and len(said) == 60
        hints = next(line for line in shown if line.startswith("  Hints"))
        assert len(hints) <= 60 and (hints.endswith("table)") or hints.endswith("…"))
        assert all(len(line) <= 60 for line in shown)

    show(state, test, columns=60, rows=24)


def test_a_lobby_taller_than_the_window_follows_the_owners_selection_and_says_what_is_hidden():
    state = table_state(seats("Ann", "Bob"), label="red")   # Ann owns the table

    async def test(d):
        await d.shows("Seats")
        body = d.text().split("\n")[1:-1]                     # 60x16: 14 rows between banner and hints
        assert "[ Start ]" not in d.text() and body[-1].strip().startswith("↓") and "more below" in body[-1]
        d.keys("\x1b[A")                                      # up from the first setting: the Start button
        await d.shows("[ Start ]")
        body = d.text().split("\n")[1:-1]
        assert "more above" in body[0] and body[0].strip().startswith("↑")
        assert not any("more below" in line for line in body)
        hidden = int(body[0].split()[1])
        assert d.text().count("\n") == 15 and hidden >= 2    # the rows above are counted, never dropped silently

    show(state, test, columns=60, rows=16)


def test_rows_that_do_not_fit_keep_the_focus_and_count_every_hidden_line():
    lines = [[("", f"line {i}")] for i in range(20)]
    assert fit_rows(lines[:5], 14) == lines[:5]
    for height in (4, 5, 14):
        for focus in range(20):
            texts = ["".join(t for _, t in row) for row in fit_rows(lines, height, focus)]
            above = int(texts[0].split()[1]) if "above" in texts[0] else 0
            below = int(texts[-1].split()[1]) if "below" in texts[-1] else 0
            shown = [t for t in texts if t.startswith("line")]
            assert len(texts) == height and f"line {focus}" in shown
            assert shown == [f"line {i}" for i in range(above, above + len(shown))]
            assert above + len(shown) + below == 20


def test_wrapped_lines_are_counted_in_terminal_cells():
    line = [("class:banner", " Waiting for "), ("", "R 企鹅企鹅企鹅企鹅企鹅 and B 企鹅企鹅 and Y penguins of the night"),
            ("class:dim", "  half 1 of 2")]
    for width in (20, 31, 40, 80):
        wrapped = wrap_line(line, width, 10)
        rows = ["".join(t for _, t in row) for row in wrapped]
        assert all(get_cwidth(row) <= width for row in rows)
        assert "".join(rows).replace(" ", "") == "".join(t for _, t in line).replace(" ", "")
        cut = ["".join(t for _, t in row) for row in wrap_line(line, width, 1)]
        assert len(cut) == 1 and get_cwidth(cut[0]) <= width and cut[0].endswith("…")
    styles = {style for row in wrap_line(line, 31, 10) for style, _ in row}
    assert {"class:banner", "class:dim"} <= styles   # each piece keeps its style


def test_the_banner_lines_of_every_state_fit_the_width():
    state, game = playing(moves=3, turn_timer=30.0, mirror_match=True)
    control = controller(state)
    control.ui.notice = "a notice the host sent that goes on and on: " + "x" * 40
    for width in (50, 60, 80):
        for most in (1, 2, 3):
            rows = panels.banner_lines(state, control.ui, control.view, width, most)
            assert 1 <= len(rows) <= most
            assert all(get_cwidth("".join(t for _, t in row)) <= width for row in rows)
            shown = "".join(t for row in rows for _, t in row)
            whole = text(panels.banner(state, control.ui, control.view))
            assert shown.replace(" ", "") == whole.replace(" ", "") or shown.endswith("…")
    assert shown.endswith("x")   # the notice's end, in 3 rows of 80 columns


def test_a_wide_window_gives_the_panel_a_third_and_its_event_lines_show_whole():
    names = ("Ann", "Tux (greedy bot)", "Skipper (greedy bot)")
    state, game = playing(names, moves=6)

    async def test(d):
        await d.shows("Track A", "Events")
        board = d.app._frame().board
        panel = d.app._panel_width().preferred
        assert panel >= 120 // 3 - 1 and board.width + 1 + 1 + panel == 120
        log = [text(line) for line in d.app.controller.view.event_lines()]
        whole = [line for line in log if len(line) <= panel]
        assert any(len(line) > 34 for line in whole) and all(line in d.text() for line in whole)
        for line in set(log) - set(whole):   # a bot's double next to water 12: 54 columns
            assert line[:panel - 1] + "…" in d.text()

    show(state, test, columns=120, rows=40)


def test_a_wide_map_keeps_the_columns_it_needs_before_the_panels_third():
    state = table_state(seats("Ann", "Bob"), label="red", settings=hex_settings(2))
    start(state, Game(flower_map(10), ["red", "blue"]))

    async def test(d):
        await d.shows("Track A")
        columns, rows = d.app._needed_size()
        assert columns > 105   # a third of it is more than the panel's least
        d.screen.size = d.screen.size._replace(columns=columns, rows=rows)
        d.app.application.invalidate()
        await d.until(lambda: d.screen.size.columns == columns and "Track A" in d.text(), "the game at its size")
        assert "too small" not in d.text()

    show(state, test, columns=160, rows=50)
