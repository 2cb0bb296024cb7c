"""Cleaning user text (names, chat) before it is stored, sent, logged or printed.

:func:`clean` normalises to NFC, removes terminal escape sequences (CSI, OSC, DCS and
two-character ``ESC x``), every other control character (C0, C1), format characters
(bidi overrides and isolates, zero-width spaces and joiners, BOM, soft hyphen: Unicode
category Cf), surrogates and non-characters, turns line and paragraph separators and
tabs into spaces and collapses runs of spaces. The host cleans every name and chat line;
a client can use the same functions before printing anything it received.
"""

from __future__ import annotations

import re
import unicodedata

from protocol.messages import NAME_SHOWN

# ESC [ ... final byte; ESC ] / P / X / ^ / _ ... (BEL or ESC \); any other ESC + one char.
# The 8-bit forms (CSI U+009B, OSC U+009D, ...) are handled the same way.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x7e]?"
)
_SPACES = re.compile(r"\s+")
_DROP = frozenset({"Cc", "Cf", "Cs", "Cn"})


def _keep(char: str) -> str:
    if char in "\t\n\r\u2028\u2029\x85":
        return " "
    return "" if unicodedata.category(char) in _DROP else char


def clean(text: str, max_length: int | None = None) -> str:
    """``text`` made safe to print on one line, at most ``max_length`` characters.

    Shape: any ``str`` -> ``str`` with no control, format or escape characters, single
    spaces, no leading or trailing space (RULES of this project: "user text is stripped
    of control characters").
    """
    text = unicodedata.normalize("NFC", text)
    text = _ESCAPES.sub("", text)
    text = "".join(_keep(c) for c in text)
    text = _SPACES.sub(" ", text).strip()
    if max_length is not None:
        text = text[:max_length].rstrip()
    return text


def clean_name(name: str, default: str) -> str:
    """A cleaned player name, at most :data:`~protocol.messages.NAME_SHOWN` characters; ``default`` if nothing is left."""
    return clean(name, NAME_SHOWN) or default
