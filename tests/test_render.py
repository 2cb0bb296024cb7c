"""Plain-text rendering of maps and games (waddle/render.py's documented format)."""

from __future__ import annotations

import random
import re

import pytest

from waddle import Game, Map, Place, Water, bundled_map, bundled_maps, standard_map
from waddle.hex.record import from_record, to_record
from waddle.hex.render import render_board, render_game, render_map, render_sheet, render_status

# Water 1 at (0, 0) with unnumbered water (-1, 1) beside it; ice NE, E and SE of it.
TINY = Map([(1, -1), (1, 0), (0, 1)], {(0, 0): Water(1, (2,)), (-1, 1): Water(None, (3,))},
           name="tiny")


def test_tiny_board_by_hand():
    assert render_board(TINY) == (
        "r  -1 q   1 |      .\n"
        "r   0 q   0 |   ~1   .\n"
        "r   1 q  -1 | ~    ."
    )


def test_tokens_doubles_and_active_hex_by_hand():
    tokens = {(1, 0): ("red", True), (0, 1): ("blue", False)}
    assert render_board(TINY, tokens, active=(0, 0)) == (
        "r  -1 q   1 |      .\n"
        "r   0 q   0 |   [1]  RR\n"
        "r   1 q  -1 | ~    B"
    )


def test_map_lists_its_pools():
    text = render_map(TINY)
    assert text.startswith("map: tiny\n")
    assert text.endswith("\n\npool 1: ~@-1,1, 1@0,0; fish 3 2")


def parse_board(text):
    """Invert the documented layout: hex -> its 4-character cell."""
    rows = []
    for line in text.split("\n"):
        margin, _, cells = line.partition(" | ")
        r, q0 = map(int, re.fullmatch(r"r *(-?\d+) q *(-?\d+)", margin).groups())
        rows.append((r, q0, cells))
    left = min(2 * q0 + r for r, q0, _ in rows)
    found = {}
    for r, q0, cells in rows:
        start = (2 * q0 + r - left) * 2
        assert not cells[:start].strip()
        body = cells[start:]
        for k in range(0, len(body), 4):
            cell = body[k:k + 4].ljust(4)
            if cell.strip():
                found[(q0 + k // 4, r)] = cell
    return found


@pytest.mark.parametrize("map", [standard_map(5, 3), standard_map(2, 8),
                                 *(bundled_map(name) for name in bundled_maps())],
                         ids=lambda m: m.name)
def test_every_hex_is_drawn_where_the_layout_says(map):
    cells = parse_board(render_board(map))
    assert set(cells) == map.hexes
    for hex, cell in cells.items():
        water = map.water.get(hex)
        if water is None:
            assert cell == " .  "
        else:
            assert cell == f"~{water.number if water.number is not None else ''}".ljust(4)


def played(map, players, moves, seed=1, mirror=False):
    game = Game(map, players, mirror_match=mirror)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_game_board_shows_each_token():
    game = played(standard_map(4, 5), ["red", "blue", "yellow", "green"], 25)
    cells = parse_board(render_game(game).split("\n\n")[0].rsplit("\n", 1)[0])
    letters = {"red": "R", "blue": "B", "yellow": "Y", "green": "G"}
    for hex, (colour, double) in game.tokens.items():
        assert cells[hex].strip() == letters[colour] * (2 if double else 1)
    assert cells[game.active_hex] == f"[{game.map.water[game.active_hex].number}]".ljust(4)


def test_status_by_hand():
    game = Game(TINY, ["red", "blue"])
    game.apply(Place((1, 0), double=True))
    assert render_status(game) == (
        "half 1 of 1, active hex 1 at 0,0, 1 actions\n"
        "track A* blue red\n"
        "track B  -\n"
        "to act: blue\n"
        "doubles left: red 1, blue 2\n"
        "live score: red 8 (3+5), blue 0 (0+0)"
    )


def test_status_after_a_scout_marks_the_active_track():
    game = Game(TINY, ["red", "blue", "green"])
    game.apply(game.legal_actions()[-1])  # red scouts
    status = render_status(game)
    assert "track A* blue green\ntrack B  red\nto act: blue\n" in status


def test_finished_game_status():
    game = played(TINY, ["red", "blue"], 100)
    status = render_status(game)
    assert "game over" in status and "to act: -" in status
    assert "\nscore: " in status and "\nwinners: " in status
    assert "*" not in status


def test_mirror_match_second_half():
    game = Game(TINY, ["red", "blue"], mirror_match=True)
    for hex in [(1, -1), (1, 0), (0, 1)]:
        game.apply(Place(hex))
    assert render_status(game).startswith("half 2 of 2, active hex 1 at 0,0, 3 actions\n")
    assert "r   0 q   0 |   [1]  .\n" in render_game(game)


def test_render_game_is_deterministic_and_ascii():
    game = played(standard_map(5, 12), ["red", "blue", "yellow", "green", "purple"], 40, mirror=True)
    text = render_game(game)
    assert text.isascii()
    assert text == render_game(game.copy()) == render_game(from_record(to_record(game)))
    assert "P=purple" in text


def test_sheet_lists_waddles_pools_and_points():
    game = Game(TINY, ["red", "blue"])
    for action in [Place((1, 0), True), Place((0, 1)), Place((1, -1))]:
        game.apply(action)
    sheet = render_sheet(game.result().halves[0])
    # red: waddle (1,-1)+(1,0) double = 3 penguins = 6 VP; blue (0,1) = 1 VP.
    # The one pool ((0,0) and (-1,1), fish 3 2): red strength 3, blue 1 (2 players:
    # the stronger scores all its fish).
    assert sheet == (
        "waddles (player, size in penguins, points, hexes):\n"
        "  blue    1   1 VP  0,1\n"
        "  red     3   6 VP  1,-1 1,0\n"
        "pools (hexes; fish; strength; fish won):\n"
        "  -1,1 0,0; fish 3 2; strength red 3, blue 1; won red 3+2\n"
        "points: red 11 (6+5), blue 1 (1+0)"
    )
