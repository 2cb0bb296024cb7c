"""The standard tile set and the seeded standard map (RULES.md "Setup", "Maps")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

from waddle import Game, standard_map
from waddle.hex.hexgrid import DIRECTIONS
from waddle.hex.tiles import standard_tiles, tiles_for

#: RULES.md "Reconstructed standard tile set": number -> (shape, mark, fish on its water hex).
RULES_TABLE = {
    1: (4, 2, (2,)), 2: (3, 2, ()), 3: (4, 2, (3, 1)), 4: (3, 2, (1,)), 5: (4, 2, (4,)),
    6: (3, 2, ()), 7: (4, 2, (5, 1)), 8: (3, 2, (2,)), 9: (4, 2, ()), 10: (3, 2, (3,)),
    11: (4, 2, (2, 1)), 12: (3, 2, ()), 13: (4, 2, (4, 2)), 14: (3, 3, (1,)), 15: (4, 3, (3,)),
    16: (3, 4, ()), 17: (4, 4, (2, 2)), 18: (3, 5, (5,)), 19: (4, 5, (1,)), 20: (3, 5, (3, 2, 1)),
}

PLAYERS = (2, 3, 4, 5)


def near(hex):
    q, r = hex
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def test_tile_data_matches_the_rules_table():
    tiles = standard_tiles()
    assert {t.number: (t.shape, t.mark, t.fish) for t in tiles} == RULES_TABLE


@pytest.mark.parametrize("players, count", [(2, 13), (3, 15), (4, 17), (5, 20)])
def test_tiles_per_player_count(players, count):
    chosen = tiles_for(players)
    assert len(chosen) == count
    assert {t.number for t in chosen} == {n for n, (_, mark, _) in RULES_TABLE.items() if mark <= players}


@pytest.mark.parametrize("players", [0, 1, 6])
def test_player_count_out_of_range_is_refused(players):
    with pytest.raises(ValueError, match="2 to 5 players"):
        standard_map(players, 1)


@pytest.mark.parametrize("turns", range(6))
@pytest.mark.parametrize("shape", [3, 4])
def test_tile_shapes(shape, turns):
    """A 3-tile: water plus two neighbours that are neighbours of each other; a 4-tile:
    water plus three consecutive neighbours (the middle one touches the other two)."""
    tile = next(t for t in standard_tiles() if t.shape == shape)
    water, *ice = tile.hexes((2, -1), turns)
    assert water == (2, -1) and len(ice) == shape - 1 == len(set(ice))
    assert all(h in near(water) for h in ice)
    assert ice[1] in near(ice[0])
    if shape == 4:
        assert ice[2] in near(ice[1]) and ice[2] not in near(ice[0])


def tile_cover(map):
    """Split the map into tiles (exact cover by backtracking): water hex -> its ice hexes
    and the turn used; ``None`` if the map is not made of the standard tile shapes."""
    shapes = {t.number: t.shape for t in standard_tiles()}
    waters = sorted(map.numbered, key=lambda h: map.water[h].number)
    used: dict = {}

    def solve(i):
        if i == len(waters):
            return len(used) == len(map.ice)
        water = waters[i]
        q, r = water
        size = shapes[map.water[water].number]
        for turns in range(6):
            ice = [(q + dq, r + dr) for dq, dr in (DIRECTIONS[(turns + k) % 6] for k in range(size - 1))]
            if all(h in map.ice and h not in used for h in ice):
                used.update({h: (water, turns) for h in ice})
                if solve(i + 1):
                    return True
                for h in ice:
                    del used[h]
        return False

    return used if solve(0) else None


def gaps(hexes):
    """Empty hexes inside the bounding box of ``hexes`` that no path of empty hexes joins
    to the box's border."""
    qs, rs = [q for q, _ in hexes], [r for _, r in hexes]
    box = {(q, r) for q in range(min(qs) - 1, max(qs) + 2) for r in range(min(rs) - 1, max(rs) + 2)}
    border = [(q, r) for q, r in box if q in (min(qs) - 1, max(qs) + 1) or r in (min(rs) - 1, max(rs) + 1)]
    reached, todo = set(border), list(border)
    while todo:
        for n in near(todo.pop()):
            if n in box and n not in hexes and n not in reached:
                reached.add(n)
                todo.append(n)
    return box - set(hexes) - reached


def connected(hexes):
    start = min(hexes)
    seen, todo = {start}, [start]
    while todo:
        for n in near(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == set(hexes)


def check_standard(map, players):
    tiles = tiles_for(players)
    # The tiles of the player count, each once, with the tile's fish on its water hex.
    assert len(map.water) == len(map.numbered) == len(tiles)
    assert {w.number: w.fish for w in map.water.values()} == {t.number: t.fish for t in tiles}
    assert len(map.ice) == sum(t.shape - 1 for t in tiles)
    # Laid out as whole tiles: every ice hex belongs to its tile's water hex.
    assert tile_cover(map) is not None
    hexes = map.hexes
    assert connected(hexes)
    assert not gaps(hexes)
    # Compact, roughly hexagonal: within 2 of the radius of the smallest hexagon holding
    # as many hexes, and a coastline at most 30% longer than that hexagon's.
    radius = 0
    while 3 * radius * radius + 3 * radius + 1 < len(hexes):
        radius += 1
    cq = round(sum(q for q, _ in hexes) / len(hexes))
    cr = round(sum(r for _, r in hexes) / len(hexes))
    assert max((abs(q - cq) + abs(r - cr) + abs(q - cq + r - cr)) // 2 for q, r in hexes) <= radius + 2
    coast = sum(n not in hexes for h in hexes for n in near(h))
    assert coast <= 1.3 * (12 * radius + 6)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5, 6, 7, 123456789, -5])
def test_standard_map_structure(players, seed):
    check_standard(standard_map(players, seed), players)


@settings(max_examples=examples(25))
@given(st.sampled_from(PLAYERS), st.integers(min_value=0, max_value=2**63))
def test_standard_map_structure_any_seed(players, seed):
    check_standard(standard_map(players, seed), players)


def test_unseeded_map_is_a_standard_map():
    check_standard(standard_map(3), 3)


def test_tiles_are_turned_every_way():
    turns = {t for seed in range(10) for _, t in tile_cover(standard_map(5, seed)).values()}
    assert turns == set(range(6))


def test_same_seed_same_map_different_seeds_differ():
    maps = [standard_map(4, seed).to_dict() for seed in range(10)]
    assert maps == [standard_map(4, seed).to_dict() for seed in range(10)]
    assert len({json.dumps(m) for m in maps}) == 10


def test_generation_does_not_depend_on_the_cache():
    from waddle.hex import tiles

    first = standard_map(5, 42).to_dict()
    tiles._seeded.cache_clear()
    assert standard_map(5, 42).to_dict() == first


@pytest.mark.parametrize("players, seed", [(2, 11), (5, 2026)])
def test_same_seed_same_map_in_other_processes(players, seed):
    """Nothing depends on hash order: fresh interpreters with other hash seeds agree."""
    code = f"import json, waddle; print(json.dumps(waddle.standard_map({players}, {seed}).to_dict()))"
    outputs = set()
    for hash_seed in ("0", "1", "98765"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True, timeout=60)
        outputs.add(done.stdout)
    assert outputs == {json.dumps(standard_map(players, seed).to_dict()) + "\n"}


@pytest.mark.parametrize("players", PLAYERS)
def test_standard_map_plays_to_the_end(players):
    """Every ice hex of a standard map gets a penguin."""
    map = standard_map(players, 9)
    game = Game(map, ["red", "blue", "yellow", "green", "purple"][:players])
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert set(game.tokens) == set(map.ice)
