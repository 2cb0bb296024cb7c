"""The search bot: position keys, the exact endgame, the search and its analysis."""

from __future__ import annotations

import random
import time

import pytest

from waddle import COLOURS, Game, Map, Place, Water, parse_action
from waddle.hex.actions import SCOUT
from waddle.hex.endgame import placements_left, solve
from waddle.hex.hexgrid import neighbours
from waddle.hex.pruning import searched_actions
from waddle.hex.record import to_record
from waddle.hex.rewards import rewards
from waddle.hex.search import SearchBot, analyse

# Two numbered water hexes with six ice hexes each; (1, 0) and (2, 0) touch.
W1, W2 = (0, 0), (3, 0)
TWO_ISLES = Map(
    [h for w in (W1, W2) for h in neighbours(w)],
    {W1: Water(1, (3,)), W2: Water(2, (2, 1))},
)


def played(moves: list[str], players=("red", "blue"), mirror_match=False) -> Game:
    game = Game(TWO_ISLES, list(players), mirror_match=mirror_match)
    for text in moves:
        game.apply(parse_action(text))
    return game


def random_position(seed: int, left: int, players: int = 2, mirror_match: bool = False) -> Game:
    """A random game on TWO_ISLES played until ``left`` placements are left."""
    rng = random.Random(seed)
    game = Game(TWO_ISLES, COLOURS[:players], mirror_match=mirror_match)
    while placements_left(game) > left:
        game.push(rng.choice(game.legal_actions()))
    return game


def test_touches_own_looks_at_the_current_players_tokens():
    game = played(["place -1,0", "place 1,-1"])
    assert game.current_player == "red"
    assert game.touches_own((-1, 1)) and game.touches_own((0, -1))
    assert not game.touches_own((0, 1)) and not game.touches_own((2, 0))
    assert game.touches_own((1, 0)) is False        # next to blue's 1,-1 only


def test_the_key_is_the_position_not_the_order_of_moves():
    a = played(["place -1,0", "place 0,-1", "place 1,0"])
    b = played(["place 1,0", "place 0,-1", "place -1,0"])
    assert a.key() == b.key() and a.moves != b.moves
    assert played(["place -1,0"]).key() != played(["double -1,0"]).key()
    assert played(["scout"]).key() != played([]).key()


def brute_force(game: Game, last_round_scouts: bool = True) -> tuple[int, ...]:
    """Max^n by plain recursion: every order of every action (without scouts in the
    last round, unless ``last_round_scouts``), nothing remembered."""
    if game.is_over:
        return tuple(game.live_totals())
    seat, best = game.current_seat, None
    for action in game.legal_actions():
        if action == SCOUT and game.last_round and not last_round_scouts:
            continue
        game.push(action)
        totals = brute_force(game, last_round_scouts)
        game.pop()
        if best is None or rewards(totals)[seat] > rewards(best)[seat]:
            best = totals
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_endgame_solver_agrees_with_brute_force(seed):
    game = random_position(seed, 3 + seed % 2, players=2 + seed % 3, mirror_match=seed % 4 == 0)
    expected = []
    for action in game.legal_actions():
        game.push(action)
        expected.append((action, brute_force(game)))
        game.pop()
    before = to_record(game)
    assert solve(game) == expected
    assert to_record(game) == before


@pytest.mark.parametrize("seed", range(8))
def test_the_endgame_solver_weighs_the_actions_it_is_given_below_its_root(seed):
    game = random_position(seed, 4, players=2 + seed % 3, mirror_match=seed % 4 == 0)
    expected = []
    for action in game.legal_actions():            # every legal action at the root
        game.push(action)
        expected.append((action, brute_force(game, last_round_scouts=False)))
        game.pop()
    assert solve(game, actions=lambda g: searched_actions(g, touching=False)) == expected


def test_the_last_round_is_the_games_last():
    game = played([])
    assert not game.last_round and game.active_hex == W1
    for text in ["place -1,0", "place 0,-1", "place 1,-1", "place 1,0", "place 0,1"]:
        game.apply(parse_action(text))
    assert not game.last_round and game.active_hex == W1
    game.apply(parse_action("place -1,1"))
    assert game.last_round and game.active_hex == W2
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert not game.last_round


def test_in_a_mirror_match_only_the_second_halfs_last_round_is_the_last():
    game = played([], mirror_match=True)
    seen = []
    while not game.is_over:
        seen.append((game.half, game.active_hex, game.last_round))
        game.apply(game.legal_actions()[0])
    assert {s for s in seen if s[2]} == {(2, W1, True)}      # the second half runs W2, then W1
    assert {(h, w) for h, w, _ in seen} == {(1, W1), (1, W2), (2, W2), (2, W1)}


def test_the_searched_actions_leave_out_a_scout_in_the_last_round_and_far_doubles():
    game = played(["place -1,0", "place 0,-1", "place 1,-1", "place 1,0", "place 0,1", "place -1,1",
                   "place 4,0"])
    assert game.last_round and game.current_player == "blue" and SCOUT in game.legal_actions()
    searched = searched_actions(game)
    assert SCOUT not in searched and set(searched) <= set(game.legal_actions())
    doubles = [a for a in game.legal_actions() if isinstance(a, Place) and a.double]
    assert [a for a in searched if a in doubles] == [a for a in doubles if game.touches_own(a.hex)] != []
    assert set(searched_actions(game, touching=False)) == set(game.legal_actions()) - {SCOUT}
    report = analyse(game, seconds=None, iterations=100, solver=0)
    assert SCOUT not in {line.action for line in report.lines}
    every = analyse(game, seconds=None, iterations=100, solver=0, every_action=True)
    assert {line.action for line in every.lines} == set(game.legal_actions())
    early = played(["place -1,0"])
    assert not early.last_round and SCOUT in searched_actions(early)


def test_solving_or_analysing_a_finished_game_is_refused():
    game = random_position(1, 0)
    with pytest.raises(ValueError, match="over"):
        solve(game)
    with pytest.raises(ValueError, match="over"):
        analyse(game, iterations=10)


def forced_win() -> Game:
    """Red to act with four placements left: only place 2,0 wins (15-14); red has no doubles."""
    return played(["double -1,0", "double 0,-1", "place 0,1", "double 1,0", "place 1,-1",
                   "place -1,1", "double 4,0", "place 2,1"])


@pytest.mark.parametrize(("solver", "common"), [(0, True), (0, False), (5, True)])
def test_search_finds_the_only_winning_move(solver, common):
    game = forced_win()
    assert game.current_player == "red" and placements_left(game) == 4
    bot = SearchBot(0, seconds=None, iterations=400, solver=solver, common=common)
    assert bot.choose(game) == Place((2, 0))


def test_common_random_numbers_make_a_seeded_search_repeat_itself():
    game = random_position(4, 8, players=4)
    runs = [analyse(game, seconds=None, iterations=300, seed=3, solver=0, common=common)
            for common in (True, True, False)]
    assert runs[0] == runs[1]
    assert sum(line.visits for line in runs[2].lines) == 300


def test_the_exact_analysis_is_the_solved_endgame():
    game = forced_win()
    report = analyse(game, seconds=None, iterations=1)
    assert report.exact and report.iterations == 0 and report.player == "red"
    assert report.best == Place((2, 0)) and report.scores == {"red": 15, "blue": 14}
    assert {(line.action, tuple(line.scores.values())) for line in report.lines} == set(solve(game))
    assert report.loss(report.best) == 0


def completions(game: Game) -> list[list[int]]:
    """The final totals of every way the game can end from here."""
    if game.is_over:
        return [game.live_totals()]
    found = []
    for action in game.legal_actions():
        game.push(action)
        found += completions(game)
        game.pop()
    return found


@pytest.mark.parametrize("seed", range(4))
def test_expected_scores_lie_within_the_scores_each_action_can_end_with(seed):
    game = random_position(seed, 2, players=3)
    before = to_record(game)
    report = analyse(game, seconds=None, iterations=300, seed=seed, solver=0, touching=False)
    assert to_record(game) == before and not report.exact and report.iterations == 300
    assert sum(line.visits for line in report.lines) == 300
    no_scout = {SCOUT} if game.last_round else set()       # a scout would only pass
    assert {line.action for line in report.lines} == set(game.legal_actions()) - no_scout
    assert report.best == report.lines[0].action and report.scores == report.lines[0].scores
    for line in report.lines:
        game.push(line.action)
        ends = completions(game)
        game.pop()
        for seat, colour in enumerate(game.players):
            assert min(e[seat] for e in ends) <= line.scores[colour] <= max(e[seat] for e in ends)
        assert 0 <= line.reward <= 1


def test_with_the_last_placement_to_make_the_expected_scores_are_the_final_scores():
    game = random_position(3, 1, players=3)
    report = analyse(game, seconds=None, iterations=50, solver=0)
    for line in report.lines:
        if not isinstance(line.action, Place):
            continue                # after a scout, the next player makes the placement
        game.push(line.action)
        assert line.scores == dict(zip(game.players, game.live_totals()))
        game.pop()


def test_analysis_lines_and_losses():
    game = played(["place 1,-1", "place -1,0", "place 0,-1", "place -1,1"])
    report = analyse(game, seconds=None, iterations=400, seed=2)
    assert report == analyse(game, seconds=None, iterations=400, seed=2)
    assert report.line(report.best).visits == max(line.visits for line in report.lines)
    assert all(report.loss(line.action) == report.scores["red"] - line.scores["red"]
               for line in report.lines)
    with pytest.raises(KeyError, match="not searched"):
        report.line(Place((4, 0)))


@pytest.mark.parametrize("touching", [True, False])
def test_the_touching_rule_searches_doubles_next_to_own_tokens_only(touching):
    game = played(["place -1,0", "place 1,-1"])
    report = analyse(game, seconds=None, iterations=200, seed=1, solver=0, touching=touching)
    doubles = {line.action.hex for line in report.lines
               if isinstance(line.action, Place) and line.action.double}
    everywhere = {a.hex for a in game.legal_actions() if isinstance(a, Place) and a.double}
    assert doubles == ({h for h in everywhere if game.touches_own(h)} if touching else everywhere)
    assert len(report.lines) == len(game.legal_actions()) - len(everywhere - doubles)


def test_a_solve_past_its_deadline_stops():
    game = random_position(2, 6, players=3)
    with pytest.raises(TimeoutError, match="deadline"):
        solve(game, deadline=time.perf_counter() - 1)


def test_an_endgame_too_slow_for_the_budget_gives_way_to_the_search(monkeypatch):
    ticks = iter(range(0, 10**6, 10))  # every clock reading is 10 s past the last
    monkeypatch.setattr("time.perf_counter", lambda: next(ticks))
    game = random_position(2, 6, players=3)
    report = SearchBot(1, seconds=25, solver=6).analyse(game)
    assert not report.exact and report.iterations == 1 and report.best in game.legal_actions()


def test_bad_search_options_are_refused():
    with pytest.raises(ValueError, match="solver threshold must be 0 or more, not -1"):
        SearchBot(1, solver=-1)
    with pytest.raises(ValueError, match="positive"):
        analyse(played([]), iterations=0)
