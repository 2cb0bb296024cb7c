"""The text around the board (client/ui/panels.py) as pure functions of a table state,
checked as plain text: stand-in tags, the score table's width, the record's path, the
key hints and the help at small window sizes."""

from pathlib import Path

import pytest

from client.cli import main
from client.ui import options, panels
from client.ui.view import TableState, UIState
from protocol.messages import SeatInfo, Settings
from waddle import Game, standard_map
from waddle.hex.bots import make_bot
from waddle.hex.record import load_record
from waddle.hex.render import LETTERS

RECORDS = Path(__file__).parent / "data" / "records"


def text(fragments) -> str:
    return "".join(t for _, t in fragments)


def lines(fragments) -> list[str]:
    return text(fragments).split("\n")


def seat(i, colour, name, *, bot=None, connected=False, standin=False):
    return SeatInfo(seat=i, colour=colour, name=name, connected=connected, ready=True, bot=bot,
                    standin=standin)


def playing_table() -> TableState:
    """Ann (red, here), Bo (blue, away: a stand-in plays), Cy (purple, away: no stand-in yet)
    and two bot seats."""
    game = Game(standard_map(5, seed=1), ["red", "blue", "yellow", "green", "purple"])
    seats = [seat(0, "red", "Ann", connected=True), seat(1, "blue", "Bo", bot="random", standin=True),
             seat(2, "yellow", "greedy bot", bot="greedy"), seat(3, "green", "greedy bot (2)", bot="greedy"),
             seat(4, "purple", "Cy")]
    return TableState(phase="playing", seats=seats, game=game, my_seat=0)


def players_lines(state) -> dict[str, str]:
    shown = lines(panels.side_panel(state, UIState(), 46, 30))
    return {name: next(line for line in shown if f" {name}" in line)
            for name in ("Ann", "Bo", "greedy bot", "greedy bot (2)", "Cy")}


def test_the_host_s_stand_in_flag_tags_a_seat_bot_plays():
    shown = players_lines(playing_table())
    assert "(bot plays)" in shown["Bo"]
    assert "(bot" not in shown["greedy bot (2)"] and "(bot" not in shown["greedy bot"]
    assert "(away)" in shown["Cy"] and "(away)" not in shown["Bo"]
    assert "(" not in shown["Ann"].replace("(you)", "")


def test_a_returned_player_loses_the_stand_in_tag():
    state = playing_table()
    state.seats[1] = seat(1, "blue", "Bo", connected=True)  # as the host shows Bo back
    assert "(bot plays)" not in players_lines(state)["Bo"]


def scoring_table() -> TableState:
    """The playing table with real-time score on, after a few greedy moves (live scores differ)."""
    state = playing_table()
    state.settings = Settings(players=5, realtime_score=True)
    bot = make_bot("greedy", seed=3)
    for _ in range(12):
        state.game.apply(bot.choose(state.game))
    return state


def players_table(state, width) -> list[str]:
    """The side panel's players table (heading, then one line a player) at ``width`` columns."""
    shown = lines(panels.side_panel(state, UIState(), width, 30))
    top = next(i for i, line in enumerate(shown) if line.startswith("Play"))
    return shown[top:top + 1 + len(state.game.players)]


@pytest.mark.parametrize("width", [46, 34, 24, 16, 12])
def test_the_players_table_keeps_the_live_scores_in_a_narrow_panel(width):
    state = scoring_table()
    game = state.game
    table = players_table(state, width)
    assert table[0].startswith("Play") and table[0].endswith("score")
    assert all(len(line) <= width for line in table)
    for colour, total, line in zip(game.players, game.live_totals(), table[1:]):
        assert line.startswith(LETTERS[colour]) and line.split()[-1] == str(total)
    assert len(set(game.live_totals())) > 1


def test_the_players_table_shortens_names_then_headings_then_drops_the_doubles():
    state = scoring_table()
    doubles = [str(state.game.doubles_left(c)) for c in state.game.players]

    def table(width):
        return players_table(state, width)

    wide, narrow = table(46), table(34)
    assert "Bo (bot plays)" in wide[2] and "doubles" in wide[0] and "doubles" in narrow[0]
    assert len(narrow[0]) < len(wide[0])
    short = table(21)
    assert "dbl" in short[0] and [line.split()[-2] for line in short[1:]] == doubles
    assert short[1].startswith("R Ann")
    assert "dbl" not in table(12)[0] and table(12)[1].startswith("R Ann")


def finished_table(record="three-players-ranked-pool.json", **fields) -> TableState:
    game = load_record(RECORDS / record)
    names = {"red": "greedy bot (2)", "blue": "a name of twenty-four ch", "green": "Ann"}
    seats = [seat(i, c, names.get(c, c)) for i, c in enumerate(game.players)]
    return TableState(phase="finished", seats=seats, game=game, my_seat=0,
                      settings=Settings(players=len(seats)), **fields)


@pytest.mark.parametrize("record", ["three-players-ranked-pool.json", "mirror-two-players.json"])
def test_the_score_table_names_use_the_width_there_is(record):
    state = finished_table(record)
    shown = lines(panels.side_panel(state, UIState(), 46, 30))
    assert any("greedy bot (2)" in line for line in shown)
    assert all(len(line) <= 46 for line in shown)
    heading = next(line for line in shown if "waddles pools total" in line)
    assert heading.endswith("waddles pools total") and len(heading) == 46 - 2


def test_the_score_table_fits_a_narrow_panel_winners_starred():
    state = finished_table()
    table = [text(line) for line in panels.score_table(state, UIState(), 34)]
    assert table[0] == " " * 13 + "waddles pools total"
    assert all(len(line) <= 34 for line in table)
    assert table[1].endswith(" ★")


@pytest.mark.parametrize("ascii, dots", [(False, "…"), (True, "...")])
def test_a_long_record_path_is_shortened_from_the_left_keeping_the_file_name(ascii, dots):
    path = "/tmp/a-long-folder-name/another-folder/waddle-play-20261129-223000.json"
    state = finished_table(record_path=path)
    shown = lines(panels.side_panel(state, UIState(), 46, 30, ascii=ascii))
    record = next(line for line in shown if line.startswith("Record: "))
    assert len(record) == 46 and record.endswith("waddle-play-20261129-223000.json")
    assert record.startswith("Record: " + dots) and path.endswith(record[len("Record: " + dots):])


def test_a_short_record_path_is_shown_whole():
    state = finished_table(record_path="/tmp/g.json")
    assert "Record: /tmp/g.json" in lines(panels.side_panel(state, UIState(), 46, 30))


def test_play_prints_the_record_path_after_the_ui_closes(monkeypatch, tmp_path, capsys):
    path = str(tmp_path / "game.json")

    def finished(session, args):
        session.state.record_path = path  # as the session does once the host saved the end
        return 0

    monkeypatch.setattr(options, "run_ui", finished)
    assert main(["play", "--bots", "1", "--pace", "0", "--record", path]) == 0
    assert f"record saved to {path}" in capsys.readouterr().out


@pytest.mark.parametrize("columns", [60, 70, 80])
@pytest.mark.parametrize("phase, my_seat, owner", [("playing", 0, 0), ("lobby", 0, 0),
                                                  ("lobby", 0, 1), ("finished", 0, 0),
                                                  ("playing", None, 0)])
def test_the_hints_fit_the_width_and_keep_help_and_quit(columns, phase, my_seat, owner):
    state = playing_table()
    state.phase, state.my_seat, state.owner = phase, my_seat, owner
    line = text(panels.hints(state, UIState(), columns))
    assert len(line) <= columns
    assert line.endswith("? help  q quit")


def test_the_hints_use_their_long_forms_where_they_fit():
    state = playing_table()
    line = text(panels.hints(state, UIState(), 80))
    assert line == " arrows/hjkl move  Enter place  d double  s scout  c chat  ? help  q quit"


@pytest.mark.parametrize("columns, rows", [(60, 14), (70, 14), (80, 22), (60, 22)])
def test_the_help_fits_the_window_and_lists_every_key(columns, rows):
    shown = lines(panels.help_screen(columns, rows))
    assert len(shown) <= rows
    assert all(len(line) <= columns for line in shown)
    for keys, _, _ in panels.HELP:
        assert any(line.startswith(f"  {keys}") for line in shown)
    assert "any key" in text(panels.help_screen(columns, rows))
