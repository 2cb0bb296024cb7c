"""The UI over the one client state: the host's messages as the screen shows them.

The client core's state is fed host messages directly (no network), as the core's
reader would; the controller turns refusals and closings into the notice and starts a
turn timer's countdown; the panels read the state itself (there is no copy).
"""

from test_ui_kit import controller, hex_settings, lobby, play, seat, start, table_state, text

from client.state import Status
from client.ui import panels
from client.ui.lobby import lobby_screen
from protocol.messages import Chat, Lobby, Rejected, Snapshot
from waddle import Game
from waddle.hex.actions import Place
from waddle.hex.ruleset import HexMatch
from waddle.hex.tiles import standard_map

NAMES = ("red", "blue", "yellow")


def seats(*names):
    return [seat(i, NAMES[i], n, connected=True, ready=False) for i, n in enumerate(names)]


def banner_text(control) -> str:
    return text(panels.banner(control.state, control.ui, control.view))


def test_lobby_seat_and_owner_are_seat_numbers():
    state = table_state(seats("Ann", "Bob"), label="blue")
    control = controller(state)
    assert state.phase == "lobby" and state.seat == 1 and state.owner == 0
    assert state.label == "blue" and not state.is_owner
    assert "waiting for the host" in banner_text(control)
    state.apply(lobby(seats("Ann", "Bob"), owner=1))
    assert state.is_owner


def test_names_chat_and_refusals_are_cleaned_before_display():
    state = table_state(seats("Ev\x1b[31mil\u202e"))
    control = controller(state)
    state.apply(Chat(name="M\u200ballory", label=None, text="hi\x1b]0;pwned\x07 there\x9b2J"))
    state.apply(Rejected(request="act", code="illegal", message="no\x1b[2J way"))
    assert state.name_of("red") == "Evil"
    line = state.chat[-1]
    assert (line.name, line.label, line.text) == ("Mallory", None, "hi there")
    assert control.ui.notice == "no way"


def test_emoji_sequences_are_printed_in_cells_every_terminal_agrees_on():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    state = table_state(seats(f"Evil{family}"))
    state.apply(Chat(name="Zoë \U0001f1eb\U0001f1f7", label=None, text=f"hi {family}"))
    assert state.name_of("red") == "Evil\U0001f468"
    assert (state.chat[-1].name, state.chat[-1].text) == ("Zoë FR", "hi \U0001f468")


def test_events_reach_the_log_once_from_the_one_view():
    state = table_state(seats("Ann", "Bob", "Cy"), label="red")
    control = controller(state)
    game = Game(standard_map(3, 4), NAMES)
    start(state, game)
    assert state.phase == "playing" and state.my_turn
    events = play(state, game, game.legal_actions()[0])
    state.changed()  # another change without a new event
    assert state.view.events == events
    assert len(control.view.event_lines()) == 1 and len(state.view.game) == 1


def test_reconnecting_and_closed_show_in_the_banner():
    state = table_state(seats("Ann"))
    control = controller(state)
    state.set_status(Status.RECONNECTING)
    assert "Reconnecting" in banner_text(control)
    state.set_status(Status.CLOSED, "the host \x1b[1mwent away")
    assert "Disconnected" in banner_text(control)
    assert control.ui.notice == "the host went away"


def test_retries_and_a_stopped_host_show_in_the_banner_until_it_is_back():
    state = table_state(seats("Ann"))
    control = controller(state)
    state.set_status(Status.RECONNECTING, "connection lost (connection refused), retry 2 in 1 s")
    assert banner_text(control).startswith(" Reconnecting...  connection lost (connection refused), retry 2 in 1 s")
    state.host_stopped = ("the host stopped; the game is saved: it goes on when the host runs "
                          "waddle host --resume night.json")
    state.set_status(Status.RECONNECTING, f"{state.host_stopped}; looking for it again in 17 s")
    shown = banner_text(control)
    assert shown.startswith(" The host stopped  the game is saved: it goes on when the host runs "
                            "waddle host --resume night.json; ")
    assert "night.json; watching for it to come back" in shown and "Reconnecting" not in shown
    state.set_status(Status.CONNECTED)
    assert state.host_stopped is None and "stopped" not in banner_text(control)


def test_a_wish_that_cannot_be_sent_becomes_a_notice():
    state = table_state(seats("Ann"), label="red")
    control = controller(state)
    control.session.refuse = "not connected (reconnecting)"
    control.chat.text = "hello"
    control.send_chat()
    assert control.ui.notice == "not connected (reconnecting)"


def test_a_turn_timer_counts_down_in_the_banner_from_each_new_turn():
    state = table_state(seats("Ann", "Bob", "Cy"), label="red",
                        settings=hex_settings(3, turn_timer=30.0))
    control = controller(state)
    assert control.ui.turn_deadline is None
    game = Game(standard_map(3, 4), NAMES)
    start(state, game)
    first = control.ui.turn_deadline
    assert first is not None
    left = int(banner_text(control).split(" s left")[0].split()[-1])
    assert 28 <= left <= 30
    play(state, game, game.legal_actions()[0])
    assert control.ui.turn_deadline >= first


def test_last_placed_is_each_players_newest_placement_of_the_half():
    game = Game(standard_map(3, 4), NAMES)
    state = table_state(seats("Ann", "Bob", "Cy"), label="red")
    control = controller(state)
    start(state, game)
    assert control.view.last_placed(1) == set()
    first = game.legal_actions()[0]
    play(state, game, first)
    play(state, game, next(a for a in game.legal_actions() if not isinstance(a, Place)))
    assert control.view.last_placed(1) == {first.hex}
    third = game.legal_actions()[0]
    play(state, game, third)  # yellow's; red's stays marked
    assert control.view.last_placed(1) == {first.hex, third.hex}


def test_chat_lines_show_the_speakers_seat_letter_so_names_cannot_be_spoofed():
    state = table_state(seats("own", "Bob"))
    control = controller(state)
    state.apply(Chat(name="own", label="red", text="I am red"))
    state.apply(Chat(name="own", label=None, text="so am I"))
    shown = text(lobby_screen(state, control.ui, control.view, 40))
    assert "R own: I am red" in shown and "- own: so am I" in shown


def test_a_client_arriving_while_a_stand_in_plays_shows_the_tag():
    game = Game(standard_map(3, 4), NAMES)
    table = seats("Ann", "Bob", "Cy")
    table[1] = seat(1, "blue", "Bob", bot="random", standin=True)
    state = table_state(table, label="red", game=game)
    control = controller(state)
    shown = text(panels.side_panel(state, control.view, 46, 30))
    bob = next(line for line in shown.split("\n") if " Bob" in line)
    assert "(bot plays)" in bob


def test_a_snapshot_with_moves_fills_the_log_with_the_history_as_the_live_log_shows_it():
    game = Game(standard_map(3, 4), NAMES)
    live = table_state(seats("Ann", "Bob", "Cy"), label="red")
    live_control = controller(live)
    start(live, game)
    while not any("round over" in text(line) for line in live_control.view.event_lines()):
        play(live, game, game.legal_actions()[0])
    rejoined = table_state(seats("Ann", "Bob", "Cy"), label="red")
    rejoined_control = controller(rejoined)
    rejoined.apply(Snapshot(version=live.version, view=HexMatch(game).view(None), lobby=Lobby(
        phase="playing", settings=hex_settings(3), seats=seats("Ann", "Bob", "Cy"), owner=0)))
    assert len(game) > 0 and rejoined.view.events == live.view.events

    def shown(control):
        return [text(line) for line in control.view.event_lines()]
    assert shown(rejoined_control) == shown(live_control)
    assert any("placed a penguin" in line for line in shown(rejoined_control))
    assert any("round over" in line for line in shown(rejoined_control))


def test_played_after_a_snapshot_adds_only_the_new_events():
    game = Game(standard_map(3, 4), NAMES)
    game.apply(game.legal_actions()[0])
    state = table_state(seats("Ann", "Bob", "Cy"), label="red", game=game)
    assert [e.player for e in state.view.events] == ["red"]
    play(state, game, game.legal_actions()[0])
    assert [e.player for e in state.view.events] == ["red", "blue"]
