"""What a guest's terminal can show, from what its SSH client said (``pty-req``'s TERM, the
``env`` requests' locale), and how to hand the terminal back whatever the screen left.

- TERM ``dumb`` or a VT terminal without colour (``vt52``, ``vt100``, ``vt102``,
  ``vt220``): plain ASCII, no colour (``--ascii --no-color``);
- a locale the client sent (``LC_ALL``, else ``LC_CTYPE``, else ``LANG``) that is not
  UTF-8: plain ASCII (``--ascii``); none sent (Windows, most macOS set-ups): UTF-8, as
  every current terminal is;
- anything else: the full UI; the screen's own colour depth follows TERM (prompt-toolkit).

A TERM that is not a plain terminal name (letters, digits, ``.``, ``_``, ``+``, ``-``;
at most 64) counts as ``dumb``: it is peer text and goes into the screen's environment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: Terminals that show neither colour nor more than ASCII.
PLAIN = frozenset({"dumb", "vt52", "vt100", "vt102", "vt220"})

#: What hands a terminal back as it was: mouse reporting and bracketed paste off, the
#: cursor shown, attributes reset, the normal screen back (after a screen that ended
#: without tidying up).
RESET = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l"
         b"\x1b[?25h\x1b[0m\x1b[?1049l")

_NAME = re.compile(r"[A-Za-z0-9._+-]{1,64}")


def term_name(term: str | None) -> str:
    """``term`` if it is a plain terminal name, else ``"dumb"``."""
    return term if term and _NAME.fullmatch(term) else "dumb"


def ui_flags(term: str, env: Mapping[str, str]) -> list[str]:
    """The UI options (``--ascii``, ``--no-color``) for a guest's ``term`` (already
    :func:`term_name`) and the environment its client sent."""
    if term.lower() in PLAIN:
        return ["--ascii", "--no-color"]
    locale = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG") or ""
    if locale and "utf8" not in locale.lower().replace("-", ""):
        return ["--ascii"]
    return []
