"""Plain-text pictures of a map or a game, for the command line and golden tests.

The board is drawn as a brick wall of 4-character cells, one text row per axial row
``r`` (top to bottom), odd rows shifted right by half a cell, so each cell touches its
six neighbours. Each row starts with ``r`` and the ``q`` of its first cell; ``q`` grows
by one per cell to the right. Cells::

    " .  "  empty ice            " R  "  a single penguin (R B Y G P by colour)
    " RR "  a double              "~7  "  water hex number 7 ("~" alone: unnumbered water)
    "[7] "  the active hex

Water numbers up to 99 keep the columns aligned. Everything is ASCII and a pure
function of its input, so the output is stable.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from waddle.hex.game import Game
from waddle.hex.hexgrid import Hex, format_hex
from waddle.hex.maps import Map
from waddle.hex.scoring import ScoreSheet

#: The letter of each colour on the board.
LETTERS = {"red": "R", "blue": "B", "yellow": "Y", "green": "G", "purple": "P"}

_WIDTH = 4


def render_board(map: Map, tokens: Mapping[Hex, tuple[str, bool]] | None = None,
                 active: Hex | None = None) -> str:
    """The board as text (see the module docstring), without a trailing newline.

    Args:
        map: the map.
        tokens: hex -> ``(colour, is_double)``, as :attr:`Game.tokens`.
        active: the active hex, drawn in brackets.
    """
    tokens = tokens or {}
    rows: dict[int, dict[int, str]] = {}
    for hex in map.hexes:
        q, r = hex
        rows.setdefault(r, {})[2 * q + r] = _cell(map, hex, tokens, active)
    left = min(x for row in rows.values() for x in row)
    lines = []
    for r in sorted(rows):
        row = rows[r]
        first = min(row)
        text = " " * (first - left) * (_WIDTH // 2)
        text += "".join(row.get(x, " " * _WIDTH) for x in range(first, max(row) + 1, 2))
        lines.append(f"r{r:>4} q{(first - r) // 2:>4} | {text}".rstrip())
    return "\n".join(lines)


def _cell(map: Map, hex: Hex, tokens: Mapping[Hex, tuple[str, bool]], active: Hex | None) -> str:
    water = map.water.get(hex)
    if water is None:
        token = tokens.get(hex)
        if token is None:
            return " .  "
        letter = LETTERS.get(token[0], "?")
        return f" {letter * (2 if token[1] else 1):<3}"
    label = "" if water.number is None else str(water.number)
    if hex == active:
        return f"[{label}]".ljust(_WIDTH)
    return f"~{label}".ljust(_WIDTH)


def render_pools(map: Map) -> str:
    """One line per fishing pool: its water hexes (``number@q,r``, ``~@q,r`` if unnumbered)
    and its fish, highest first."""
    lines = []
    for i, pool in enumerate(map.pools, 1):
        water = ", ".join(
            f"{map.water[h].number}@{format_hex(h)}" if map.water[h].number is not None
            else f"~@{format_hex(h)}"
            for h in sorted(pool.hexes)
        )
        fish = " ".join(str(f) for f in pool.fish) if pool.fish else "none"
        lines.append(f"pool {i}: {water}; fish {fish}")
    return "\n".join(lines)


def render_map(map: Map) -> str:
    """The empty board, then its fishing pools (:func:`render_pools`), under the map's
    name with its control and format characters removed (:func:`printable`)."""
    name = printable(map.name)
    title = f"map: {name}\n" if name else ""
    return f"{title}{render_board(map)}\n\n{render_pools(map)}"


def printable(text: str) -> str:
    """``text`` without control characters (escape sequences lose their ESC) or format
    characters (bidi overrides, zero-width): safe to print from a map file. The clients
    use the fuller :func:`protocol.text.clean`; the engine does not import ``protocol``."""
    return "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")).strip()


def render_status(game: Game) -> str:
    """The state of play: half, active hex, turn tracks (``*`` the active one), player to
    act, doubles left and the live score, one item a line."""
    halves = 2 if game.mirror_match else 1
    active = game.active_hex
    if active is None:
        where = "game over"
    else:
        where = f"active hex {game.map.water[active].number} at {format_hex(active)}"
    lines = [f"half {game.half} of {halves}, {where}, {len(game)} actions"]
    for i, track in enumerate(game.tracks):
        mark = "*" if i == game.active_track and active is not None else " "
        lines.append(f"track {'AB'[i]}{mark} {' '.join(track) or '-'}")
    lines.append(f"to act: {game.current_player or '-'}")
    lines.append("doubles left: " + ", ".join(f"{p} {game.doubles_left(p)}" for p in game.players))
    result = game.result()
    score = ", ".join(f"{p} {s.total} ({s.waddles}+{s.pools})" for p, s in result.scores.items())
    lines.append(f"{'score' if result.finished else 'live score'}: {score}")
    if result.finished:
        lines.append(f"winners: {' '.join(result.winners)}")
    return "\n".join(lines)


def render_sheet(sheet: ScoreSheet) -> str:
    """The score breakdown of one board (one half): each waddle with its size and hexes,
    each fishing pool with its hexes, fish, every player's strength and the fish they won,
    then each player's points."""
    lines = ["waddles (player, size in penguins, points, hexes):"]
    for w in sorted(sheet.waddles, key=lambda w: (w.player, -w.size, w.hexes)):
        lines.append(f"  {w.player:<6} {w.size:>2} {w.points:>3} VP  {_hexes(w.hexes)}")
    lines.append("pools (hexes; fish; strength; fish won):")
    for pool in sheet.pools:
        strengths = ", ".join(f"{p} {s}" for p, s in pool.strengths.items() if s) or "nobody"
        won = ", ".join(f"{p} {'+'.join(map(str, f))}" for p, f in pool.won.items() if f) or "none"
        fish = " ".join(map(str, pool.fish)) or "none"
        lines.append(f"  {_hexes(pool.hexes)}; fish {fish}; strength {strengths}; won {won}")
    lines.append("points: " + ", ".join(
        f"{p} {s.total} ({s.waddles}+{s.pools})" for p, s in sheet.scores.items()))
    return "\n".join(lines)


def _hexes(hexes: tuple[Hex, ...]) -> str:
    return " ".join(format_hex(h) for h in sorted(hexes))


def render_game(game: Game) -> str:
    """The board with its tokens and active hex, a blank line, then :func:`render_status`.

    A pure function of the game's state: the same position gives the same text.
    """
    players = " ".join(f"{LETTERS[p]}={p}" for p in game.players)
    board = render_board(game.map, game.tokens, game.active_hex)
    return f"{board}\n{players}\n\n{render_status(game)}"
