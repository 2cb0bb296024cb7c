"""Built-in bots: legal, side-effect free, seeded, and greedy sees the obvious move."""

from __future__ import annotations

import pytest

from waddle import SCOUT, Game, Map, Place, Water, parse_action
from waddle.hex.bots import BOTS, SEARCHES, GreedyBot, SearchBot, make_bot
from waddle.hex.hexgrid import neighbours
from waddle.hex.record import to_record
from waddle.ruleset import rulesets

# Two numbered water hexes with six ice hexes each; (1, 0) and (2, 0) touch.
W1, W2 = (0, 0), (3, 0)
TWO_ISLES = Map(
    [h for w in (W1, W2) for h in neighbours(w)],
    {W1: Water(1, (3,)), W2: Water(2, (2, 1))},
)


def fresh(players=("red", "blue", "yellow", "green")) -> Game:
    return Game(TWO_ISLES, list(players))


def fast_options(kind: str, iterations: int = 30) -> dict:
    """Options that make a bot of ``kind`` quick and deterministic."""
    return {"seconds": None, "iterations": iterations} if kind in SEARCHES else {}


def fast_bots(seed: int) -> list:
    return [make_bot(kind, seed, **fast_options(kind, 40)) for kind in BOTS]


def test_search_works_on_a_copy_in_a_mirror_match_second_half():
    game = Game(TWO_ISLES, ["red", "blue"], mirror_match=True)
    greedy = GreedyBot(0)
    while game.half == 1:
        game.apply(greedy.choose(game))
    game.apply(greedy.choose(game))
    before, totals = to_record(game), game.live_totals()
    action = SearchBot(1, seconds=None, iterations=200).choose(game)
    assert action in game.legal_actions()
    assert to_record(game) == before and game.live_totals() == totals and game.half == 2


def play_out(bots, players) -> list[str]:
    game = fresh(players)
    seats = dict(zip(players, bots))
    while not game.is_over:
        game.apply(seats[game.current_player].choose(game))
    return [str(a) for _, a in game.moves]


@pytest.mark.parametrize("kind", sorted(BOTS))
def test_a_seeded_bot_repeats_its_game(kind):
    players = ("red", "blue", "yellow")
    runs = [play_out([{b.name: b for b in fast_bots(seed)}[kind] for seed in (5, 6, 7)], players)
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_different_seeds_make_different_random_games():
    players = ("red", "blue")
    assert play_out([make_bot("random", 1)] * 2, players) != play_out([make_bot("random", 2)] * 2, players)


def obvious_position() -> Game:
    """Red to act on W1 with two red penguins next to the empty (1, 0); (0, 1) touches no red."""
    game = fresh(("red", "blue"))
    for text in ("place 1,-1", "place -1,0", "place 0,-1", "place -1,1"):
        game.apply(parse_action(text))
    assert game.current_player == "red"
    assert set(game.legal_actions()) == {
        Place((1, 0)), Place((1, 0), True), Place((0, 1)), Place((0, 1), True), SCOUT}
    return game


def test_greedy_grows_its_waddle_with_a_double():
    # red's waddle of 2 (3 VP): a double on (1, 0) makes it 4 (10 VP, +7); a single there
    # +3; anything on (0, 1) at most +2 (a lone double); scouting +0.
    game = obvious_position()
    assert GreedyBot(0).choose(game) == Place((1, 0), True)


def test_search_finds_the_obvious_move():
    assert SearchBot(0, seconds=None, iterations=600).choose(obvious_position()) == Place((1, 0), True)


def test_make_bot_errors_name_the_problem():
    with pytest.raises(ValueError, match="unknown bot 'clever'.*random"):
        make_bot("clever")
    with pytest.raises(ValueError, match="bad options for the greedy bot"):
        make_bot("greedy", 1, seconds=3)
    with pytest.raises(ValueError, match="budget"):
        make_bot("search", 1, seconds=None, iterations=None)
    with pytest.raises(ValueError, match="positive"):
        make_bot("search", 1, iterations=0)
    with pytest.raises(ValueError, match="time budget.*0 or more, not -0.5"):
        make_bot("search", 1, seconds=-0.5)


@pytest.mark.parametrize("kind", SEARCHES)
@pytest.mark.parametrize("seconds", [0, 1e-9])
def test_search_with_a_budget_too_short_for_one_pass_still_moves(monkeypatch, kind, seconds):
    ticks = iter(range(0, 10**6, 10))  # every clock reading is 10 s past the last
    monkeypatch.setattr("waddle.hex.budget.time.perf_counter", lambda: next(ticks))
    game = fresh()
    bot = make_bot(kind, 2, seconds=seconds)
    assert game.is_legal(bot.choose(game)) and bot.last_iterations == 1


@pytest.mark.parametrize("game", sorted(rulesets()))
def test_the_timed_bots_of_each_game_take_a_time_budget_and_no_other_bot_does(game):
    from waddle.ruleset import get_ruleset

    ruleset = get_ruleset(game)
    assert ruleset.timed_bots and set(ruleset.timed_bots) <= set(ruleset.bots)
    for kind in ruleset.bots:
        if kind in ruleset.timed_bots:
            assert ruleset.make_bot(kind, 1, seconds=0.01) is not None
        else:
            with pytest.raises(ValueError, match="bad options"):
                ruleset.make_bot(kind, 1, seconds=0.01)


def test_the_hex_games_timed_bots_are_both_searches():
    from waddle.hex.ruleset import RULESET

    assert RULESET.timed_bots == SEARCHES == ("search", "uct")
    assert RULESET.bots == ("random", "greedy", "search", "uct")
