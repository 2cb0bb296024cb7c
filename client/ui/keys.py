"""Key bindings of the terminal UI, built by :func:`make_bindings` for one :class:`~client.ui.controller.Controller`.

Every binding only calls a method of the controller (or of the game's view, whose own
bindings join here once the game is known); modes (help, a yes/no question, chat input,
lobby, game) are prompt-toolkit filters so one key can mean different things on
different screens. The keys are listed in the help (:data:`client.ui.panels.HELP` and
the game's) and ``docs/ui.md``.
"""

from __future__ import annotations

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import DynamicKeyBindings, KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.key_bindings import KeyBindingsBase
from prompt_toolkit.keys import Keys

from client.ui.controller import Controller
from client.ui.mouse import guarded_mouse

#: Lobby directions: key names -> (dx, dy).
LOBBY_MOVES = {
    ("left",): (-1, 0), ("h",): (-1, 0),
    ("right",): (1, 0), ("l",): (1, 0),
    ("up",): (0, -1), ("k",): (0, -1),
    ("down",): (0, 1), ("j",): (0, 1),
}


def make_bindings(controller: Controller) -> KeyBindingsBase:
    """The key bindings of ``controller``'s screen: the shell's, then the game view's."""
    kb = KeyBindings()
    ui = controller.ui

    def in_mode(*names: str) -> Condition:
        return Condition(lambda: ui.mode in names)

    normal = in_mode("normal")
    lobby = normal & Condition(lambda: controller.state.phase == "lobby")
    on_board = normal & Condition(lambda: controller.board_visible)
    paused = Condition(lambda: controller.state.pause is not None)
    playing = on_board & Condition(lambda: controller.state.phase == "playing") & ~paused
    finished = on_board & Condition(lambda: controller.state.phase == "finished")
    waited_for = on_board & Condition(lambda: controller.state.waiting_for_me)
    host_away = Condition(lambda: controller.state.host_stopped is not None
                          and controller.state.status != "connected")
    live = Condition(lambda: controller.replay is None)  # a replay plays no move, but its
    scores = Condition(lambda: ui.scores)                # score view takes the game's keys

    @kb.add("c-c")
    @kb.add("<sigint>")
    def _(event):
        controller.request_quit(force=ui.mode == "confirm")

    @kb.add("c-l")
    def _(event):
        controller.refresh()

    @kb.add(Keys.Any, filter=waited_for)
    def _(event):
        controller.go_on()

    @kb.add("u", filter=playing)
    def _(event):
        controller.undo()

    @kb.add("v", filter=playing | finished)
    def _(event):
        controller.toggle_scores()

    @kb.add("r", filter=finished)
    def _(event):
        controller.toggle_rematch()

    @kb.add("q", filter=normal)
    def _(event):
        controller.request_quit()

    @kb.add(Keys.Any, filter=in_mode("help"))
    def _(event):
        controller.set_mode("normal")

    for key, step in (("tab", 1), ("right", 1), ("pagedown", 1), ("s-tab", -1), ("left", -1), ("pageup", -1)):
        kb.add(key, filter=in_mode("help"))(lambda event, step=step: controller.help_page(step))

    @kb.add(Keys.Any, filter=in_mode("confirm"))
    def _(event):
        controller.answer(event.data in ("y", "Y"))

    @kb.add("?", filter=normal)
    def _(event):
        controller.set_mode("help")

    @kb.add("c", filter=normal)
    @kb.add("/", filter=normal)
    def _(event):
        controller.start_chat()

    @kb.add("enter", filter=in_mode("chat"))
    def _(event):
        controller.send_chat()

    @kb.add("escape", filter=in_mode("chat"))
    def _(event):
        controller.set_mode("normal")

    for keys, (dx, dy) in LOBBY_MOVES.items():
        kb.add(*keys, filter=lobby)(lambda event, dy=dy, dx=dx: controller.lobby_step(dy, dx))

    @kb.add("enter", filter=lobby)
    def _(event):
        controller.lobby_enter()

    @kb.add("r", filter=lobby)
    def _(event):
        controller.toggle_ready()

    @kb.add("enter", filter=normal & host_away)  # after the lobby's Enter: this one wins
    def _(event):
        controller.look_now()

    game: dict[int, KeyBindingsBase] = {}

    def game_bindings() -> KeyBindingsBase | None:
        view = controller.view
        if view is None:
            return None
        if id(view) not in game:
            game[id(view)] = view.bindings(playing & (live | scores), finished)
        return game[id(view)]

    return merge_key_bindings([kb, DynamicKeyBindings(game_bindings), _analysis_bindings(controller),
                               guarded_mouse()])


#: The replay viewer's keys: key names -> what they call on the controller.
REPLAY_KEYS = {
    ("right",): lambda c: c.step(1), ("left",): lambda c: c.step(-1),
    ("home",): lambda c: c.go(0), ("g",): lambda c: c.go(0),
    ("end",): lambda c: c.go(len(c.replay)), ("G",): lambda c: c.go(len(c.replay)),
    ("down",): lambda c: c.jump("round", 1), ("up",): lambda c: c.jump("round", -1),
    ("pagedown",): lambda c: c.jump("half", 1), ("pageup",): lambda c: c.jump("half", -1),
    ("E",): lambda c: c.analyse_game(),
}


def _analysis_bindings(controller: Controller) -> KeyBindings:
    """The replay viewer's keys and the search bot's (``e``, Esc while it runs); they come
    after the game's, so in a replay they win over a game's arrows."""
    kb = KeyBindings()
    normal = Condition(lambda: controller.ui.mode == "normal")
    replay = normal & Condition(lambda: controller.replay is not None)
    for keys, call in REPLAY_KEYS.items():
        kb.add(*keys, filter=replay)(lambda event, call=call: call(controller))
    kb.add("e", filter=normal & Condition(lambda: controller.state.view is not None))(
        lambda event: controller.analyse())
    kb.add("escape", filter=normal & Condition(lambda: controller.analyst.busy))(
        lambda event: controller.cancel_analysis())
    return kb
