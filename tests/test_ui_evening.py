"""The table's evening, without a network: the game explaining itself (pools, the score
view, events named as the board shows them), turns announced, take-backs, half-time,
rematches, ready, and text that is never cut without an ellipsis. The client state is
fed the host's messages (``test_ui_kit``)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import time
from argparse import Namespace

import msgspec
import pytest
from test_ui_kit import (
    FakeSession,
    board_text,
    controller,
    hex_settings,
    lobby,
    play,
    seat,
    start,
    table_state,
    text,
)

from client.commands.join import come_back
from client.games.hex import panels as panels_of_hex
from client.games.hex import scores
from client.games.hex.board import fish_label
from client.state import Status
from client.ui import panels
from client.ui.controller import Controller
from client.ui.text import cut_line
from protocol.messages import Lobby, Played, Undone
from waddle import Game
from waddle.hex.actions import SCOUT, Place
from waddle.hex.events import HalfEnded, TookBack
from waddle.hex.tiles import standard_map

NAMES = ("red", "blue", "yellow")


def seats(*names, **options):
    return [seat(i, NAMES[i], n, connected=True, **options) for i, n in enumerate(names)]


def playing(label="red", players=3, realtime=True, **options):
    state = table_state(seats(*["Ann", "Bob", "Cy"][:players]), label=label,
                        settings=hex_settings(players, realtime_score=realtime, **options))
    control = controller(state, **{k: v for k, v in options.items() if k == "bell"})
    game = Game(standard_map(players, 4), NAMES[:players], mirror_match=options.get("mirror_match", False))
    start(state, game)
    return state, control, game


def lines_of(fragment_lines) -> list[str]:
    return [text(line) for line in fragment_lines]


def test_events_name_the_water_the_board_shows_and_a_stand_in_as_the_bot():
    state, control, game = playing()
    water = game.map.water[game.active_hex].number
    place = next(a for a in game.legal_actions() if isinstance(a, Place))
    play(state, game, place)
    seat = game.players.index(game.current_player)
    events = game.apply(game.legal_actions()[0])  # blue's turn, played by a stand-in bot
    state.apply(Played(version=state.version + 1, seat=seat, events=events, bot="random"))
    log = lines_of(control.view.event_lines())
    assert log[0] == f"R Ann placed a penguin next to water {water}"
    assert log[1].startswith("B Bob's stand-in (random bot) ")
    assert not any("," in line.split("water")[-1] for line in log)  # no coordinates


def test_a_take_back_is_logged_and_the_board_is_as_before():
    state, control, game = playing()
    before = dict(game.tokens)
    place = next(a for a in game.legal_actions() if isinstance(a, Place))
    play(state, game, place)
    assert state.can_undo and "u take back" in text(panels.hints(state, control.ui, control.view))
    game.pop()
    state.apply(Undone(version=state.version + 1, seat=0, events=[TookBack("red", place)]))
    assert state.view.game.tokens == before and state.my_turn and not state.can_undo
    log = lines_of(control.view.event_lines())
    assert log[-2].startswith("R Ann placed a penguin next to water")
    assert log[-1].startswith("R Ann took back the penguin next to water")


def test_the_log_extended_each_frame_is_the_log_laid_out_at_once():
    state, control, game = playing()
    rng = random.Random(5)
    while not game.is_over:
        mover = game.current_player
        play(state, game, rng.choice(game.legal_actions()))
        if rng.random() < 0.2 and not game.is_over:  # the mover takes it back, and plays again
            seat, action = NAMES.index(mover), game.pop()
            state.apply(Undone(version=state.version + 1, seat=seat, events=[TookBack(mover, action)]))
            play(state, game, action)
        shown = lines_of(control.view.event_lines())
        assert shown == lines_of(panels_of_hex.log_lines(state, control.view.first_active()))
        assert "game over" not in " ".join(shown[:-1])
    state.seats = [msgspec.structs.replace(s, name="Zed") if s.label == "red" else s for s in state.seats]
    assert lines_of(control.view.event_lines())[0].startswith("R Zed placed")


def test_only_your_own_last_action_can_be_taken_back():
    state, control, game = playing()
    play(state, game, SCOUT)
    assert state.can_undo
    play(state, game, game.legal_actions()[0])  # blue acted since
    assert not state.can_undo
    control.undo()
    assert control.session.wishes == [] and "nothing of yours" in control.ui.notice


def test_the_active_pool_and_the_cursors_pools_show_fish_and_every_players_strength():
    state, control, game = playing()
    top = lines_of(control.view.panel_top(46))
    pool = next(i for i, line in enumerate(top) if line.startswith("pool") and "(active)" in line)
    water = game.map.water[game.active_hex]
    assert f"pool {water.number}" in top[pool] and ",".join(map(str, water.fish)) in top[pool]
    assert all(f"{c[0].upper()}0" in top[pool + 1] for c in NAMES)  # nobody is there yet
    board = board_text(control.view.board(120, 40))
    assert ">" in board and "[" in board
    # a hex next to two pools counts for both: the other pool is outlined ( ) and explained
    sheet = game.result().halves[-1]
    two = next(h for h in control.view.legal() if len(scores.pools_touching(sheet, h)) > 1)
    control.view.cursor = two
    assert "(" in board_text(control.view.board(120, 40))
    assert sum(line.startswith("pool") for line in lines_of(control.view.panel_top(46))) == 2


def test_the_score_view_steps_through_waddles_then_pools_and_highlights_them():
    state, control, game = playing()
    rng = random.Random(2)
    for _ in range(12):
        play(state, game, rng.choice(game.legal_actions()))
    control.toggle_scores()
    assert control.ui.scores
    top = lines_of(control.view.panel_top(46))
    assert top[0].startswith("Live score") and "waddles pools total" in top[1]
    assert any(line.startswith("  size (VP):") for line in top)
    shown = set()
    for _ in range(len(game.players) + len(game.map.pools)):
        control.view.show_next(1)
        shown.add(lines_of(control.view.panel_top(46))[-2])
    assert any(line.startswith("pool ") for line in shown)
    assert "{" in board_text(control.view.board(120, 40))


def test_the_score_view_opens_on_your_own_waddles_at_game_over_and_each_time_it_opens():
    """docs/ui.md: your own waddles come first. Tab moved the view on to another player's
    while playing; closing it and the game's end start it on yours again."""
    state, control, game = playing(label="blue")
    rng = random.Random(3)
    for _ in range(9):
        play(state, game, rng.choice(game.legal_actions()))

    def title():
        return next(line for line in lines_of(control.view.panel_top(46)) if "'s waddles" in line)

    control.toggle_scores()
    assert title().startswith("B Bob's waddles")
    control.view.show_next(1)
    assert title().startswith("Y Cy's waddles")
    control.toggle_scores()   # closed
    control.toggle_scores()   # opened afresh
    assert title().startswith("B Bob's waddles")
    control.view.show_next(1)
    control.toggle_scores()   # closed on Y Cy's, then the game ends
    while not game.is_over:
        play(state, game, rng.choice(game.legal_actions()))
    assert control.view.score_view() and title().startswith("B Bob's waddles")
    control.view.show_next(1)
    assert title().startswith("Y Cy's waddles")   # Tab still steps on at the end


def test_the_score_view_left_open_starts_on_your_own_waddles_at_game_over():
    state, control, game = playing(label="blue")
    rng = random.Random(3)
    for _ in range(9):
        play(state, game, rng.choice(game.legal_actions()))
    control.toggle_scores()
    control.view.show_next(1)   # open on Y Cy's when the game ends
    while not game.is_over:
        play(state, game, rng.choice(game.legal_actions()))
    title = next(line for line in lines_of(control.view.panel_top(46)) if "'s waddles" in line)
    assert title.startswith("B Bob's waddles")


def test_the_score_view_needs_real_time_score_until_the_end():
    state, control, game = playing(realtime=False)
    control.toggle_scores()
    assert not control.ui.scores and "once the game is over" in control.ui.notice


def test_your_turn_rings_the_bell_and_sets_the_title_once(monkeypatch):
    alerts = []
    state = table_state(seats("Ann", "Bob", "Cy"), label="blue")
    control = Controller(FakeSession(state), alert=lambda ring, title: alerts.append((ring, title)))
    control.changed()
    game = Game(standard_map(3, 4), NAMES)
    start(state, game)
    assert alerts == []
    play(state, game, game.legal_actions()[0])
    assert alerts == [(True, "Waddle: your turn")]
    state.changed()
    assert len(alerts) == 1
    play(state, game, game.legal_actions()[0])
    assert alerts[-1] == (False, "Waddle")
    quiet = Controller(FakeSession(state), bell=False, alert=lambda ring, title: alerts.append((ring, title)))
    play(state, game, game.legal_actions()[0])  # red's turn
    play(state, game, game.legal_actions()[0])
    quiet.changed()
    assert alerts[-1] == (False, "Waddle: your turn")


def test_a_warning_rings_ten_seconds_before_the_turn_timer_runs_out():
    alerts = []
    state = table_state(seats("Ann", "Bob", "Cy"), label="red", settings=hex_settings(3, turn_timer=30.0))
    control = Controller(FakeSession(state), alert=lambda ring, title: alerts.append((ring, title)))
    start(state, Game(standard_map(3, 4), NAMES))
    alerts.clear()
    control.tick()
    assert alerts == []
    control.ui.turn_deadline = time.monotonic() + 9.9
    control.tick()
    control.tick()
    assert len(alerts) == 1 and alerts[0][0] and alerts[0][1].startswith("Waddle: your turn (")
    assert alerts[0][1].endswith(" s left)") and "then a bot plays your turn" in control.ui.notice


def test_the_owner_is_asked_before_starting_with_people_not_ready():
    state = table_state(seats("Ann", "Bob", "Cy", ready=False), label="red")
    control = controller(state)
    control.lobby_enter()
    assert control.ui.mode == "confirm"
    assert control.ui.question == "B Bob and Y Cy are not ready. Start anyway?"
    control.answer(False)
    assert control.session.wishes == []
    control.lobby_enter()
    control.answer(True)
    assert control.session.wishes == [("start", None)]


def test_a_settings_change_says_who_must_ready_again():
    ready = seats("Ann", "Bob", "Cy", ready=True)
    state = table_state(ready, label="blue")
    control = controller(state)
    state.apply(lobby(seats("Ann", "Bob", "Cy", ready=False), settings=hex_settings(3, mirror_match=True)))
    assert control.ui.notice == ("the settings changed: R Ann, B Bob and Y Cy must say ready "
                                 "again (r)")


def test_half_time_keeps_the_first_halfs_board_until_you_go_on():
    state, control, game = playing(players=2, mirror_match=True)
    rng = random.Random(1)
    while not any(isinstance(e, HalfEnded) for e in state.view.events):
        play(state, game, rng.choice(game.legal_actions()))
    first = game.tokens_of_half(1)
    waiting = [msgspec.structs.replace(s, waiting=True) for s in seats("Ann", "Bob")]
    state.apply(Lobby(phase="playing", settings=state.settings, seats=waiting, owner=0,
                      pause="half-time", pause_left=20.0))
    assert state.waiting_for_me and not state.my_turn
    banner = text(panels.banner(state, control.ui, control.view))
    assert "HALF-TIME" in banner and "any key goes on to half 2" in banner
    board = control.view.board(120, 40)
    letters = sum(board_text(board).count(c) for c in "RB")
    assert letters == sum(2 if double else 1 for _, double in first.values())
    assert lines_of(control.view.panel_top(46))[0].startswith("Half 1 is over")
    assert text(control.view.status()) == "  half 1 of 2"   # the board shown is half 1's
    control.go_on()
    assert control.session.wishes == [("go_on", None)]


def test_the_half_time_banner_shows_the_countdown_and_who_it_waits_for_in_80_columns():
    state, control, game = playing(players=2, mirror_match=True)
    rng = random.Random(1)
    while not any(isinstance(e, HalfEnded) for e in state.view.events):
        play(state, game, rng.choice(game.legal_actions()))
    waiting = [msgspec.structs.replace(s, waiting=True) for s in seats("Ann", "Bob")]
    state.apply(Lobby(phase="playing", settings=state.settings, seats=waiting, owner=0,
                      pause="half-time", pause_left=20.0))
    shown = text(panels.banner(state, control.ui, control.view))[:80]
    assert "any key goes on to half 2" in shown and "waiting for B Bob" in shown
    assert re.search(r"  \d+ s  half 1 of 2 *$", shown)   # the countdown, then the half


def test_the_half_time_banner_shows_the_pauses_countdown_not_the_turn_timers():
    """No turn timer runs while the table pauses (docs/protocol.md "Pauses"): the banner
    says what the pause means and when it ends by itself, with no turn's "s left"."""
    state, control, game = playing(players=2, mirror_match=True, turn_timer=15.0)
    rng = random.Random(1)
    while not any(isinstance(e, HalfEnded) for e in state.view.events):
        play(state, game, rng.choice(game.legal_actions()))
    assert control.ui.turn_deadline is not None   # the timer the action that ended half 1 started
    waiting = [msgspec.structs.replace(s, waiting=True) for s in seats("Ann", "Bob")]
    state.apply(Lobby(phase="playing", settings=state.settings, seats=waiting, owner=0,
                      pause="half-time", pause_left=20.0))
    shown = text(panels.banner(state, control.ui, control.view))
    assert "any key goes on to half 2" in shown
    assert "left" not in shown and len(re.findall(r"\b\d+ s\b", shown)) == 1   # the pause's 20 s alone
    control.go_on()
    state.apply(Lobby(phase="playing", settings=state.settings, seats=seats("Ann", "Bob"), owner=0))
    assert re.search(r"  1[45] s left", text(panels.banner(state, control.ui, control.view)))


def test_no_game_key_acts_on_a_board_the_player_cannot_see():
    state, _, game = playing()
    shown = [False]
    control = Controller(FakeSession(state), visible=lambda: shown[0])
    assert not control.board_visible
    shown[0] = True
    assert control.board_visible
    control.set_mode("help")
    assert not control.board_visible


@pytest.mark.parametrize("phase, expected", [
    ("playing", "You left the game; your seat is kept (a bot plays your turns meanwhile). "
                "Come back with:  waddle join h:1 --name 'Ann Lee' --code c0de"),
    ("lobby", "You left the lobby; your seat is held for a short while. "
              "Join again with:  waddle join h:1 --name 'Ann Lee' --code c0de"),
    ("finished", None),
])
def test_leaving_join_says_how_to_come_back(phase, expected):
    state = table_state(seats("Ann"), label="red", phase=phase if phase == "lobby" else None,
                        game=None if phase == "lobby" else Game(standard_map(2, 1), ["red", "blue"]))
    state.phase = phase
    args = Namespace(address="h:1", name="Ann Lee", code="c0de")
    assert come_back(state, args) == expected
    spectator = table_state(seats("Ann"))
    assert come_back(spectator, args) is None


@pytest.mark.parametrize("phase", ["playing", "lobby"])
def test_leaving_join_after_the_host_stopped_says_no_host_runs_and_how_to_come_back(phase):
    """With the host stopped nobody keeps the seat or plays it: the player is told what the
    host said (whether the game is saved and how it goes on) and the command for later."""
    state = table_state(seats("Ann"), label="red", phase=phase if phase == "lobby" else None,
                        game=None if phase == "lobby" else Game(standard_map(2, 1), ["red", "blue"]))
    state.phase = phase
    said = ("the host stopped; the game is saved: it goes on when the host runs "
            "waddle host --resume night.json")
    state.host_stopped = said
    state.set_status(Status.RECONNECTING, f"{said}; looking for it again in 17 s")
    message = come_back(state, Namespace(address="h:1", name="Ann Lee", code="c0de"))
    assert "kept" not in message and "a bot plays" not in message and "held" not in message
    assert said in message and "no host is running" in message.lower()
    assert message.endswith("  waddle join h:1 --name 'Ann Lee' --code c0de")


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash to run the command")
def test_coming_back_prints_a_hostile_name_escaped_and_the_shell_still_gives_it_back():
    name = "\x1b]0;pwned\x07Evil\u202eboB\U0001F427\u200b it's"
    state = table_state(seats("Ann"), label="red", game=Game(standard_map(2, 1), ["red", "blue"]))
    state.phase = "playing"
    message = come_back(state, Namespace(address="h:1", name=name, code="c0de"))
    assert message.isprintable() and "🐧" in message  # no escape or bidi control reaches the terminal
    word = message.split("--name ", 1)[1].rsplit(" --code", 1)[0]
    assert word == "$'\\x1b]0;pwned\\x07Evil\\u202eboB🐧\\u200b it\\'s'"
    said = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, check=True).stdout
    assert said.decode("utf-8") == name


def test_fish_never_run_together_and_cut_text_ends_in_an_ellipsis():
    assert fish_label((3, 2, 1), 3) == "3+" and fish_label((3, 2, 1), 5) == "3,2,1"
    assert fish_label((5, 1), 3) == "5,1" and fish_label((5, 1), 2) == "5+"
    assert cut_line([("a", "hello "), ("b", "world")], 8) == [("a", "hello "), ("b", "w"), ("class:dim", "…")]
    assert cut_line([("a", "hello     ")], 6) == [("a", "hello ")]  # only spaces lost
    assert text(cut_line([("", "abcdef")], 4, ascii=True)) == "abc~"
    side = text(panels.side_panel(*_long_names(), width=30, height=20))
    assert all(len(line) <= 30 for line in side.split("\n")) and "…" in side


def _long_names():
    state = table_state([seat(0, "red", "A" * 24, connected=True), seat(1, "blue", "B" * 24, connected=True)],
                        label="red", game=Game(standard_map(2, 1), ["red", "blue"]))
    return state, controller(state).view


def test_a_headless_client_prints_a_take_back_as_a_line_of_its_own():
    from client.games.hex.text import undo_line

    undone = Undone(version=5, seat=0, events=[TookBack("red", Place((1, -1)))])
    assert undo_line(undone, ("red", "blue"), lambda label: "Ada\x1b[2J") == f"   4  red    {'Ada':<24} took back place 1,-1"


def test_play_host_and_serve_share_the_table_options_with_the_same_defaults():
    from client.cli import build_parser
    from client.commands.serve import pace_from, settings_from

    shared = ("realtime_score", "pace", "turn_timer", "seat_order", "mirror", "seed", "map", "bundled", "game",
              "single_deck", "deck")
    defaults = {}
    for command in ("play", "host", "serve"):
        parser = build_parser(command)
        args = parser.parse_args([command])
        defaults[command] = {name: getattr(args, name) for name in shared} | {"pace": pace_from(args)}
        if command == "serve":
            assert settings_from(args).options.realtime_score is True
    assert defaults["play"] == defaults["host"] == defaults["serve"]
    assert defaults["serve"]["pace"] == 1.0
    for command in ("play", "host", "join", "watch"):
        assert build_parser(command).parse_args([command, *(["h:1"] if command in ("join", "watch") else []),
                                                 "--no-bell"]).no_bell
