"""The lobby screen's seat rows."""

from test_ui_kit import controller, lines, seat, table_state

from client.ui.lobby import lobby_screen


def test_the_lobby_marks_a_player_whose_connection_dropped_as_away():
    seats = [seat(0, "red", "Ann", connected=True, ready=False), seat(1, "blue", "Bo", ready=False),
             seat(2, "yellow", "greedy bot", bot="greedy", ready=False)]
    state = table_state(seats, label="red")
    control = controller(state)
    shown = lines(lobby_screen(state, control.ui, control.view, 40))
    row = {name: next(line for line in shown if line[4:].startswith(f"{name} "))
           for name in ("Ann", "Bo", "greedy bot")}
    assert "(away)" in row["Bo"]
    assert "(away)" not in row["Ann"] and "(away)" not in row["greedy bot"]
