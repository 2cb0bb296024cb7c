"""The board renderer as plain text: positions, labels, letters, markers, sizes."""

import random

import pytest
from test_ui_maps import flower_map

from client.games.hex.board import SIZES, CellSize, board_extent, fit, render_board
from waddle import Game, Place
from waddle.hex.tiles import standard_map

LETTER = {"red": "R", "blue": "B", "yellow": "Y", "green": "G", "purple": "P"}
PLAYERS = ("red", "blue", "yellow", "green", "purple")


def played(players: int, seed: int, moves: int) -> Game:
    """A game on the standard map for ``players`` with ``moves`` random actions played."""
    game = Game(standard_map(players, seed), PLAYERS[:players])
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    return game


def origin(map, hex, size: CellSize):
    """Top-left (x, y) of a hex's cell, from the documented brick layout."""
    left = min(2 * q + r for q, r in map.hexes)
    top = min(r for _, r in map.hexes)
    q, r = hex
    return (2 * q + r - left) * size.width // 2, (r - top) * size.height


def label_at(lines, map, hex, size: CellSize, line: int = None):
    """The inner text (between the markers) of a hex's cell on its label line."""
    x, y = origin(map, hex, size)
    labels = 2 if map.water.get(hex) and map.water[hex].fish and size.height > 1 else 1
    y += (size.height - labels) // 2 if line is None else line
    text = lines[y].ljust(x + size.width)
    return text[x:x + size.width]


def expected_label(game: Game, hex, legal) -> str:
    water = game.map.water.get(hex)
    if water is not None:
        return "~" if water.number is None else str(water.number)
    token = game.tokens.get(hex)
    if token:
        return LETTER[token[0]] * (2 if token[1] else 1)
    return "+" if hex in legal else "."


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 7), (5, 2), (5, 11)])
@pytest.mark.parametrize("size", SIZES)
def test_every_hex_label_is_at_its_position(players, seed, size):
    game = played(players, seed, moves=3 * players)
    legal = {a.hex for a in game.legal_actions() if isinstance(a, Place)}
    width, height = board_extent(game.map, size)
    board = render_board(game.map, game.tokens, width=width, height=height,
                         active=game.active_hex, legal=legal, ascii=True)
    assert board.size == size
    lines = board.text().split("\n")
    assert len(lines) == height
    for hex in game.map.hexes:
        cell = label_at(lines, game.map, hex, size)
        assert cell[1:-1].strip() == expected_label(game, hex, legal), hex


@pytest.mark.parametrize("players", [2, 5])
def test_every_player_letter_and_double_is_shown(players):
    game = Game(standard_map(players, 3), PLAYERS[:players])
    ice = sorted(game.map.ice)
    tokens = {ice[2 * i]: (colour, False) for i, colour in enumerate(game.players)}
    tokens |= {ice[2 * i + 1]: (colour, True) for i, colour in enumerate(game.players)}
    for size in (SIZES[0], SIZES[-1]):
        board = render_board(game.map, tokens, width=board_extent(game.map, size)[0], height=200)
        lines = board.text().split("\n")
        for hex, (colour, double) in tokens.items():
            cell = label_at(lines, game.map, hex, board.size)[1:-1].strip()
            assert cell == LETTER[colour] * (2 if double else 1)


def test_markers_show_active_hex_cursor_and_highlight_without_colour():
    game = played(5, 4, moves=6)
    legal = sorted(a.hex for a in game.legal_actions() if isinstance(a, Place))
    cursor, marked = legal[0], sorted(game.tokens)[:2]
    board = render_board(game.map, game.tokens, width=80, height=22, active=game.active_hex,
                         legal=legal, cursor=cursor, highlight=marked, ascii=True)
    lines = board.text().split("\n")
    w = board.size.width

    def cell(hex):
        labels = 2 if game.map.water.get(hex) and game.map.water[hex].fish and board.size.height > 1 else 1
        return label_at(lines, game.map, hex, board.size, line=(board.size.height - labels) // 2)

    assert cell(game.active_hex)[0] == ">" and cell(game.active_hex)[w - 1] == "<"
    assert cell(cursor)[0] == "[" and cell(cursor)[w - 1] == "]"
    for hex in marked:
        assert cell(hex)[0] == "{" and cell(hex)[w - 1] == "}"
    assert board.text().count(">") == 1 and board.text().count("[") == 1


def test_fish_appear_under_the_number_when_cells_have_two_lines():
    flowers = flower_map(4)
    board = render_board(flowers, {}, width=200, height=200)
    lines = board.text().split("\n")
    for hex, water in flowers.water.items():
        if water.fish:
            x, y = origin(flowers, hex, board.size)
            below = lines[y + (board.size.height - 2) // 2 + 1][x:x + board.size.width]
            assert below.strip() == ",".join(map(str, water.fish))


def test_bigger_windows_get_bigger_cells_and_too_small_gets_none():
    map = standard_map(5, 1)
    sizes = [render_board(map, {}, width=w, height=h).size for w, h in [(200, 60), (60, 22), (40, 11)]]
    assert sizes[0].width > sizes[1].width >= sizes[2].width
    assert sizes[0].height > sizes[2].height
    smallest = board_extent(map, SIZES[-1])
    assert render_board(map, {}, width=smallest[0] - 1, height=100) is None
    assert render_board(map, {}, width=100, height=smallest[1] - 1) is None
    assert fit(map, *smallest) == SIZES[-1]


def test_lines_have_the_board_width_and_hex_at_finds_each_hex():
    map = standard_map(3, 5)
    board = render_board(map, {}, width=120, height=40)
    for line in board.lines:
        assert sum(len(f[1]) for f in line) == board.width
    for hex in map.hexes:
        x, y = origin(map, hex, board.size)
        assert board.hex_at(x + 1, y) == hex
        assert board.hex_at(x + board.size.width - 1, y + board.size.height - 1) == hex


def test_ascii_mode_is_seven_bit_and_unicode_mode_uses_a_dot():
    map = standard_map(4, 2)
    assert render_board(map, {}, width=80, height=24, ascii=True).text().isascii()
    assert "·" in render_board(map, {}, width=80, height=24).text()


def test_styles_name_terrain_player_and_markers():
    game = played(3, 6, moves=4)
    board = render_board(game.map, game.tokens, width=120, height=40, active=game.active_hex)
    styles = " ".join(f[0] for line in board.lines for f in line)
    for name in ("class:ice", "class:water", "class:active", "class:player.red"):
        assert name in styles


def test_the_last_placement_is_styled_but_adds_no_characters():
    game = played(3, 2, moves=5)
    hex = [a.hex for _, a in game.moves if isinstance(a, Place)][-1]
    plain = render_board(game.map, game.tokens, width=120, height=40)
    marked = render_board(game.map, game.tokens, width=120, height=40, last={hex})
    assert marked.text() == plain.text()
    styled = "".join(f[1] for line in marked.lines for f in line if "class:last" in f[0])
    assert LETTER[game.tokens[hex][0]] in styled
    assert not any("class:last" in f[0] for line in plain.lines for f in line)
