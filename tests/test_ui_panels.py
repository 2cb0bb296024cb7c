"""The text around the board (client/ui/panels.py) as pure functions of a table state,
checked as plain text: stand-in tags, the score table's width, the record's path, the
key hints and the help at small window sizes."""

from client.ui import panels
from client.ui.view import TableState, UIState
from protocol.messages import SeatInfo
from waddle import Game, standard_map


def text(fragments) -> str:
    return "".join(t for _, t in fragments)


def lines(fragments) -> list[str]:
    return text(fragments).split("\n")


def seat(i, colour, name, *, bot=None, connected=False):
    return SeatInfo(seat=i, colour=colour, name=name, connected=connected, ready=True, bot=bot)


def playing_table() -> TableState:
    """Ann (red, here), Bo (blue, away: a stand-in plays) and two bot seats."""
    game = Game(standard_map(4, seed=1), ["red", "blue", "yellow", "green"])
    seats = [seat(0, "red", "Ann", connected=True), seat(1, "blue", "Bo", bot="random"),
             seat(2, "yellow", "greedy bot", bot="greedy"), seat(3, "green", "greedy bot (2)", bot="greedy")]
    return TableState(phase="playing", seats=seats, game=game, my_seat=0)


def players_lines(state, humans) -> dict[str, str]:
    shown = lines(panels.side_panel(state, UIState(), 46, 30, humans=frozenset(humans)))
    return {name: next(line for line in shown if f" {name}" in line)
            for name in ("Ann", "Bo", "greedy bot", "greedy bot (2)")}


def test_only_a_bot_at_a_seat_seen_held_by_a_person_is_tagged_as_a_stand_in():
    state = playing_table()
    shown = players_lines(state, {"red", "blue"})
    assert "(bot plays)" in shown["Bo"]
    assert "(bot" not in shown["greedy bot (2)"] and "(bot" not in shown["greedy bot"]
    assert "(bot" not in players_lines(state, set())["Bo"]  # not seen held by a person: unknown


def test_the_colours_seen_held_by_people_are_every_lobby_seat_and_seats_no_bot_plays():
    state = playing_table()
    assert panels.seen_humans(state) == {"red"}
    lobby = TableState(phase="lobby", seats=[seat(0, "red", "Ann", connected=True),
                                             seat(1, "blue", "Bo")])
    assert panels.seen_humans(lobby) == {"red", "blue"}
