"""Who made a move, as a move line of a headless client shows it (``waddle bot``, the
games' ``text.move_line``): the seat's name from the host and the bot that chose the
action, cleaned and fitted to one column.

The bot's kind is told in brackets (``Ann [random]``: a stand-in played for Ann) unless
the name says it already (a host bot is named ``Pingu (greedy bot)``); a name too long
for the column is cut, never the bracket, so a bot's kind is never cut mid-word (a kind
longer than half the column, which no host bot has, is left out).
"""

from __future__ import annotations

from protocol import clean
from protocol.messages import MAX_LABEL, NAME_SHOWN
from protocol.text import cells, cut


def mover(name: str, bot: str | None, width: int = NAME_SHOWN) -> str:
    """``name`` (from the host) and the ``bot`` kind that chose the action (``None``: the
    player), cleaned, in at most ``width`` terminal cells: ``"Ann [random]"``, ``"Pingu
    (greedy bot)"``."""
    name = clean(name)
    kind = clean(bot, MAX_LABEL) if bot else ""
    tag = f" [{kind}]" if kind and not name.endswith(f"({kind} bot)") else ""
    if cells(tag) > width // 2:
        tag = ""
    return cut(name, width - cells(tag)) + tag
