"""The fitted evaluation: its features and value on a hand-worked position."""

from __future__ import annotations

from waddle import Game, Map, Water, parse_action
from waddle.hex.evaluation import FEATURES, WEIGHTS, evaluate, features, terms
from waddle.hex.game import tables_of
from waddle.hex.hexgrid import neighbours
from waddle.hex.playout import Playouts

# Two numbered water hexes with six ice hexes each, two pools: fish 3 and fish 2, 1.
W1, W2 = (0, 0), (3, 0)
TWO_ISLES = Map(
    [h for w in (W1, W2) for h in neighbours(w)],
    {W1: Water(1, (3,)), W2: Water(2, (2, 1))},
)


def hand_worked() -> tuple[Game, Playouts]:
    """Red holds 1,0 and 1,-1 (a waddle of 2 on pool W1), blue -1,0; blue to act."""
    game = Game(TWO_ISLES, ["red", "blue"])
    for text in ("place 1,0", "place -1,0", "place 1,-1"):
        game.apply(parse_action(text))
    return game, Playouts(tables_of(game.map), 2, False)


def test_the_features_of_a_hand_worked_position():
    game, playouts = hand_worked()
    live, rows = features(playouts, game.snapshot())
    assert live == [6, 1] == game.live_totals()      # red: waddle 3 + pool 3; blue: waddle 1
    # one, waddles, open pools, frontier, growing, doubles, order, lead, scouted
    assert rows[0] == [1.0, 3, 3, 3, 2, 2, 1.0, 1.5, 0.0]  # frontier 2,0 0,1 0,-1; lead 3 * (2 - 1) / 2
    assert rows[1] == [1.0, 1, 0, 2, 1, 2, 0.0, -1.5, 0.0]  # frontier -1,1 0,-1; blue acts first
    assert len(FEATURES) == len(rows[0]) and len(WEIGHTS) == 2 * len(FEATURES)


def test_the_evaluation_is_the_live_total_plus_the_weighted_terms():
    game, playouts = hand_worked()
    weights = [0.0] * 18
    weights[0], weights[3], weights[9 + 5] = 1.0, 0.5, 4.0    # 1 + frontier / 2 + 4 * doubles * share
    share = 9 / 12
    assert evaluate(playouts, game.snapshot(), tuple(weights)) == [
        6 + 1 + 1.5 + 4 * 2 * share, 1 + 1 + 1 + 4 * 2 * share]
    assert terms([1.0, 2.0], 0.5) == [1.0, 2.0, 0.5, 1.0]



def test_a_scout_is_last_in_the_order_but_marked_scouted():
    game, playouts = hand_worked()
    game.apply(parse_action("scout"))               # blue goes to track B; red places on
    _, rows = features(playouts, game.snapshot())
    assert [rows[0][6], rows[0][8]] == [0.0, 0.0] and [rows[1][6], rows[1][8]] == [1.0, 1.0]
