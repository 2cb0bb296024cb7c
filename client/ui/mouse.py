"""Mouse reports from the terminal, checked before prompt-toolkit reads them.

prompt-toolkit's input parser takes any ``ESC [ digits m`` or ``M`` for a mouse report
(a colour code typed or pasted: Alt-[ then ``5m``), and its mouse handler then fails on
it: the screen gives way to "Unhandled exception in event loop" and what was being typed
is lost. :func:`guarded_mouse` puts a handler before it that hands on well-formed reports
(xterm's SGR ``ESC [ < b ; x ; y M/m``, urxvt's ``ESC [ b ; x ; y M``, the X10 ``ESC [ M``
and three bytes) and drops anything else.
"""

from __future__ import annotations

import re

from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings
from prompt_toolkit.keys import Keys

#: A mouse report prompt-toolkit's handler can read.
WELL_FORMED = re.compile(r"\x1b\[(?:<\d+;\d+;\d+[Mm]|\d+;\d+;\d+M|M...)\Z", re.DOTALL)


def guarded_mouse() -> KeyBindings:
    """Key bindings to merge after an application's others (the last binding of a key
    wins): mouse reports that are well formed go to prompt-toolkit's own handler, the
    rest are dropped."""
    (own, *_) = reversed(load_mouse_bindings().get_bindings_for_keys((Keys.Vt100MouseEvent,)))
    kb = KeyBindings()

    @kb.add(Keys.Vt100MouseEvent)
    def _(event):
        if WELL_FORMED.match(event.data):
            return own.handler(event)
        return None

    return kb
