"""The terminal UI: a full-screen prompt-toolkit application over a session.

The shell, which knows no game: :mod:`client.ui.app` (the application and trio's guest
run), :mod:`client.ui.controller` (what the keys do), :mod:`client.ui.keys` (the key
bindings), :mod:`client.ui.panels` and :mod:`client.ui.lobby` (banner, side panel frame,
help, hints, the lobby), :mod:`client.ui.text` (fitting text), :mod:`client.ui.uistate`
(the shell's screen state), :mod:`client.ui.session` (the trio client core, and the host
when this process hosts). A game's part is its :class:`~client.ui.gameview.GameView`
(in :mod:`client.games`).
"""
