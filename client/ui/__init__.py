"""The terminal UI: a full-screen prompt-toolkit application over a session.

:mod:`client.ui.board` draws the hex map (a pure function), :mod:`client.ui.panels`
and :mod:`client.ui.lobby` the text around it, :mod:`client.ui.app` the application and
trio's guest run, :mod:`client.ui.keys` the key bindings; :mod:`client.ui.view` holds
the state the layout reads and the session interface; :mod:`client.ui.remote` the
session over the trio client core (and the host, when this process hosts).
"""
