"""The text around the board (client/ui/panels.py and the hex game's panels) as pure
functions of a table state, checked as plain text: stand-in tags, the score table's
width, the record's path, the key hints and the help at small window sizes."""

from pathlib import Path

import pytest
from test_ui_kit import controller, lines, seat, table_state, text

from client.cli import main
from client.games.hex import panels as hex_panels
from client.ui import options, panels
from client.ui.uistate import UIState
from waddle import Game, standard_map
from waddle.hex.bots import make_bot
from waddle.hex.record import load_record
from waddle.hex.render import LETTERS

RECORDS = Path(__file__).parent / "data" / "records"
SEATS = [seat(0, "red", "Ann", connected=True), seat(1, "blue", "Bo", bot="random", standin=True),
         seat(2, "yellow", "greedy bot", bot="greedy"), seat(3, "green", "greedy bot (2)", bot="greedy"),
         seat(4, "purple", "Cy")]


def playing_table(seats=SEATS, **settings):
    """Ann (red, here), Bo (blue, away: a stand-in plays), Cy (purple, away: no stand-in yet)
    and two bot seats; ``settings``: the hex options (real-time score) and the moves."""
    game = Game(standard_map(5, seed=1), ["red", "blue", "yellow", "green", "purple"])
    bot = make_bot("greedy", seed=3)
    for _ in range(settings.pop("moves", 0)):
        game.apply(bot.choose(game))
    from test_ui_kit import hex_settings
    return table_state(list(seats), label="red", game=game, settings=hex_settings(5, **settings))


def side(state, width=46, height=30, **options) -> list[str]:
    return lines(panels.side_panel(state, controller(state).view, width, height, **options))


def players_lines(state) -> dict[str, str]:
    shown = side(state)
    return {name: next(line for line in shown if f" {name}" in line)
            for name in ("Ann", "Bo", "greedy bot", "greedy bot (2)", "Cy")}


def test_the_host_s_stand_in_flag_tags_a_seat_bot_plays():
    shown = players_lines(playing_table())
    assert "(bot plays)" in shown["Bo"]
    assert "(bot" not in shown["greedy bot (2)"] and "(bot" not in shown["greedy bot"]
    assert "(away)" in shown["Cy"] and "(away)" not in shown["Bo"]
    assert "(" not in shown["Ann"].replace("(you)", "")


def test_a_returned_player_loses_the_stand_in_tag():
    back = list(SEATS)
    back[1] = seat(1, "blue", "Bo", connected=True)  # as the host shows Bo back
    assert "(bot plays)" not in players_lines(playing_table(back))["Bo"]


def scoring_table():
    """The playing table with real-time score on, after a few greedy moves (live scores differ)."""
    return playing_table(realtime_score=True, moves=12)


def players_table(state, width) -> list[str]:
    """The side panel's players table (heading, then one line a player) at ``width`` columns."""
    shown = side(state, width)
    top = next(i for i, line in enumerate(shown) if line.startswith("Play"))
    return shown[top:top + 1 + len(state.view.game.players)]


@pytest.mark.parametrize("width", [46, 34, 24, 16, 12])
def test_the_players_table_keeps_the_live_scores_in_a_narrow_panel(width):
    state = scoring_table()
    game = state.view.game
    table = players_table(state, width)
    assert table[0].startswith("Play") and table[0].endswith("score")
    assert all(len(line) <= width for line in table)
    for colour, total, line in zip(game.players, game.live_totals(), table[1:]):
        assert line.startswith(LETTERS[colour]) and line.split()[-1] == str(total)
    assert len(set(game.live_totals())) > 1


def test_the_players_table_shortens_names_then_headings_then_drops_the_doubles():
    state = scoring_table()
    doubles = [str(state.view.game.doubles_left(c)) for c in state.view.game.players]

    def table(width):
        return players_table(state, width)

    wide, narrow = table(46), table(34)
    assert "Bo (bot plays)" in wide[2] and "doubles" in wide[0] and "doubles" in narrow[0]
    assert len(narrow[0]) < len(wide[0])
    short = table(21)
    assert "dbl" in short[0] and [line.split()[-2] for line in short[1:]] == doubles
    assert short[1].startswith("R Ann")
    assert "dbl" not in table(12)[0] and table(12)[1].startswith("R Ann")


def finished_table(record="three-players-ranked-pool.json"):
    game = load_record(RECORDS / record)
    names = {"red": "greedy bot (2)", "blue": "a name of twenty-four ch", "green": "Ann"}
    seats = [seat(i, c, names.get(c, c)) for i, c in enumerate(game.players)]
    return table_state(seats, label=game.players[0], game=game)


@pytest.mark.parametrize("record", ["three-players-ranked-pool.json", "mirror-two-players.json"])
def test_the_score_table_names_use_the_width_there_is(record):
    state = finished_table(record)
    shown = side(state)
    assert any("greedy bot (2)" in line for line in shown)
    assert all(len(line) <= 46 for line in shown)
    heading = next(line for line in shown if "waddles pools total" in line)
    assert heading.endswith("waddles pools total") and len(heading) == 46 - 2


def test_the_score_table_fits_a_narrow_panel_winners_starred():
    state = finished_table()
    result = state.view.game.result()
    table = [text(line) for line in hex_panels.score_table(state, result, state.label, 34)]
    assert table[0] == " " * 13 + "waddles pools total"
    assert all(len(line) <= 34 for line in table)
    assert table[1].endswith(" ★")


@pytest.mark.parametrize("ascii, dots", [(False, "…"), (True, "...")])
def test_a_long_record_path_is_shortened_from_the_left_keeping_the_file_name(ascii, dots):
    path = "/tmp/a-long-folder-name/another-folder/waddle-play-20261129-223000.json"
    shown = side(finished_table(), record_path=path, ascii=ascii)
    record = next(line for line in shown if line.startswith("Record: "))
    assert len(record) == 46 and record.endswith("waddle-play-20261129-223000.json")
    assert record.startswith("Record: " + dots) and path.endswith(record[len("Record: " + dots):])


def test_a_short_record_path_is_shown_whole():
    assert "Record: /tmp/g.json" in side(finished_table(), record_path="/tmp/g.json")


def test_play_prints_the_record_path_after_the_ui_closes(monkeypatch, tmp_path, capsys):
    path = str(tmp_path / "game.json")

    def finished(session, args):
        session.record_path = path  # as the session does once the host saved the end
        return 0

    monkeypatch.setattr(options, "run_ui", finished)
    assert main(["play", "--bots", "1", "--pace", "0", "--record", path]) == 0
    assert f"record saved to {path}" in capsys.readouterr().out


@pytest.mark.parametrize("columns", [60, 70, 80])
@pytest.mark.parametrize("phase, label, owner", [("playing", "red", 0), ("lobby", "red", 0),
                                                ("lobby", "red", 1), ("finished", "red", 0),
                                                ("playing", None, 0)])
def test_the_hints_fit_the_width_and_keep_help_and_quit(columns, phase, label, owner):
    if phase == "lobby":
        state = table_state(list(SEATS), label=label, owner=owner)
    elif phase == "finished":
        state = finished_table()
    else:
        state = table_state(list(SEATS), label=label, game=playing_table().view.game, owner=owner)
    line = text(panels.hints(state, UIState(), controller(state).view, columns))
    assert len(line) <= columns
    assert line.endswith("? help  q quit")


def test_the_hints_use_their_long_forms_where_they_fit():
    state = playing_table()
    line = text(panels.hints(state, UIState(), controller(state).view, 80))
    assert line == " arrows/hjkl move  Enter place  d double  s scout  c chat  ? help  q quit"


@pytest.mark.parametrize("columns, rows", [(60, 14), (70, 14), (80, 22), (60, 22)])
def test_the_help_fits_the_window_and_lists_every_key_then_the_rules(columns, rows):
    view = controller(playing_table()).view
    pages = [lines(panels.help_screen(view, columns, rows, page)) for page in range(10)]
    count = len(panels.help_pages(view, columns, rows))
    assert pages[count] == pages[0]  # the pages go round
    shown = [line for page in pages[:count] for line in page]
    assert all(len(page) <= rows for page in pages)
    assert all(len(line) <= columns for line in shown)
    for keys, _, _ in [*view.help(), ("u", "", ""), ("v", "", ""), *panels.HELP]:
        assert any(line.startswith(f"  {keys}") for line in shown)
    words = " ".join(shown)
    for rule in ("Last player", "Round end", "Scoring", "2 players", "Mirror match", "scout"):
        assert rule in words
    assert all("any other key goes back" in page[-1] for page in pages)
    assert f"page 1/{count}, Tab: next page" in pages[0][-1]


def test_a_finished_game_offers_a_rematch_to_its_players_not_to_a_spectator():
    game = load_record(RECORDS / "three-players-ranked-pool.json")
    seats = [seat(i, c, c) for i, c in enumerate(game.players)]
    player = table_state(seats, label=game.players[0], game=game)
    watcher = table_state(seats, label=None, game=game)
    assert "r rematch" in text(panels.hints(player, UIState(), controller(player).view, 100))
    assert "rematch" not in text(panels.hints(watcher, UIState(), controller(watcher).view, 100))
