"""The search's own playouts and scoring: the engine's results, and the join policy."""

from __future__ import annotations

import random

import pytest

from waddle import COLOURS, Game, Place, standard_map
from waddle.hex.game import tables_of
from waddle.hex.playout import Playouts
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


def joined_playout(game: Game, random, scout_damping, touching, join) -> list[int]:
    """The reference playout through ``push``: the draws ``Playouts.run`` documents."""
    game = game.copy()
    while not game.is_over:
        actions = game.legal_actions()
        i = int(random() * len(actions))
        if actions[i] == actions[-1] and not isinstance(actions[i], Place):
            if random() >= scout_damping:
                game.push(actions[i])
                continue
            i = int(random() * (len(actions) - 1))
        hex, double = actions[i].hex, actions[i].double
        if join and not game.touches_own(hex) and random() < join:
            near = [a.hex for a in actions if isinstance(a, Place) and not a.double and game.touches_own(a.hex)]
            if near:
                hex = near[int(random() * len(near))]
        if double:
            double = random() >= 0.0 and (not touching or game.touches_own(hex))
        game.push(Place(hex, double))
    return game.live_totals()


@pytest.mark.parametrize("seed", range(24))
def test_without_join_a_playout_is_the_engines(seed):
    game = position(seed)
    if game.is_over:
        return
    before = to_record(game)
    for policy in [(0.0, 0.0, False), (0.7, 0.8, False), (0.7, 0.0, True)]:
        assert playouts_of(game).run(game, random.Random(seed).random, *policy) == \
            game.playout(random.Random(seed).random, *policy)
    assert to_record(game) == before


@pytest.mark.parametrize("seed", range(24))
def test_a_joining_playout_plays_the_documented_draws(seed):
    game = position(seed)
    if game.is_over:
        return
    join = (0.5, 1.0)[seed % 2]
    assert playouts_of(game).run(game, random.Random(seed).random, 0.7, 0.0, True, join) == \
        joined_playout(game, random.Random(seed).random, 0.7, True, join)


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
