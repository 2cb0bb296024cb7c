"""Key bindings of the terminal UI, built by :func:`make_bindings` for one :class:`~client.ui.app.WaddleApp`.

Every binding only calls a method of the app; modes (help, scout and quit
confirmation, chat input, lobby, game) are prompt-toolkit filters so one key can mean
different things on different screens. The keys are listed in
:data:`client.ui.panels.HELP` and ``docs/ui.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys

if TYPE_CHECKING:
    from client.ui.app import WaddleApp

#: Cursor directions: key names -> (dx, dy) on the screen.
MOVES = {
    ("left",): (-1, 0), ("h",): (-1, 0),
    ("right",): (1, 0), ("l",): (1, 0),
    ("up",): (0, -1), ("k",): (0, -1),
    ("down",): (0, 1), ("j",): (0, 1),
}


def make_bindings(app: WaddleApp) -> KeyBindings:
    """The key bindings of ``app`` (see the module docstring)."""
    kb = KeyBindings()
    mode = app.ui

    def in_mode(*names: str) -> Condition:
        return Condition(lambda: mode.mode in names)

    normal = in_mode("normal")
    lobby = normal & Condition(lambda: app.state.phase == "lobby")
    playing = normal & Condition(lambda: app.state.phase == "playing")
    finished = normal & Condition(lambda: app.state.phase == "finished")

    @kb.add("c-c")
    @kb.add("<sigint>")
    def _(event):
        app.request_quit(force=mode.mode == "quit")

    @kb.add("q", filter=normal)
    def _(event):
        app.request_quit()

    @kb.add(Keys.Any, filter=in_mode("help"))
    def _(event):
        app.set_mode("normal")

    @kb.add(Keys.Any, filter=in_mode("scout", "quit"))
    def _(event):
        app.confirm(event.data in ("y", "Y"))

    @kb.add("?", filter=normal)
    def _(event):
        app.set_mode("help")

    @kb.add("c", filter=normal)
    @kb.add("/", filter=normal)
    def _(event):
        app.start_chat()

    @kb.add("enter", filter=in_mode("chat"))
    def _(event):
        app.send_chat()

    @kb.add("escape", filter=in_mode("chat"))
    def _(event):
        app.set_mode("normal")

    for keys, (dx, dy) in MOVES.items():
        kb.add(*keys, filter=playing)(lambda event, dx=dx, dy=dy: app.move(dx, dy))
        kb.add(*keys, filter=lobby)(lambda event, dy=dy, dx=dx: app.lobby_step(dy, dx))

    @kb.add("enter", filter=playing)
    @kb.add("space", filter=playing)
    def _(event):
        app.place()

    @kb.add("d", filter=playing)
    def _(event):
        app.toggle_double()

    @kb.add("s", filter=playing)
    def _(event):
        app.ask_scout()

    @kb.add("enter", filter=lobby)
    def _(event):
        app.lobby_enter()

    @kb.add("r", filter=lobby)
    def _(event):
        app.toggle_ready()

    @kb.add("tab", filter=finished)
    @kb.add("right", filter=finished)
    @kb.add("l", filter=finished)
    def _(event):
        app.show_next_waddles(1)

    @kb.add("s-tab", filter=finished)
    @kb.add("left", filter=finished)
    @kb.add("h", filter=finished)
    def _(event):
        app.show_next_waddles(-1)

    return kb
