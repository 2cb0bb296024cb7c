"""The UI's network session: the client core's state as the screen shows it.

The client core's state is fed host messages directly (no network), as the core's
reader would; the session's listener copies it into the UI's view state.
"""

from client.core import Client
from client.state import Status
from client.ui import panels
from client.ui.remote import RemoteSession
from client.ui.view import UIState
from protocol.actions import from_engine
from protocol.messages import (
    Chat,
    Lobby,
    Played,
    Rejected,
    Seated,
    SeatInfo,
    Settings,
    Snapshot,
    Started,
)
from waddle import Game
from waddle.hex.record import to_record
from waddle.hex.tiles import standard_map


def session() -> RemoteSession:
    remote = RemoteSession("127.0.0.1", 1, client_options={"name": "Bob"})
    remote.client = Client("127.0.0.1", 1, name="Bob")
    remote.client.state.listeners.append(remote._sync)
    return remote


def seats(*names):
    colours = ("red", "blue", "yellow")
    return [SeatInfo(seat=i, colour=colours[i], name=n, connected=True, ready=False)
            for i, n in enumerate(names)]


def lobby(*names, owner="red"):
    return Lobby(phase="lobby", settings=Settings(players=3), seats=seats(*names), owner=owner)


def banner_text(remote) -> str:
    return "".join(text for _, text in panels.banner(remote.state, UIState()))


def test_lobby_seat_and_owner_map_to_seat_numbers():
    remote = session()
    core = remote.client.state
    core.apply(Seated(colour="blue", name="Bob", token="secret"))
    core.apply(lobby("Ann", "Bob"))
    state = remote.state
    assert state.phase == "lobby" and state.my_seat == 1 and state.owner == 0
    assert state.my_colour == "blue" and not state.is_owner
    assert "waiting for the host" in banner_text(remote)
    core.apply(lobby("Ann", "Bob", owner="blue"))
    assert remote.state.is_owner


def test_names_chat_and_refusals_are_cleaned_before_display():
    remote = session()
    core = remote.client.state
    core.apply(lobby("Ev\x1b[31mil\u202e"))
    core.apply(Chat(name="M\u200ballory", colour=None, text="hi\x1b]0;pwned\x07 there\x9b2J"))
    core.apply(Rejected(request="act", code="illegal", message="no\x1b[2J way"))
    state = remote.state
    assert state.name_of("red") == "Evil"
    assert state.chat[-1] == ("Mallory", None, "hi there")
    assert state.notice == "no way"


def test_events_reach_the_log_once_and_the_game_replica_is_shared():
    remote = session()
    core = remote.client.state
    core.apply(Seated(colour="red", name="Ann", token="t"))
    core.apply(lobby("Ann", "Bob", "Cy"))
    game = Game(standard_map(3, 4), ("red", "blue", "yellow"))
    core.apply(Started(version=1, record=to_record(game)))
    assert remote.state.phase == "playing" and remote.state.my_turn
    action = game.legal_actions()[0]
    events = [e.to_dict() for e in game.apply(action)]
    core.apply(Played(version=2, player="red", action=from_engine(action), events=events))
    core.changed()  # another change without a new event
    assert remote.state.log == events
    assert remote.state.game is core.game and len(core.game) == 1


def test_reconnecting_and_closed_show_in_the_banner():
    remote = session()
    core = remote.client.state
    core.apply(lobby("Ann"))
    core.set_status(Status.RECONNECTING)
    assert "Reconnecting" in banner_text(remote)
    core.set_status(Status.CLOSED, "the host \x1b[1mwent away")
    assert "Disconnected" in banner_text(remote)
    assert remote.state.notice == "the host went away"


def test_a_wish_that_cannot_be_sent_becomes_a_notice():
    remote = session()
    seen = []
    remote.subscribe(lambda: seen.append(remote.state.notice))
    remote.say("hello")
    assert seen and "not connected" in seen[-1]


def test_a_turn_timer_counts_down_in_the_banner_from_each_new_turn():
    remote = session()
    core = remote.client.state
    core.apply(Seated(colour="red", name="Ann", token="t"))
    core.apply(Lobby(phase="lobby", settings=Settings(players=3, turn_timer=30.0),
                     seats=seats("Ann", "Bob", "Cy"), owner="red"))
    assert remote.state.turn_deadline is None
    game = Game(standard_map(3, 4), ("red", "blue", "yellow"))
    core.apply(Started(version=1, record=to_record(game)))
    first = remote.state.turn_deadline
    assert first is not None
    left = int(banner_text(remote).split(" s left")[0].split()[-1])
    assert 28 <= left <= 30
    action = game.legal_actions()[0]
    events = [e.to_dict() for e in game.apply(action)]
    core.apply(Played(version=2, player="red", action=from_engine(action), events=events))
    assert remote.state.turn_deadline >= first


def test_last_placed_is_the_newest_placement_of_the_board_shown():
    from client.ui.view import TableState, last_placed

    placed = [{"type": "placed", "player": "red", "hex": [1, 0], "double": False, "doubles_left": 2},
              {"type": "scouted", "player": "blue"},
              {"type": "placed", "player": "yellow", "hex": [0, 1], "double": True, "doubles_left": 1}]
    assert last_placed(TableState(log=placed)) == (0, 1)
    assert last_placed(TableState(log=placed + [{"type": "half_ended", "half": 1}])) is None
    assert last_placed(TableState()) is None


def test_chat_lines_show_the_speakers_seat_letter_so_names_cannot_be_spoofed():
    from client.ui.lobby import lobby_screen

    remote = session()
    core = remote.client.state
    core.apply(lobby("own", "Bob"))
    core.apply(Chat(name="own", colour="red", text="I am red"))
    core.apply(Chat(name="own", colour=None, text="so am I"))
    text = "".join(text for _, text in lobby_screen(remote.state, UIState(), 40))
    assert "R own: I am red" in text and "- own: so am I" in text


def test_a_client_arriving_while_a_stand_in_plays_shows_the_tag():
    remote = session()
    game = Game(standard_map(3, 4), ("red", "blue", "yellow"))
    table = seats("Ann", "Bob", "Cy")
    table[1] = SeatInfo(seat=1, colour="blue", name="Bob", connected=False, ready=True,
                        bot="random", standin=True)
    remote.client.state.apply(Snapshot(version=1, record=to_record(game), lobby=Lobby(
        phase="playing", settings=Settings(players=3), seats=table, owner="red")))
    shown = "".join(text for _, text in panels.side_panel(remote.state, UIState(), 46, 30))
    bob = next(line for line in shown.split("\n") if " Bob" in line)
    assert "(bot plays)" in bob


def test_a_snapshot_with_moves_fills_the_log_with_the_history_as_the_live_log_shows_it():
    game = Game(standard_map(3, 4), ("red", "blue", "yellow"))
    live = session()
    live.client.state.apply(lobby("Ann", "Bob", "Cy"))
    live.client.state.apply(Started(version=1, record=to_record(game)))
    version = 1
    while not any(e["type"] == "round_ended" for e in live.state.log):
        player, action = game.current_player, game.legal_actions()[0]
        events = [e.to_dict() for e in game.apply(action)]
        version += 1
        live.client.state.apply(Played(version=version, player=player,
                                       action=from_engine(action), events=events))
    rejoined = session()
    rejoined.client.state.apply(Snapshot(version=version, record=to_record(game), lobby=Lobby(
        phase="playing", settings=Settings(players=3), seats=seats("Ann", "Bob", "Cy"),
        owner="red")))
    assert len(game) > 0 and rejoined.state.game is rejoined.client.state.game
    assert rejoined.state.log == live.state.log

    def lines(remote):
        return ["".join(text for _, text in panels.event_line(remote.state, event))
                for event in remote.state.log]
    assert lines(rejoined) == lines(live)
    assert any("placed a penguin" in line for line in lines(rejoined))
    assert any("round over" in line for line in lines(rejoined))


def test_played_after_a_snapshot_adds_only_the_new_events():
    game = Game(standard_map(3, 4), ("red", "blue", "yellow"))
    game.apply(game.legal_actions()[0])
    remote = session()
    remote.client.state.apply(Snapshot(version=2, record=to_record(game), lobby=Lobby(
        phase="playing", settings=Settings(players=3), seats=seats("Ann", "Bob", "Cy"),
        owner="red")))
    assert [e["player"] for e in remote.state.log] == ["red"]
    player, action = game.current_player, game.legal_actions()[0]
    events = [e.to_dict() for e in game.apply(action)]
    remote.client.state.apply(Played(version=3, player=player, action=from_engine(action),
                                     events=events))
    assert [e["player"] for e in remote.state.log] == ["red", "blue"]
