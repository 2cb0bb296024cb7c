"""What the hex game's score is made of, as the screen explains it: the fishing pools
(their fish, every player's strength there, who takes which fish) and the waddles
(their size and points), from a :class:`waddle.hex.scoring.ScoreSheet` (RULES.md "Scoring").

Pools are named as the board shows them: by the numbers of their water hexes
("pool 4", "pool 4+9"), or "an unnumbered pool". Every function is pure.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from client.state import TableState
from client.ui.text import Fragments, letter
from waddle.hex.hexgrid import Hex, neighbours
from waddle.hex.maps import Map
from waddle.hex.scoring import PoolResult, ScoreSheet


@dataclass(frozen=True, slots=True)
class Item:
    """One thing the score view can select: a player's waddles (``player``) or a pool
    (``pool``, its index in the sheet)."""

    player: str | None = None
    pool: int | None = None


def items(sheet: ScoreSheet, players: tuple[str, ...]) -> list[Item]:
    """What Tab steps through in the score view: each player's waddles, then every pool with fish."""
    return [Item(player=p) for p in players] + [Item(pool=i) for i, p in enumerate(sheet.pools) if p.fish]


def pool_name(hexmap: Map, pool: PoolResult) -> str:
    """``"pool 4"`` (its numbered water hexes, lowest first, joined by ``+``), else ``"an unnumbered pool"``."""
    numbers = sorted(n for h in pool.hexes if (n := hexmap.water[h].number) is not None)
    return "pool " + "+".join(map(str, numbers)) if numbers else "an unnumbered pool"


def pool_of(sheet: ScoreSheet, water: Hex) -> int | None:
    """The index of the pool holding the water hex ``water``, or ``None``."""
    return next((i for i, p in enumerate(sheet.pools) if water in p.hexes), None)


def pools_touching(sheet: ScoreSheet, hex: Hex) -> list[int]:
    """The pools an ice ``hex`` is next to (a penguin there counts for each), by index."""
    around = set(neighbours(hex))
    return [i for i, p in enumerate(sheet.pools) if around.intersection(p.hexes)]


def pool_lines(state: TableState, hexmap: Map, pool: PoolResult, note: str = "") -> list[Fragments]:
    """Two lines: the pool's name (``note`` after it) and fish; then every player's
    strength there (penguins next to it, doubles count 2) and the fish each takes now."""
    fish = ",".join(map(str, pool.fish)) if pool.fish else "no fish"
    head: Fragments = [("class:heading", pool_name(hexmap, pool)), ("", f"{note}: {fish}")]
    line: Fragments = [("", " ")]
    for player, strength in pool.strengths.items():
        line += [("", " "), letter(state, player), ("", str(strength))]
    won = [(p, v) for p, v in pool.won.items() if v]
    if won:
        line.append(("", "  takes"))
        for player, values in won:
            line += [("", " "), letter(state, player), ("", ",".join(map(str, values)))]
    return [head, line]


def waddle_lines(state: TableState, sheet: ScoreSheet, player: str) -> list[Fragments]:
    """``player``'s waddles, biggest first, as ``size (points)`` (``x3`` for three of a
    size), and their sum."""
    waddles = [w for w in sheet.waddles if w.player == player]
    total = sum(w.points for w in waddles)
    count = Counter((w.size, w.points) for w in waddles)
    sizes = ", ".join(f"{size} ({points})" + (f" x{n}" if n > 1 else "")
                      for (size, points), n in sorted(count.items(), reverse=True)) or "none"
    return [[letter(state, player), ("class:heading", f" {state.name_of(player)}'s waddles"),
             ("", f": {total} VP")], [("", f"  size (VP): {sizes}")]]


def item_lines(state: TableState, hexmap: Map, sheet: ScoreSheet, item: Item) -> list[Fragments]:
    """The lines explaining ``item``."""
    if item.player is not None:
        return waddle_lines(state, sheet, item.player)
    return pool_lines(state, hexmap, sheet.pools[item.pool])


def item_hexes(sheet: ScoreSheet, item: Item) -> set[Hex]:
    """The hexes ``item`` covers on the board (its waddles' penguins, or the pool's water)."""
    if item.player is not None:
        return {h for w in sheet.waddles if w.player == item.player for h in w.hexes}
    return set(sheet.pools[item.pool].hexes)


def outlined(sheet: ScoreSheet, active: Hex | None, cursor: Hex | None) -> list[int]:
    """The pools to outline while playing: the active pool, then those the cursor's hex touches."""
    found = [] if active is None else [i for i in (pool_of(sheet, active),) if i is not None]
    for i in pools_touching(sheet, cursor) if cursor is not None else ():
        if i not in found:
            found.append(i)
    return found

