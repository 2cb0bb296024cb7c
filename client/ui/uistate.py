"""What only the screen needs, beside the table's state (:class:`client.state.TableState`).

The shell's part lives in :class:`UIState`; a game's terminal view keeps its own (the
hex game: the cursor and the double toggle) in its :class:`~client.ui.gameview.GameView`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Mode = Literal["normal", "chat", "confirm", "help"]


@dataclass
class UIState:
    """The shell's screen state.

    ``mode``: normal, chat input, a yes/no ``question`` (``on_yes`` runs on "y"), or
    help (``help_page``: the page shown, 0 the keys). ``notice``: the last message for the
    player (a refusal, an error). ``field``: the owner's selected lobby field.
    ``turn_deadline``: with a turn timer, the :func:`time.monotonic` time at which a bot
    plays the current turn (counted from when this client saw it begin); ``warned``: the
    "seconds left" warning was given for this turn. ``pause_deadline``: when the table's
    pause ends by itself. ``scores``: the game's score view is on.
    """

    mode: Mode = "normal"
    question: str = ""
    on_yes: Callable[[], None] | None = None
    notice: str = ""
    field: int = 0
    turn_deadline: float | None = None
    warned: bool = False
    pause_deadline: float | None = None
    help_page: int = 0
    scores: bool = False
