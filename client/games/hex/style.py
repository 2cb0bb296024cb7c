"""The hex game's style classes: terrain and the seats' colours (merged into the shell's
sheets by :func:`client.ui.style.make_style`).

``COLOUR``: the coloured sheet's classes; ``PLAIN``: the attributes-only sheet's (the
board's text markers carry the meaning there).
"""

from __future__ import annotations

#: Background of each seat's penguins (their letter is always shown too), by seat colour
#: (:data:`waddle.hex.ruleset.HexRuleset.seats`).
SEAT_COLOURS = {"red": "#d03030", "blue": "#3060e0", "yellow": "#d0b000",
                "green": "#209040", "purple": "#9040c0"}

COLOUR = {
    "ice": "bg:#d8e4ec #304050",
    "water": "bg:#1d4f8a #ffffff",
    **{f"player.{colour}": f"bg:{value} #ffffff bold" for colour, value in SEAT_COLOURS.items()},
}

PLAIN: dict[str, str] = {}
