"""Places and openskill ratings of finished games, shared by the arena
(:mod:`client.arena.ratings`) and the history (:mod:`waddle.history`).

A game's places follow its own result: its winners first (a game that breaks ties, as
Waddle Downtown does, names one), then by score; equal places share the better one.
Ratings are openskill's Plackett–Luce model with its defaults (mu 25, sigma 25/3); the
conservative figure people are shown is the ordinal ``mu - 3 sigma``. Source: a
decision of the project (docs/arena.md, docs/history.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

#: A newcomer's ``(mu, sigma)``: openskill's defaults (checked against it in the tests).
FRESH = (25.0, 25.0 / 3)


@cache
def model():
    """The rating model, openskill's Plackett–Luce with its defaults (imported when first
    rated: reading ratings needs no openskill, so ``waddle stats`` starts faster)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Each seat's place (1 best; ties share the better place): winners first, then by score."""
    keys = [(seat in winners, score) for seat, score in enumerate(scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


def rate_game(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Every seat's ``(mu, sigma)`` after one game: ``ratings`` are the seats' before it,
    ``places`` their places (:func:`ranks`), both in seat order."""
    rating = model()
    teams = [[rating.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in rating.rate(teams, ranks=list(places))]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown to people: ``mu - 3 sigma``."""
    return mu - 3 * sigma
