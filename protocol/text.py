"""Cleaning user text (names, chat) before it is stored, sent, logged or printed, and
measuring it in terminal cells.

:func:`clean` normalises to NFC, removes terminal escape sequences (CSI, OSC, DCS and
two-character ``ESC x``), every other control character (C0, C1), format characters
(bidi overrides and isolates, zero-width spaces, BOM, soft hyphen: Unicode category Cf),
surrogates and non-characters, turns line and paragraph separators and tabs into spaces
and collapses runs of spaces. Two format characters stay where they are part of an emoji
sequence (Unicode's grapheme clusters, UAX #29): a zero-width joiner between two
emoji (``👩‍💻``), and the tag characters of a subdivision flag (``🏴󠁧󠁢󠁳󠁣󠁴󠁿``); a joiner or tag
anywhere else is removed. The host cleans every name and chat line; a client uses the
same functions before printing anything it received.

Terminals disagree on emoji sequences: a family ``👨‍👩‍👧`` takes 2 cells in tmux 3.3 and
most new terminals, 6 where joiners are not supported, and prompt-toolkit (which places
every character of a screen) counts 6; a flag ``🇫🇷`` 2, 4 or 2 again. Where they
disagree, a screen drawn cell by cell drifts. :func:`shown` is what a client prints: each
sequence whose width as one differs from the sum of its characters' widths as its
first character (``👨``), a flag as its two letters (``FR``; a lone half of one as its
letter: next to another it would make a flag); the name itself (what the
host keeps, sends and saves) is unchanged.

Widths are terminal cells (:func:`cells`: a wide character or an emoji sequence counts
2, a combining mark 0), measured per grapheme cluster by :mod:`wcwidth`, and text is
only ever cut between clusters (:func:`cut`, :func:`pad`), so an emoji sequence or an
accented letter is never split.

:func:`with_article` puts "a" or "an" before a phrase (``an easy (random) bot``).
"""

from __future__ import annotations

import re
import unicodedata

from wcwidth import iter_graphemes, wcswidth, wcwidth

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
_ZWJ = "\u200d"
_BLACK_FLAG, _CANCEL_TAG = "\U0001f3f4", "\U000e007f"
_REGIONAL_A, _REGIONAL_Z = "\U0001f1e6", "\U0001f1ff"


def _keep(char: str) -> str:
    if char in "\t\n\r\u2028\u2029\x85":
        return " "
    return "" if unicodedata.category(char) in _DROP else char


def _is_tag(char: str) -> bool:
    return "\U000e0020" <= char <= _CANCEL_TAG


def _cluster(cluster: str) -> str:
    """One grapheme cluster with what may not be printed removed (see the module docstring)."""
    if cluster.isascii() and cluster.isprintable():
        return cluster
    flag = cluster[0] == _BLACK_FLAG and cluster[-1] == _CANCEL_TAG
    return "".join(char if (char == _ZWJ and _joins(cluster, i)) or (flag and _is_tag(char)) else _keep(char)
                   for i, char in enumerate(cluster))


def _joins(cluster: str, at: int) -> bool:
    """Whether the joiner at ``cluster[at]`` joins two emoji: the cluster goes on after
    it with a character that is no mark or format character (UAX #29 GB11 joins only an
    emoji, with its marks, to the next emoji)."""
    return 0 < at < len(cluster) - 1 and unicodedata.category(cluster[at + 1]) not in ("Mn", "Mc", "Me", "Cf")


def clean(text: str, max_length: int | None = None) -> str:
    """``text`` made safe to print on one line, at most ``max_length`` characters (cut
    between grapheme clusters).

    Shape: any ``str`` -> ``str`` with no control or escape characters and no format
    characters but inside emoji sequences, single spaces, no leading or trailing space
    (RULES of this project: "user text is stripped of control characters").
    """
    if text.isascii() and text.isprintable():  # the usual case, fast: nothing to remove
        text = _SPACES.sub(" ", text).strip()
        return text if max_length is None else text[:max_length].rstrip()
    return _clean_all(text, max_length)


def _clean_all(text: str, max_length: int | None) -> str:
    """:func:`clean` the long way, cluster by cluster (any text)."""
    text = unicodedata.normalize("NFC", text)
    text = _ESCAPES.sub("", text)
    text = "".join(_cluster(cluster) for cluster in iter_graphemes(text))
    text = _SPACES.sub(" ", text).strip()
    if max_length is not None and len(text) > max_length:
        text = _whole_clusters(text, lambda cluster, used: used + len(cluster) <= max_length).rstrip()
    return text


def clean_name(name: str, default: str) -> str:
    """A cleaned player name, at most :data:`~protocol.messages.NAME_SHOWN` terminal cells;
    ``default`` if nothing is left."""
    return cut(clean(name), NAME_SHOWN).rstrip() or default


def shown(text: str) -> str:
    """``text`` (cleaned) as a client prints it, so every terminal and prompt-toolkit
    give each character the same cells (see the module docstring): ``"Ann 👨‍👩‍👧"`` ->
    ``"Ann 👨"``, ``"🇫🇷"`` -> ``"FR"``, ``"❤️"`` -> ``"❤"``; text without such
    sequences is returned as it is."""
    if text.isascii():
        return text
    return "".join(_shown(cluster) for cluster in iter_graphemes(text))


def _shown(cluster: str) -> str:
    if _REGIONAL_A <= cluster[0] <= _REGIONAL_Z:  # a flag, or a lone half of one: letters
        return "".join(chr(ord(c) - ord(_REGIONAL_A) + ord("A")) for c in cluster
                       if _REGIONAL_A <= c <= _REGIONAL_Z)
    if len(cluster) == 1 or cells(cluster) == sum(max(wcwidth(c), 0) for c in cluster):
        return cluster
    return next((c for c in cluster if wcwidth(c) > 0), "")  # its first character that shows


def cells(text: str) -> int:
    """The terminal cells ``text`` (cleaned: no control characters) takes: 1 for most
    characters, 2 for a wide one (CJK, most emoji) or an emoji sequence, 0 for a
    combining mark."""
    width = wcswidth(text)
    return width if width >= 0 else sum(max(wcswidth(c), 0) for c in iter_graphemes(text))


def cut(text: str, width: int) -> str:
    """The longest start of ``text`` that fits ``width`` terminal cells, cut between
    grapheme clusters."""
    if text.isascii():
        return text[:width]
    return _whole_clusters(text, lambda cluster, used: used + cells(cluster) <= width, cells)


def pad(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells and padded with spaces to exactly that
    many (``str.ljust`` in cells)."""
    text = cut(text, width)
    return text + " " * (width - cells(text))


def _whole_clusters(text: str, fits, size=len) -> str:
    """The leading grapheme clusters of ``text`` while ``fits(cluster, used)``; ``used``
    counts ``size`` of those taken."""
    out, used = [], 0
    for cluster in iter_graphemes(text):
        if not fits(cluster, used):
            break
        out.append(cluster)
        used += size(cluster)
    return "".join(out)


def counted(count: int, noun: str) -> str:
    """``count`` of ``noun``, the noun plural (an ``s`` added) unless the count is one:
    ``"1 table"``, ``"0 tables"``, ``"3 games"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def with_article(phrase: str) -> str:
    """``phrase`` after "an" if it begins with a vowel letter other than "u", else "a":
    ``"an easy (random) bot"``, ``"a greedy bot"``, ``"a uct bot"`` (said "you-see-tee")."""
    return ("an " if phrase[:1].lower() in ("a", "e", "i", "o") else "a ") + phrase
