"""Search rewards: how good a game's final totals are for each player, in ``[0, 1]``."""

from __future__ import annotations

from collections.abc import Sequence

#: Weight of the win share in the reward; the rest is the scaled margin.
WIN_WEIGHT = 0.5
#: Margin (VP) that maps to the full margin reward.
MARGIN_SCALE = 30.0


def rewards(totals: Sequence[int], win_weight: float = WIN_WEIGHT,
            margin_scale: float = MARGIN_SCALE) -> list[float]:
    """Each player's reward for final ``totals`` (VP, seat order; at least two players).

    The reward is ``win_weight`` times the win share (1 for a sole winner, ``1/k`` for
    each of ``k`` tied winners, else 0) plus ``1 - win_weight`` times the margin over
    the best opponent, mapped from ``[-margin_scale, margin_scale]`` VP (clipped) onto
    ``[0, 1]``.
    """
    best, second = sorted(totals, reverse=True)[:2]
    share = 1.0 / totals.count(best)
    out = []
    for mine in totals:
        margin = mine - (second if mine == best else best)
        scaled = max(-1.0, min(1.0, margin / margin_scale))
        out.append(win_weight * (share if mine == best else 0.0) + (1 - win_weight) * (0.5 + scaled / 2))
    return out
