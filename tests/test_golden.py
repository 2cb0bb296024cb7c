"""The golden playthrough: a seeded 4-player game, step by step, must not change.

On a failure, read the diff: if the change is an intended, reviewed change of the rules
or of the text forms, regenerate the file deliberately with
``python tests/golden/make_playthrough.py`` and commit it with the change.
"""

from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden")


def load_generator():
    spec = importlib.util.spec_from_file_location("make_playthrough", GOLDEN / "make_playthrough.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_golden_playthrough_is_unchanged():
    generator = load_generator()
    expected = generator.PATH.read_text(encoding="utf-8")
    actual = generator.playthrough()
    if actual != expected:
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                    "playthrough-4p.txt (golden)", "playthrough (now)",
                                    n=2, lineterm="")
        lines = list(diff)
        shown = "\n".join(lines[:80]) + ("\n..." if len(lines) > 80 else "")
        raise AssertionError(
            "the golden playthrough changed; if intended, regenerate it with "
            f"`python tests/golden/make_playthrough.py` and review the diff:\n{shown}")


def test_golden_playthrough_covers_the_whole_game():
    text = (GOLDEN / "playthrough-4p.txt").read_text(encoding="utf-8")
    assert "chosen: " in text and " scout\n" in text
    final = text.split("== final ==\n")[1]
    assert "game over" in final and "winners: " in final
    assert '"type": "game_ended"' in text
