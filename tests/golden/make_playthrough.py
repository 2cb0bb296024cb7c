"""Write the golden playthrough ``tests/golden/playthrough-4p.txt``.

One seeded 4-player game on the standard map: for each step, the state text
(:func:`waddle.hex.render.render_game`), the legal actions in text form, the action chosen
by a seeded random choice, and the events it caused (JSON). ``tests/test_golden.py``
regenerates the text and compares it with the file.

Regenerating the file is a deliberate act: run ``python tests/golden/make_playthrough.py``
only after a reviewed change to the rules or to the text forms, and review the diff of
the file in the same commit.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from waddle import COLOURS, Game
from waddle.hex.render import render_game
from waddle.hex.tiles import standard_map

MAP_SEED = 2026
CHOICE_SEED = 7
PATH = Path(__file__).with_name("playthrough-4p.txt")


def playthrough() -> str:
    """The golden text: a header, then one block per step, then the final state."""
    game = Game(standard_map(4, MAP_SEED), COLOURS[:4])
    rng = random.Random(CHOICE_SEED)
    out = [f"# Waddle golden playthrough: standard map for 4 players, map seed {MAP_SEED}, "
           f"random choices seed {CHOICE_SEED}.",
           "# Regenerate only after a reviewed rules or text change: "
           "python tests/golden/make_playthrough.py", ""]
    while not game.is_over:
        legal = game.legal_actions()
        action = rng.choice(legal)
        out += [f"== step {len(game) + 1} ==", render_game(game),
                "legal: " + ", ".join(str(a) for a in legal),
                f"chosen: {game.current_player} {action}"]
        out += ["event: " + json.dumps(e.to_dict(), sort_keys=True) for e in game.apply(action)]
        out.append("")
    out += ["== final ==", render_game(game), ""]
    return "\n".join(out)


def main() -> None:
    PATH.write_text(playthrough(), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()
