"""Small pieces of text every screen uses: fitting to terminal columns (cut with an
ellipsis, or wrapped), seat letters, player labels and chat lines, as prompt-toolkit
fragments ``[(style, text), ...]``.

Names come from :class:`client.state.TableState`, cleaned (:mod:`protocol.text`).
"""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from client.state import ChatLine, TableState

Fragments = list[tuple[str, str]]


def ellipsis(ascii: bool = False) -> str:
    """What ends a cut text: ``…`` (``~`` with ``ascii``), one column."""
    return "~" if ascii else "…"


def fit(text: str, width: int, *, ascii: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (wide characters count 2),
    or, when it is wider, cut to ``width`` columns ending in an :func:`ellipsis`."""
    if get_cwidth(text) <= width:
        return text + " " * (width - get_cwidth(text))
    if width <= 0:
        return ""
    head, used = take(text, width - 1)
    return head + ellipsis(ascii) + " " * (width - 1 - used)


def take(chars, width: int) -> tuple[str, int]:
    """The leading ``chars`` that fit ``width`` terminal columns, and the columns they use."""
    out, used = [], 0
    for char in chars:
        w = get_cwidth(char)
        if used + w > width:
            break
        out.append(char)
        used += w
    return "".join(out), used


def fit_left(text: str, width: int, *, ascii: bool = False) -> str:
    """``text`` if it fits ``width`` columns (or ``width`` is 0), else its end after an
    ellipsis (``...`` with ``ascii``), ``width`` columns in all: a path keeps its file name."""
    if not width or get_cwidth(text) <= width:
        return text
    dots = "..." if ascii else "…"
    tail, _ = take(reversed(text), max(width - len(dots), 0))
    return dots + tail[::-1]


def question_line(question: str, width: int = 0) -> str:
    """A yes/no ``question`` as the bottom line asks it: ``" QUESTION y: yes, any other
    key: no "``, or ``" QUESTION y/n "`` when that is wider than ``width`` (0: no limit)."""
    line = f" {question} y: yes, any other key: no "
    return f" {question} y/n " if width and get_cwidth(line) > width else line


def seat_letter(label: str) -> str:
    """The letter that stands for the seat labelled ``label``: its first, upper case
    (``"red"`` -> ``R``); the labels of a game differ in their first letter."""
    return label[:1].upper() or "?"


def letter(state: TableState, label: str, style: str = "") -> tuple[str, str]:
    """A seat's letter in its colour (``style`` adds classes)."""
    seat = next((s for s in state.seats if s.label == label), None)
    colour = seat.colour if seat is not None else label
    return (f"class:player.{colour} class:letter{style}", seat_letter(label))


def player_label(state: TableState, label: str, *, you: bool = False) -> Fragments:
    """A seat's letter in its colour, then its cleaned name (and "(you)" if ``you``)."""
    mark = " (you)" if you and label == state.label else ""
    return [letter(state, label), ("", f" {state.name_of(label)}{mark}")]


def player_names(state: TableState, labels: list[str]) -> str:
    """The seats ``labels`` as words: ``"R Ann"``, ``"R Ann and B Bob"``, ``"R Ann, B Bob and Y Cy"``."""
    names = [f"{seat_letter(label)} {state.name_of(label)}" for label in labels]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def chat_line(state: TableState, line: ChatLine) -> Fragments:
    """A chat line: the speaker's seat letter in its colour (``-`` for a spectator or the
    host), so two people cannot pass for one another by name, then name and text."""
    who = letter(state, line.label) if line.label is not None else ("class:chat.name", "-")
    return [who, ("class:chat.name", f" {line.name}"), ("", f": {line.text}")]


def cut_line(line: Fragments, width: int, *, ascii: bool = False) -> Fragments:
    """One line's fragments in at most ``width`` terminal columns: a longer line is cut
    and ends in an :func:`ellipsis` (unless all it loses is spaces)."""
    if sum(get_cwidth(text) for _, text in line) <= width:
        return line
    whole = "".join(text for _, text in line)
    head, _ = take(whole, width)
    cut = bool(whole[len(head):].strip())
    if cut:
        head, _ = take(whole, max(width - 1, 0))
    keep, out = len(head), []
    for style, text in line:
        if keep <= 0:
            break
        out.append((style, text[:keep]))
        keep -= len(text[:keep])
    return [*out, ("class:dim", ellipsis(ascii))] if cut and width > 0 else out


def join_lines(lines: list[Fragments], width: int, *, ascii: bool = False) -> Fragments:
    """Lines into one fragment list, each in ``width`` columns (:func:`cut_line`)."""
    out: Fragments = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out += cut_line(line, width, ascii=ascii)
    return out


def wrap_line(line: Fragments, width: int, most: int, *, indent: str = " ",
              ascii: bool = False) -> list[Fragments]:
    """One line's fragments in lines of at most ``width`` terminal columns, broken at
    spaces (where two part the line's pieces, if that fills half the line; a word wider
    than a line where it must), each line after the first starting with ``indent``; at
    most ``most`` lines, the last cut by :func:`cut_line` (with an ellipsis) if text is
    left. Each piece keeps its style."""
    whole = "".join(text for _, text in line)
    out: list[Fragments] = []
    start = 0
    while True:
        lead = [("", indent)] if out else []
        room = width - get_cwidth(indent) * bool(out)
        rest = whole[start:]
        head, _ = take(rest, room)
        if len(out) >= most - 1 or len(head) == len(rest) or not head:
            out.append(cut_line(lead + _slice(line, start, len(whole)), width, ascii=ascii))
            return out
        # A space just after what fits will do; two spaces (between a line's parts) are
        # better, unless that leaves the line less than half full.
        stop = rest.rfind("  ", 1, len(head) + 1)
        if stop < len(head) // 2 or not rest[:stop].strip():
            stop = rest.rfind(" ", 1, len(head) + 1)
        if stop < 1 or not rest[:stop].strip():
            stop = len(head)
        out.append(lead + _slice(line, start, start + len(rest[:stop].rstrip(" "))))
        start += stop
        while start < len(whole) and whole[start] == " ":
            start += 1


def _slice(line: Fragments, start: int, end: int) -> Fragments:
    """The fragments of characters ``start`` to ``end`` of ``line``'s text, styles kept."""
    out: Fragments = []
    at = 0
    for style, text in line:
        piece = text[max(start - at, 0):max(end - at, 0)]
        if piece:
            out.append((style, piece))
        at += len(text)
    return out


def fit_rows(lines: list[Fragments], height: int, focus: int = 0, *,
             ascii: bool = False) -> list[Fragments]:
    """``lines`` in ``height`` rows: all of them if they fit, else a run of them that
    holds line ``focus`` (the selected one), its first row saying how many lines are
    above it and its last how many below, where any are: never cut silently. Fewer than
    four rows: the first ``height`` lines."""
    if len(lines) <= height or height < 4:
        return lines[:height]
    start = 0 if focus < height - 1 else min(focus - (height - 3), len(lines) - height)
    rows = lines[start:start + height]
    up, down = ("^", "v") if ascii else ("↑", "↓")
    if start:
        rows[0] = [("class:dim", f"  {up} {start + 1} more above")]
    below = len(lines) - start - height
    if below > 0:
        rows[-1] = [("class:dim", f"  {down} {below + 1} more below")]
    return rows


def split_lines(fragments: Fragments) -> list[Fragments]:
    """Fragments (lines broken by ``"\\n"`` in their text) as one fragment list a line."""
    lines: list[Fragments] = [[]]
    for style, text, *_ in fragments:
        first, *rest = text.split("\n")
        if first:
            lines[-1].append((style, first))
        for piece in rest:
            lines.append([(style, piece)] if piece else [])
    return lines
