"""The search's own playouts and scoring: the engine's scores, the documented draws."""

from __future__ import annotations

import random

import pytest

from waddle import COLOURS, Game, Place, standard_map
from waddle.hex.game import tables_of
from waddle.hex.playout import DOUBLE_SCALE, REDRAW_SCALE, SCOUT_SCALE, Playouts
from waddle.hex.record import to_record
from waddle.hex.scoring import totals


def position(seed: int) -> Game:
    """A game on a standard map (2 to 5 players, some mirror matches) after random actions."""
    players, mirror = 2 + seed % 4, seed % 3 == 0
    game = Game(standard_map(players, seed), COLOURS[:players], mirror_match=mirror)
    rng = random.Random(seed)
    for _ in range(seed * 3):
        if not game.is_over:
            game.push(rng.choice(game.legal_actions()))
    return game


def playouts_of(game: Game) -> Playouts:
    return Playouts(tables_of(game.map), len(game.players), game.mirror_match)


def pushed_playout(game: Game, draws, first, scout_damping, double_damping, touching) -> list[int]:
    """The reference playout through ``push``: the draws ``Playouts.run`` documents
    (no scout in the last round)."""
    game, k = game.copy(), first
    while not game.is_over:
        actions, u = game.legal_actions(), draws[k]
        k += 1
        if game.last_round and not isinstance(actions[-1], Place):
            actions = actions[:-1]
        i = int(u * len(actions))
        if actions[i] == actions[-1] and not isinstance(actions[i], Place):
            if u * SCOUT_SCALE % 1 >= scout_damping:
                game.push(actions[i])
                continue
            i = int(u * REDRAW_SCALE % 1 * (len(actions) - 1))
        action = actions[i]
        if action.double and (u * DOUBLE_SCALE % 1 < double_damping
                              or touching and not game.touches_own(action.hex)):
            action = actions[i - 1]
        game.push(action)
    return game.live_totals()


@pytest.mark.parametrize("seed", range(36))
def test_a_playout_plays_the_documented_draws_and_leaves_the_game_alone(seed):
    game = position(seed)
    if game.is_over:
        return
    playouts = playouts_of(game)
    rng = random.Random(seed)
    first = seed % 3
    draws = [rng.random() for _ in range(first + playouts.decisions(game))]
    policy = [(0.0, 0.0, False), (0.7, 0.8, False), (0.7, 0.0, True), (0.2, 0.5, True)][seed % 4]
    before = to_record(game)
    assert playouts.run(game, draws, first, *policy) == pushed_playout(game, draws, first, *policy)
    assert to_record(game) == before


def test_the_decisions_bound_every_playout():
    for seed in range(40):
        game = position(seed)
        playouts, rng = playouts_of(game), random.Random(seed)
        bound = playouts.decisions(game)
        played = 0
        while not game.is_over:
            game.push(rng.choice(game.legal_actions()))
            played += 1
        assert played <= bound and playouts.decisions(game) == 0


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_one_decision_later_reads_the_same_numbers_for_the_same_decisions(seed):
    game = position(seed)
    playouts = playouts_of(game)
    draws = [0.0] + [random.Random(seed).random() for _ in range(playouts.decisions(game))]
    whole = playouts.run(game, draws, 0, 0.7, 0.0, True)      # draws[0] = 0: the first place
    game.push(game.legal_actions()[0])
    assert playouts.run(game, draws, 1, 0.7, 0.0, True) == whole


@pytest.mark.parametrize("seed", range(24))
def test_the_scores_are_the_engines(seed):
    game = position(seed)
    playouts = playouts_of(game)
    assert playouts.live_totals(game) == game.live_totals()
    state = game.snapshot()
    assert playouts.totals(state.pieces, state.doubles) == \
        totals(tables_of(game.map), state.pieces, state.doubles)


def test_playouts_fit_their_map_players_and_option_only():
    game = position(2)
    assert len(game.players) == 4 and not game.mirror_match
    playouts = playouts_of(game)
    assert playouts.fits(game) and playouts.fits(game.copy())
    assert not playouts.fits(Game(standard_map(4, 5), COLOURS[:4]))
    assert not playouts.fits(Game(game.map, COLOURS[:4], mirror_match=True))
