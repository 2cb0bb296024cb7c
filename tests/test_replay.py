"""The replay viewer, the search bot's analysis and hints.

The analysis on small hand-built positions whose best move is clear, and the blunder
marks on a record with a deliberately bad move; the replay's steps as a spectator saw them;
the viewer driven by keys through a pipe input (stepping, jumping, analysing a step and
the whole game, Esc); a growing save file followed; the hints setting's default and the
client's refusal; a Waddle Downtown hint computed from the seat's own position only.
Waiting is on renders and state, bounded by a timeout; no sleeps.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest
import trio
from downtown_ui_kit import table as downtown_table
from test_rules import flowers, ring
from test_ui_app import Screen, drive
from test_ui_kit import controller, hex_settings, seat, table_state

from client.games.downtown.text import penguins_text
from client.ui import hints, panels
from client.ui.analyst import Analyst, Batch
from client.ui.replay import Replay, ReplaySession
from protocol.messages import Lobby, Settings
from waddle.downtown.actions import Add
from waddle.downtown.position import Position
from waddle.downtown.state import UNKNOWN, State, shuffle
from waddle.hex.actions import Place, action_from_dict
from waddle.hex.game import Game
from waddle.hex.record import to_record
from waddle.journal import Entry, Header, journal_path, line
from waddle.ruleset import Analysis, Candidate, get_ruleset, ruleset_of_record

RECORDS = Path(__file__).parent / "data" / "records"
HEX, DOWNTOWN = get_ruleset("hex"), get_ruleset("downtown")
TIMEOUT = 30
#: Enough iterations that the analyses below are clear, few enough to be quick.
ITERATIONS = 400


def pool_decider() -> tuple[Game, tuple[int, int]]:
    """Two flowers (fish 20 and 1); red has placed a double and two singles at the first,
    blue two singles: blue to place on its last ice hex. A single there loses the 20 fish
    (red 4, blue 3); a double ties the pool, and with two players a tie gives both all."""
    game = Game(flowers((20,), (1,)), ["red", "blue"])
    hexes = ring((0, 0))
    for i, hex in enumerate(hexes[:5]):
        game.apply(Place(hex, i == 0))
    return game, hexes[5]


def test_the_hex_analysis_finds_the_double_that_ties_a_pool_worth_20():
    game, last = pool_decider()
    analysis = HEX.analyse(game, 60, seed=1, iterations=ITERATIONS)
    assert analysis.seat == 1 and analysis.best == Place(last, True)
    single = next(c for c in analysis.candidates if c.action == Place(last, False))
    assert analysis.expected[1] - single.expected[1] > 15      # the 20 fish, about
    assert len(game) == 5                                       # the game is not changed
    assert analysis.iterations == ITERATIONS
    assert sum(c.visits for c in analysis.candidates) == ITERATIONS


def test_the_hex_analysis_of_a_finished_game_is_its_final_score():
    game, last = pool_decider()
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    analysis = HEX.analyse(game, 1)
    assert analysis.best is None and analysis.seat is None
    assert analysis.expected == tuple(float(t) for t in game.live_totals())


def test_the_hex_analysis_stops_when_asked():
    game, _ = pool_decider()
    assert HEX.analyse(game, 60, stop=lambda: True).iterations == 1


def downtown_last_play() -> tuple[object, Position]:
    """The record's match before its last action, and the last mover's position."""
    data = json.loads((RECORDS / "downtown-two-players.json").read_text())
    match, actions = DOWNTOWN.replay(data)
    for mover, action in actions[:-1]:
        match.apply(mover, action)
    return match, match.position(actions[-1][0])


def test_the_downtown_analysis_of_the_last_play_finds_the_most_points_and_the_final_score():
    match, position = downtown_last_play()
    seat = position.seat
    analysis = DOWNTOWN.analyse(position, 60, seed=2, iterations=150)
    state = match.state
    best = max(state.preview(seat, a).points for a in position.legal_actions())
    assert analysis.seat == seat
    assert state.preview(seat, analysis.best).points == best
    assert analysis.expected[seat] == state.scores[seat] + best     # nothing is left to chance
    assert analysis.expected[1 - seat] == state.scores[1 - seat]


def test_a_downtown_analysis_depends_on_the_seat_position_only_never_on_the_hidden_cards():
    deck = DOWNTOWN.prepare(DOWNTOWN.options_type(), 2, 5).data
    orders = shuffle(deck, 2, False, 5)
    other = [orders[0], list(reversed(orders[1]))]          # blue's cards dealt otherwise
    states = [State.deal(deck, ["blue", "green"], o) for o in (orders, other)]
    assert states[0].hands[1] != states[1].hands[1]
    positions = [Position(s.redacted(0), 0) for s in states]
    assert all(card == UNKNOWN for card in positions[0].state.hands[1])
    first, second = (DOWNTOWN.analyse(p, 60, seed=3, iterations=40) for p in positions)
    assert first == second


def bad_move_record() -> dict:
    """:func:`pool_decider`, blue placing a single on the last hex (giving up 20 fish),
    then the rest played by the first legal action."""
    game, last = pool_decider()
    game.apply(Place(last, False))
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return to_record(game)


def test_the_full_game_pass_marks_the_move_that_gave_up_the_pool_as_the_blunder():
    replay = Replay(bad_move_record(), "bad.json")
    for step, position in enumerate(replay.positions):
        replay.analyses[step] = HEX.analyse(position, 60, seed=step, iterations=ITERATIONS)
    drops = {step: replay.drop(step) for step in range(len(replay))}
    assert max(drops, key=drops.get) == 5
    assert drops[5] > 15
    assert replay.marks()[5] == "??"
    assert replay.drop(len(replay)) is None


def test_no_marks_before_both_sides_of_a_move_are_analysed():
    replay = Replay(bad_move_record(), "bad.json")
    replay.analyses[5] = HEX.analyse(replay.positions[5], 60, seed=1, iterations=50)
    assert replay.drop(5) is None and replay.marks() == {}


# -- the replay's steps -------------------------------------------------------------------------


def test_the_steps_are_what_a_spectator_saw_and_end_where_the_record_ends(tmp_path):
    session = ReplaySession(str(RECORDS / "downtown-two-players.json"))
    replay = session.replay
    assert len(replay) == 17 and replay.finished
    match = DOWNTOWN.load(json.loads((RECORDS / "downtown-two-players.json").read_text()))
    session.go(len(replay))
    assert session.state.finished and session.state.phase == "finished"
    assert session.state.view.outcome().scores == match.outcome().scores
    assert session.state.view.audience is None          # a spectator's: no hand
    assert all(card == UNKNOWN for hand in session.state.view.state.hands for card in hand)
    session.go(3)
    assert session.state.version == 3 and session.state.phase == "playing"
    session.go(-5)
    assert session.state.version == 0
    session.go(99)
    assert session.state.version == 17


def test_the_last_step_of_a_game_that_goes_on_is_analysed_as_its_next_mover_knows_it():
    full = bad_move_record()                       # the hex game: no secrets to keep
    cut = next(k for k in range(3, len(full["actions"])) if full["actions"][k]["player"] != full["players"][0])
    replay = Replay({**full, "actions": full["actions"][:cut]}, "save.json")
    mover = full["players"].index(full["actions"][cut]["player"])
    assert not replay.finished and replay.analysable
    assert HEX.analyse(replay.positions[-1], 60, seed=1, iterations=5).seat == mover


def downtown_in_play(path: Path, actions: int = 9) -> dict:
    """Write to ``path`` the Downtown record cut after ``actions`` (a running host's save,
    the game not over); return the whole record."""
    full = json.loads((RECORDS / "downtown-two-players.json").read_text())
    path.write_text(json.dumps({**full, "actions": full["actions"][:actions]}))
    return full


def test_a_game_keeps_secrets_exactly_when_its_audiences_see_different_views():
    games = {}
    for path in RECORDS.glob("*.json"):
        data = json.loads(path.read_text())
        ruleset = ruleset_of_record(data)
        match, _ = ruleset.replay(data)
        differ = any(match.view(seat) != match.view(None) for seat in range(len(match.labels)))
        assert ruleset.secrets == differ, path.name
        games[ruleset.name] = ruleset.secrets
    assert games == {"downtown": True, "hex": False}


def test_the_viewer_never_analyses_a_downtown_game_in_play_and_holds_no_hand_of_it(tmp_path):
    path = tmp_path / "save.json"
    downtown_in_play(path)
    replay = ReplaySession(str(path)).replay
    assert not replay.finished and not replay.analysable
    # nothing the viewer keeps holds a card of a hand (the spectator's state aside)
    assert all(card == UNKNOWN for position in replay.positions for hand in position.state.hands
               for card in hand)

    async def test(d):
        control = d.app.controller
        replay = control.replay
        def panel():
            return " ".join(word for row in d.text().splitlines()[1:-1] for word in row.split("│")[-1].split())

        # said in the panel, before any key, and no analysis key offered on the bottom line
        await d.until(lambda: "No analysis until the game is over: the hands are hidden" in panel(), "why")
        assert "analyse" not in d.text().splitlines()[-1] and "E game" not in d.text().splitlines()[-1]
        d.keys(END)
        await d.shows("move 9 of 9")
        d.keys("e")                                             # the QA's path: the last step, e
        await d.until(lambda: "no analysis of a game in play" in control.ui.notice, "the refusal")
        d.keys("E")
        for _ in range(len(replay)):
            d.keys(LEFT + "e")
        await d.shows("move 0 of 9")
        shown = d.text()
        assert "best for" not in shown and "Search bot" not in shown and "Expected final score" not in shown
        assert control.analyst.batch is None and control.analysis is None and control.suggestion is None
        assert replay.analyses == {} and replay.marks() == {}

    view(path, test, columns=80, rows=24, seconds=0.05, pass_seconds=0.02)


def test_a_followed_downtown_game_is_analysed_once_it_is_over(tmp_path):
    from client.ui.controller import Controller

    path = tmp_path / "save.json"
    full = downtown_in_play(path)
    session = ReplaySession(str(path), follow=True)
    control = Controller(session)
    session.go(len(session.replay))
    control.analyse()
    control.analyse_game()
    assert control.analyst.batch is None and "no analysis of a game in play" in control.ui.notice
    path.write_text(json.dumps(full))                     # the game ends: its record is out
    session.reload()
    assert session.replay.finished and session.replay.analysable
    offered = "".join(text for _, text in panels.hints(control.state, control.ui, control.view, 0, session.replay))
    assert "e analyse" in offered and "E whole game" in offered   # the keys are offered again
    session.go(3)
    control.analyse()
    batch = control.analyst.batch
    assert batch is not None and batch.jobs == [(3, session.replay.positions[3])]
    assert batch.jobs[0][1].seat == full["actions"][3]["seat"]     # the mover's own position


def test_a_bad_record_names_the_file_and_the_place(tmp_path):
    data = bad_move_record()
    data["actions"][2] = {"player": "green", "type": "scout"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"bad\.json: actions\[2\]"):
        ReplaySession(str(path))


def test_seat_names_come_from_the_save_file_and_never_its_tokens(tmp_path):
    data = bad_move_record()
    data["host"] = {"seats": [{"label": "red", "name": "Ann\x1b[31m", "token": "SECRET"},
                              {"label": "blue", "name": "Bob", "token": "SECRET"}], "bots": "junk"}
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    session = ReplaySession(str(path))
    assert [s.name for s in session.state.seats] == ["Ann\x1b[31m", "Bob"]
    shown = session.state.name_of("red")                        # cleaned where shown
    assert shown.startswith("Ann") and "\x1b" not in shown
    assert "SECRET" not in repr(session.state.seats) and "SECRET" not in repr(session.replay.__dict__)


def test_a_followed_save_file_takes_in_new_actions_and_a_viewer_at_the_end_follows(tmp_path):
    full = bad_move_record()
    path = tmp_path / "save.json"
    path.write_text(json.dumps({**full, "actions": full["actions"][:4]}))
    session = ReplaySession(str(path), follow=True)
    assert session.follow and session.replay.note == f"following {path}"
    assert session.replay.step == 4 and session.state.version == 4  # the game as it is now
    assert ReplaySession(str(path)).replay.step == 0                # not followed: from the start
    path.write_text(json.dumps({**full, "actions": full["actions"][:7]}))
    session.reload()
    assert len(session.replay) == 7 and session.state.version == 7
    assert session.replay.note == f"following {path}"
    path.write_text("{ torn")
    session.reload()
    assert "not valid JSON" in session.reload_error and "not valid JSON" in session.replay.note
    assert len(session.replay) == 7 and session.state.version == 7
    analyses = session.replay.analyses
    session.go(2)
    path.write_text(json.dumps(full))
    session.reload()
    assert session.state.version == 2 and len(session.replay) == len(full["actions"])
    assert session.replay.analyses is analyses        # the same game, more actions: kept
    assert not session.follow and session.replay.note == ""     # over: nothing more will come
    path.write_text(json.dumps({**full, "actions": full["actions"][:3]}))   # taken back
    session.reload()
    assert session.replay.analyses is not analyses and session.state.version == 2



async def test_following_polls_the_file_at_a_gentle_pace(tmp_path, autojump_clock):
    full = bad_move_record()
    path = tmp_path / "save.json"
    path.write_text(json.dumps({**full, "actions": full["actions"][:3]}))
    session = ReplaySession(str(path), follow=True)
    session.go(3)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.run)
        await trio.sleep(5)
        path.write_text(json.dumps({**full, "actions": full["actions"][:6]}))
        with trio.fail_after(TIMEOUT):
            while session.state.version != 6:
                await trio.sleep(0.5)
        nursery.cancel_scope.cancel()


# -- the analyst -----------------------------------------------------------------------------------


async def test_the_analyst_hands_each_result_back_as_it_comes_and_stops_on_cancel():
    game, _ = pool_decider()
    results = []
    analyst = Analyst(lambda key, analysis: results.append((key, analysis)))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(analyst.run)
        into: dict = {}
        analyst.request(Batch(HEX, [(0, game), (1, game)], 0.01, "two", into=into))
        with trio.fail_after(TIMEOUT):
            while analyst.busy:
                await trio.sleep(0.01)
        assert [key for key, _ in results] == [0, 1]
        assert into == dict(results)
        results.clear()
        batch = Batch(HEX, [(k, game) for k in range(50)], 30, "long")
        analyst.request(batch)
        with trio.fail_after(TIMEOUT):
            while not batch.stop.is_set() and batch.done == 0:
                analyst.cancel()
                await trio.sleep(0.01)
        assert not analyst.busy and batch.done < 50
        nursery.cancel_scope.cancel()


# -- hints in a live game ------------------------------------------------------------------------


def hex_table(*, bot: str | None, hints_setting: str = "auto"):
    game = Game(flowers((20,), (1,)), ["red", "blue"])
    settings = msgspec.structs.replace(hex_settings(2), hints=hints_setting)
    return table_state([seat(0, "red", "Ann", connected=True), seat(1, "blue", "Bob", bot=bot)],
                       label="red", game=game, settings=settings)


def test_hints_are_allowed_by_default_only_at_a_table_with_a_bot():
    assert Settings().hints == "auto"
    assert hints.allowed(hex_table(bot="greedy"))
    assert not hints.allowed(hex_table(bot=None))
    assert hints.allowed(hex_table(bot=None, hints_setting="on"))
    assert not hints.allowed(hex_table(bot="greedy", hints_setting="off"))


def test_a_stand_in_bot_does_not_allow_hints_but_bots_to_come_in_the_lobby_do():
    state = hex_table(bot=None)
    state.seats[1] = msgspec.structs.replace(state.seats[1], bot="greedy", standin=True)
    assert not hints.allowed(state)
    lobby = table_state([seat(0, "red", "Ann")], label="red",
                        settings=Settings(players=2, bots=["greedy"], options=hex_settings(2).options))
    assert hints.allowed(lobby)


def test_the_lobby_field_steps_through_auto_on_off_and_shows_it():
    settings = Settings()
    assert hints.FIELD.show(settings).startswith("auto")
    stepped = [hints.FIELD.step(settings, 1), hints.FIELD.step(settings, -1)]
    assert [s.hints for s in stepped] == ["on", "off"]
    assert hints.FIELD.show(stepped[1]) == "forbidden"


def test_the_hint_key_is_refused_with_the_reason_when_hints_are_forbidden():
    control = controller(hex_table(bot="greedy", hints_setting="off"))
    control.analyse()
    assert "hints are not allowed" in control.ui.notice and "turned them off" in control.ui.notice
    assert control.analyst.batch is None
    control = controller(hex_table(bot=None))
    control.analyse()
    assert "no bot plays at this table" in control.ui.notice


def test_a_hint_is_asked_on_your_turn_and_shown_for_that_turn_only():
    state = hex_table(bot="greedy")
    control = controller(state)
    control.analyse()
    batch = control.analyst.batch
    assert batch is not None and batch.jobs[0][0] == ("hint", state.version)
    game = batch.jobs[0][1]
    analysis = HEX.analyse(game, 60, seed=1, iterations=50)
    control._analysed(batch.jobs[0][0], analysis)
    assert control.suggestion == analysis.best
    assert control.view.cursor == analysis.best.hex or not isinstance(analysis.best, Place)
    state.version += 1
    assert control.suggestion is None


def test_a_downtown_hint_is_computed_from_the_seat_view_alone():
    host, control = downtown_table(2, 1)        # green discards first (DOWNTOWN.md "Setup")
    control.analyse()
    batch = control.analyst.batch
    assert batch is not None, control.ui.notice
    position = batch.jobs[0][1]
    assert isinstance(position, Position) and position.seat == 1
    assert all(card == UNKNOWN for card in position.state.hands[0])
    assert all(card == UNKNOWN for deck in position.state.decks for card in deck)
    assert position.state.hands[1] == host.match.state.hands[1]


@pytest.mark.parametrize("players, single", [(2, False), (3, True)])
def test_a_downtown_hint_holds_only_what_its_seat_knows_at_every_turn_of_a_game(players, single):
    from collections import Counter

    from downtown_ui_kit import bots_play, play_turn

    seat = 1
    host, control = downtown_table(players, seat, single=single)
    turns = 0
    while True:
        bots_play(host)
        if host.match.is_over:
            break
        control.analyse()
        batch = control.analyst.batch
        assert batch is not None, control.ui.notice
        hint = batch.jobs[0][1].state
        known = host.match.position(seat).state     # the seat's knowledge, from the host's side
        assert batch.jobs[0][1].seat == seat and hint.hands[seat] == host.match.state.hands[seat]
        assert all(card == UNKNOWN for deck in hint.decks for card in deck)
        for other in set(range(players)) - {seat}:
            seen = Counter(card for card in hint.hands[other] if card != UNKNOWN)
            assert seen <= Counter(known.known[other]), (other, hint.hands[other], known.known[other])
            assert hint.pending[other] in (None, UNKNOWN, known.pending[other])
        control.analyst.cancel()
        play_turn(control)
        turns += 1
    assert turns >= 8


def test_a_spectator_gets_no_hint():
    state = table_state([seat(0, "red", "Ann"), seat(1, "blue", "Bob", bot="greedy")],
                        label=None, game=Game(flowers((20,), (1,)), ["red", "blue"]))
    control = controller(state)
    control.analyse()
    assert control.ui.notice == "hints are for the players"


# -- the viewer, driven by keys --------------------------------------------------------------------


def view(path, test, *, columns=100, rows=30, follow=False, **settings):
    """Run ``test(driver)`` over the replay viewer of ``path`` (``follow``: following it),
    then quit."""
    async def ready(driver):
        for name, value in settings.items():
            setattr(driver.app.controller, name, value)
        await driver.shows("REPLAY")

    drive(ReplaySession(str(path), follow=follow), test, Screen(columns, rows), ready=ready, bell=False)


RIGHT, LEFT, UP, DOWN, HOME, END = "\x1b[C", "\x1b[D", "\x1b[A", "\x1b[B", "\x1b[H", "\x1b[F"


def test_the_viewer_steps_and_jumps_through_a_hex_record():
    path = RECORDS / "two-players-scout-and-fill.json"
    replay = Replay(json.loads(path.read_text()), "r")
    ends = [k + 1 for k, events in enumerate(replay.events)
            if any(type(e).__name__ == "RoundEnded" for e in events)]

    async def test(d):
        await d.shows("move 0 of 13", "next: B blue", "Moves (0/13)")
        d.keys(LEFT)
        d.keys(RIGHT)
        await d.shows("move 1 of 13", "next: Y yellow", "score")   # the live score, whatever the table's setting
        assert d.state.version == 1 and not d.state.settings.options.realtime_score
        d.keys(RIGHT + RIGHT)
        await d.shows("move 3 of 13")
        d.keys(LEFT)
        await d.shows("move 2 of 13")
        d.keys(END)
        await d.shows("move 13 of 13", "GAME OVER", "won by B blue")
        d.keys(HOME)
        await d.shows("move 0 of 13")
        d.keys(DOWN)
        await d.until(lambda: d.state.version == ends[0], "the end of round 1")
        d.keys(DOWN)
        await d.until(lambda: d.state.version == ends[1], "the end of round 2")
        d.keys(UP)
        await d.until(lambda: d.state.version == ends[0], "back to the end of round 1")
        d.keys("\x1b[6~")  # PageDown: no half in this game: the end
        await d.shows("move 13 of 13")
        d.keys("?")
        await d.shows("the previous / next move", "analyse the whole game")
        d.keys("x")
        await d.shows("REPLAY")
        d.keys("\r")  # Enter plays nothing in a replay
        await d.shows("move 13 of 13")
        d.keys(HOME + RIGHT + RIGHT + "v")
        await d.shows("move 2 of 13", "Live score (v closes)")
        shown = d.app.controller.view.shown
        d.keys("\t")                       # the score view's next item, mid-replay too
        await d.until(lambda: d.app.controller.view.shown == shown + 1, "the next waddle or pool")

    view(path, test)


def test_the_viewer_analyses_a_step_then_the_whole_game_filling_the_graph():
    path = RECORDS / "two-players-scout-and-fill.json"

    async def test(d):
        control = d.app.controller
        d.keys(RIGHT)
        await d.shows("move 1 of 13")
        d.keys("e")
        await d.shows("Search bot: expected final score", "best for Y ")
        best = control.replay.analyses[1].best
        assert control.suggestion == best
        if isinstance(best, Place):
            board = "\n".join(line.split("│")[0] for line in d.text().splitlines()[1:-1])
            assert "*" in board
        d.keys("E")
        await d.until(lambda: len(control.replay.analyses) == 14, "every step analysed")
        await d.shows("Expected final score", "B ", "Y ")
        assert control.analyst.batch is None
        d.keys("E")
        await d.shows("every step is analysed")

    view(path, test, seconds=0.05, pass_seconds=0.02)


def test_esc_stops_the_whole_game_pass():
    path = RECORDS / "two-players-scout-and-fill.json"

    async def test(d):
        control = d.app.controller
        d.keys("E")
        await d.shows("Analysing the whole game", "Esc stops")
        d.keys("\x1b")
        await d.shows("analysis stopped")
        assert control.analyst.batch is None and len(control.replay.analyses) < 14

    view(path, test, pass_seconds=5.0)


def test_the_viewer_steps_through_a_downtown_record_as_a_spectator_saw_it():
    path = RECORDS / "downtown-two-players.json"

    async def test(d):
        await d.shows("move 0 of 17", "discards a card")
        replay = d.app.controller.replay
        seat, play = replay.actions[1]
        assert isinstance(play.act, Add)
        replay.analyses[1] = Analysis(seat, play, (0.0, 0.0))   # as if analysed: the move played
        d.keys(RIGHT)
        await d.shows("move 1 of 17", "Watching: every hand is hidden", "best for")
        marks = [f"*+{penguins_text(p.red, p.yellow)}" for p in play.act.penguins]
        assert all(mark in d.text() for mark in marks), marks
        d.keys(DOWN)
        await d.until(lambda: d.state.view.state.round == 2, "round 2")
        d.keys(END)
        await d.shows("move 17 of 17", "GAME OVER")
        d.keys(HOME + "e")
        await d.shows("Search bot: expected final score", "best for")

    view(path, test, seconds=0.2)


def test_the_viewer_says_what_of_a_save_files_journal_was_left_out(tmp_path):
    full = bad_move_record()
    path = tmp_path / "save.json"
    path.write_text(json.dumps({**full, "actions": full["actions"][:4], "host": {"table": "t1", "version": 5}}))
    seats = {label: seat for seat, label in enumerate(full["players"])}
    entries = [line(Entry(version=6 + i, seat=seats[action["player"]], action=action_from_dict(action)))
               for i, action in enumerate(full["actions"][4:7])]
    journal_path(path).write_bytes(line(Header(table="t1", base=5)) + entries[0] + b"junk\n" + entries[1])

    async def test(d):
        await d.shows("move 0 of 5", "line 3 is damaged")   # the first entry played, the rest left out

    view(path, test)
    path.write_text(json.dumps(full))                       # no journal problem: nothing said
    journal_path(path).unlink()
    assert ReplaySession(str(path)).replay.left_out == ""


def test_the_banner_gives_the_round_before_the_long_name_of_the_file_followed(tmp_path):
    full = json.loads((RECORDS / "downtown-two-players.json").read_text())
    path = tmp_path / ("a-long-folder-name-" * 3) / "save.json"
    path.parent.mkdir()
    path.write_text(json.dumps({**full, "actions": full["actions"][:6]}))

    async def test(d):
        d.keys(END)
        await d.shows("move 6 of 6")
        shown = d.text().splitlines()
        banner = "\n".join(shown[:next(i for i, line in enumerate(shown) if "│" in line)])
        assert "round " in banner and banner.index("round ") < banner.index("following")
        assert banner.endswith("/save.json")   # whole on a line of its own, or shortened: the file name shows

    view(path, test, columns=80, rows=24, follow=True)


def test_the_command_prints_the_text_when_asked_or_not_in_a_terminal(capsys, tmp_path):
    from client.cli import main

    path = tmp_path / "r.json"
    shutil.copy(RECORDS / "two-players-scout-and-fill.json", path)
    assert main(["replay", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    assert "points: blue 40 (34+6), yellow 9 (6+3)" in text   # the records README
    assert main(["replay", str(path)]) == 0                  # not a terminal: the text
    assert capsys.readouterr().out == text
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is True
    assert main(["replay", str(path), "--seconds", "0"]) == 2
    assert "--seconds must be more than 0" in capsys.readouterr().err


def test_lobby_messages_carry_the_hints_setting():
    lobby = Lobby(phase="lobby", settings=Settings(hints="off"), seats=[])
    assert json.loads(msgspec.json.encode(lobby))["settings"]["hints"] == "off"
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"hints": "sometimes"}', type=Settings)


def test_a_hint_in_a_live_game_against_bots_shows_the_move_and_the_expected_scores():
    from test_ui_app import first_turn, play

    async def test(d):
        await d.shows("Hints", "auto (allowed with a bot at the table)")
        await first_turn(d)
        await d.shows("Hints allowed: e")
        d.app.controller.seconds = 0.1
        d.keys("e")
        await d.shows("Hint: expected final score", "best for R ")
        best = d.app.controller.suggestion
        assert best in d.state.legal_actions()
        if isinstance(best, Place):
            board = "\n".join(line.split("│")[0] for line in d.text().splitlines()[1:-1])
            assert d.app.controller.view.cursor == best.hex and "*" in board

    play(test, players=2, bots="random", columns=100, rows=30)


def test_a_forbidden_hint_says_why_in_the_panel_where_an_80_column_banner_cuts_it():
    from test_ui_app import first_turn, play

    from client.ui.session import RemoteSession
    from server.host import Host, ServerConfig
    from waddle.hex.options import HexOptions, StandardMap

    settings = Settings(players=2, bots=["random"], hints="off",
                        options=HexOptions(map=StandardMap(seed=5), realtime_score=True))
    server = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, seed=2))
    session = RemoteSession("127.0.0.1", 0, client_options={"name": "alice"}, server=server)

    async def test(d):
        await first_turn(d)
        d.keys("e")
        await d.shows("hints are not allowed", "Hints off: the owner's choice")
        assert d.app.controller.analyst.batch is None

    play(test, session=session)


def test_the_panel_says_in_short_why_hints_are_off():
    assert hints.off_line(hex_table(bot="greedy")) == ""
    assert hints.off_line(hex_table(bot="greedy", hints_setting="off")) == "Hints off: the owner's choice"
    assert hints.off_line(hex_table(bot=None)) == "Hints off: no bot at this table"


def test_the_expected_scores_line_up_under_names_of_any_length_and_fit_the_panel():
    from client.ui.analysis import expected_lines

    state = table_state([seat(0, "red", "Me", connected=True), seat(1, "blue", "Tux (greedy bot)", bot="greedy")],
                        label="red", game=Game(flowers((20,), (1,)), ["red", "blue"]))
    texts = ["".join(text for _, text in line)
             for line in expected_lines(state, None, Analysis(0, None, (42.25, 101.0)), "Hint", 40)[1:]]
    assert texts == ["  B Tux (greedy bot)  101.0", "  R Me                 42.2"]
    narrow = ["".join(text for _, text in line)
              for line in expected_lines(state, None, Analysis(0, None, (42.25, 101.0)), "Hint", 20)[1:]]
    assert narrow == ["  B Tux (gre…  101.0", "  R Me          42.2"]


def test_the_best_move_is_the_sound_candidate_that_scores_most_for_the_mover():
    top, sound, rare = (Candidate("top", 100, (70.0, 40.0)), Candidate("sound", 60, (90.0, 40.0)),
                        Candidate("rare", 10, (99.0, 0.0)))
    analysis = Analysis.of(0, [rare, sound, top], 170)
    assert analysis.best == "sound" and analysis.expected == (90.0, 40.0)
    assert [c.action for c in analysis.candidates] == ["top", "sound", "rare"]
    assert Analysis.of(1, [rare, sound, top], 170).best == "top"        # a tie: the most visited


async def test_a_search_that_fails_ends_its_batch_with_the_reason_and_the_analyst_goes_on():
    class Broken:
        title = "Broken"

        def analyse(self, position, seconds, *, stop):
            raise RuntimeError("no search here")

    game, _ = pool_decider()
    results = []
    analyst = Analyst(lambda key, analysis: results.append(key))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(analyst.run)
        analyst.request(Batch(Broken(), [(0, game)], 0.01, "broken"))
        with trio.fail_after(TIMEOUT):
            while analyst.busy:
                await trio.sleep(0.01)
        assert analyst.error == "no analysis: no search here" and results == []
        analyst.request(Batch(HEX, [(1, game)], 0.01, "fine"))
        with trio.fail_after(TIMEOUT):
            while analyst.busy:
                await trio.sleep(0.01)
        assert results == [1] and analyst.error == ""
        nursery.cancel_scope.cancel()


def test_the_half_keys_stop_at_the_end_of_half_1_of_a_mirror_match():
    from client.ui.controller import Controller

    session = ReplaySession(str(RECORDS / "mirror-two-players.json"))
    control = Controller(session)
    control.changed()
    half = next(k + 1 for k, events in enumerate(session.replay.events)
                if any(type(e).__name__ == "HalfEnded" for e in events))
    assert 0 < half < len(session.replay)
    control.jump("half", 1)
    assert session.state.version == half and control.view.game.half == 2
    assert session.state.pause == "half-time" and control.view.half_time()   # half 1's board stays
    assert "Half 1 is over" in "".join(t for line in control.view.panel_top(40) for _, t in line)
    control.step(1)
    assert session.state.pause is None and not control.view.half_time()
    control.step(-1)
    assert session.state.pause == "half-time"
    control.jump("half", 1)
    assert session.state.version == len(session.replay) and session.state.finished
    control.jump("half", -1)
    assert session.state.version == half
    control.jump("round", -1)
    assert session.state.version < half
    control.step(-100)
    assert session.state.version == 0


def test_a_batch_progress_counts_the_jobs_done_and_the_running_search_time():
    now = [100.0]
    batch = Batch(HEX, [(0, None), (1, None)], 2.0, "two", clock=lambda: now[0])
    assert batch.progress == 0.0
    batch.started = 100.0
    now[0] = 101.0
    assert batch.progress == 0.25                  # half of the first job's 2 s
    batch.done, batch.started = 1, None
    assert batch.progress == 0.5
    batch.started, now[0] = 101.0, 200.0           # a search past its seconds: that job full
    assert batch.progress == 1.0
    assert Batch(HEX, [], 1.0, "none").progress == 1.0


def test_a_hint_is_refused_when_it_is_not_your_turn_and_esc_stops_one_running():
    game = Game(flowers((20,), (1,)), ["red", "blue"])
    game.apply(Place(ring((0, 0))[0], False))        # blue to play
    state = table_state([seat(0, "red", "Ann", connected=True), seat(1, "blue", "Bob", bot="greedy")],
                        label="red", game=game)
    control = controller(state)
    control.analyse()
    assert control.ui.notice == "a hint is for your turn" and control.analyst.batch is None
    control = controller(hex_table(bot="greedy"))
    control.analyse()
    batch = control.analyst.batch
    control.cancel_analysis()
    assert batch.stop.is_set() and control.analyst.batch is None and control.ui.notice == "analysis stopped"


def test_the_viewers_help_says_quitting_just_quits():
    from client.ui.panels import help_pages

    lines = [line for page in help_pages(None, 80, 24, replay=True) for line in page]
    quit_line = next(what for keys, what in (line for line in lines if isinstance(line, tuple))
                     if keys.strip().startswith("q"))
    assert quit_line == "quit the viewer"  # a replay never asks to confirm
