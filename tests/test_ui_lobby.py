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


def test_before_the_first_lobby_no_lobby_heading_shows_under_connecting():
    from client.state import TableState

    state = TableState()  # connecting: no welcome, no lobby yet
    control = controller(state)
    shown = "\n".join(lines(lobby_screen(state, control.ui, control.view, 40, address="waddle join 127.0.0.1:7777")))
    assert ": the lobby" not in shown and "Seats" not in shown
    assert "Others join with:  waddle join 127.0.0.1:7777" in shown
    assert "The table's lobby shows here once the host answers." in shown
