"""The style sheets: what each style class of the board and panels looks like.

Two sheets use the same class names: :func:`make_style` with ``colour=True`` paints
terrain and players; with ``colour=False`` (``NO_COLOR``, https://no-color.org) only
bold, underline and reverse are used, and the text markers of the games' boards carry
the meaning. The shell's classes are here; each game's own (terrain, its seats' colours
``player.<colour>``) come from its client package's ``style`` module (``COLOUR`` and
``PLAIN``, see :mod:`client.games`).
"""

from __future__ import annotations

import os

from prompt_toolkit.styles import Style

from client.games import part
from waddle.ruleset import BUILT_IN

_COLOUR = {
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
    """The style sheet: coloured, or attributes only; the shell's classes and every
    registered game's (its client package's ``style.COLOUR`` or ``style.PLAIN``)."""
    sheet = dict(_COLOUR if colour else _PLAIN)
    for game in BUILT_IN:
        style = part(game, "style")
        sheet.update(style.COLOUR if colour else style.PLAIN)
    return Style.from_dict(sheet)


def want_colour(no_color_flag: bool = False) -> bool:
    """Whether to use colour: not when ``NO_COLOR`` is set (to anything non-empty) or asked off."""
    return not no_color_flag and not os.environ.get("NO_COLOR")
