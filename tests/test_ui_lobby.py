"""The lobby screen's seat rows."""

from client.ui.lobby import lobby_screen
from client.ui.view import TableState, UIState
from protocol.messages import SeatInfo, Settings


def seat(i, colour, name, *, bot=None, connected=False):
    return SeatInfo(seat=i, colour=colour, name=name, connected=connected, ready=False, bot=bot)


def test_the_lobby_marks_a_player_whose_connection_dropped_as_away():
    seats = [seat(0, "red", "Ann", connected=True), seat(1, "blue", "Bo"),
             seat(2, "yellow", "greedy bot", bot="greedy")]
    state = TableState(phase="lobby", seats=seats, settings=Settings(players=4), my_seat=0, owner=0)
    shown = "".join(text for _, text in lobby_screen(state, UIState(), 40)).split("\n")
    row = {name: next(line for line in shown if line[4:].startswith(f"{name} "))
           for name in ("Ann", "Bo", "greedy bot")}
    assert "(away)" in row["Bo"]
    assert "(away)" not in row["Ann"] and "(away)" not in row["greedy bot"]
