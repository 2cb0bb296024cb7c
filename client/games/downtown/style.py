"""Waddle Downtown's style classes: the seats' colours and the red and yellow penguins
(merged into the shell's sheets by :func:`client.ui.style.make_style`).

``COLOUR``: the coloured sheet's classes; ``PLAIN``: the attributes-only sheet's (the
penguins' letters R and Y carry the meaning there).
"""

from __future__ import annotations

#: Background of each seat's letter, by seat colour (:data:`waddle.downtown.viewdata.COLOURS`).
SEAT_COLOURS = {"blue": "#3060e0", "green": "#209040", "purple": "#9040c0", "cyan": "#008a8a"}

#: The penguins on the board (:mod:`client.games.downtown.board`).
PENGUIN_COLOURS = {"red": "#d03030", "yellow": "#d0b000"}

COLOUR = {f"player.{colour}": f"bg:{value} #ffffff bold"
          for colour, value in {**SEAT_COLOURS, **PENGUIN_COLOURS}.items()}

PLAIN: dict[str, str] = {}
