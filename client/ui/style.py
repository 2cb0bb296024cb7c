"""The style sheets: what each style class of the board and panels looks like.

Two sheets use the same class names: :func:`make_style` with ``colour=True`` paints
terrain and players; with ``colour=False`` (``NO_COLOR``, https://no-color.org) only
bold, underline and reverse are used, and the text markers of :mod:`client.ui.board`
carry the meaning.
"""

from __future__ import annotations

import os

from prompt_toolkit.styles import Style

#: Background of each player's penguins (their letter is always shown too).
PLAYER_COLOURS = {"red": "#d03030", "blue": "#3060e0", "yellow": "#d0b000",
                  "green": "#209040", "purple": "#9040c0"}

_COLOUR = {
    "ice": "bg:#d8e4ec #304050",
    "water": "bg:#1d4f8a #ffffff",
    "active": "bg:#f0c020 #000000 bold",
    "legal": "bg:#a8e8a8 #005000 bold",
    "cursor": "bg:#ff7000 #000000 bold",
    "suggest": "bg:#00c0c0 #000000 bold",
    "highlight": "underline bold",
    "last": "underline",
    "letter": "bold",
    "current": "underline",
    "blunder": "#d03030 bold",
    "graph": "#00a0a0",
    "banner": "reverse",
    "banner.turn": "bg:#209040 #ffffff bold",
    "banner.alert": "bg:#d03030 #ffffff bold",
    "banner.over": "bg:#9040c0 #ffffff bold",
    "heading": "bold",
    "dim": "#8a8a8a",
    "notice": "#ff8000 bold",
    "selected": "reverse",
    "key": "bold",
    "chat.name": "bold",
    **{f"player.{colour}": f"bg:{value} #ffffff bold" for colour, value in PLAYER_COLOURS.items()},
}

_PLAIN = {
    "active": "reverse bold",
    "legal": "bold",
    "cursor": "reverse bold",
    "suggest": "reverse bold",
    "highlight": "underline bold",
    "last": "underline",
    "letter": "bold",
    "current": "reverse",
    "blunder": "bold",
    "banner": "reverse",
    "banner.turn": "reverse bold",
    "banner.alert": "reverse bold",
    "banner.over": "reverse bold",
    "heading": "bold",
    "notice": "bold",
    "selected": "reverse",
    "key": "bold",
    "chat.name": "bold",
}


def make_style(colour: bool) -> Style:
    """The style sheet: coloured, or attributes only."""
    return Style.from_dict(_COLOUR if colour else _PLAIN)


def want_colour(no_color_flag: bool = False) -> bool:
    """Whether to use colour: not when ``NO_COLOR`` is set (to anything non-empty) or asked off."""
    return not no_color_flag and not os.environ.get("NO_COLOR")
