"""Places and neighbourhoods (DOWNTOWN.md "Places and neighbourhoods").

A place is a number ``0 .. len(places) - 1`` (its name, such as ``"L1"``, is what actions,
events and views carry); a neighbourhood (a *hood* in the code) is a number too, with a
name: ``"ring"`` for the one neighbourhood of 2 players, ``"light"`` and ``"dark"`` for 3
and 4. Every neighbourhood is 5 places; with 3 players the centre places ``C1`` and ``C2``
belong to both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

#: The most penguins a place holds.
CAPACITY = 5

#: Rounds in a game, by number of players (DOWNTOWN.md "Rounds, end and winner").
ROUNDS = {2: 8, 3: 7, 4: 6}


@dataclass(frozen=True, slots=True)
class Layout:
    """The places of a game with ``players`` players.

    ``places``: the place names, in board order. ``hoods``: each neighbourhood's places
    (numbers, board order); ``hood_names`` their names. ``hoods_of``: for each place, the
    neighbourhoods it belongs to.
    """

    players: int
    places: tuple[str, ...]
    hood_names: tuple[str, ...]
    hoods: tuple[tuple[int, ...], ...]
    hoods_of: tuple[tuple[int, ...], ...]

    def place(self, name: str) -> int:
        """The number of the place called ``name``.

        Raises:
            ValueError: no such place (the message lists the places).
        """
        try:
            return self.places.index(name)
        except ValueError:
            raise ValueError(f"no place {name!r}: the places are {', '.join(self.places)}") from None

    def hood(self, name: str) -> int:
        """The number of the neighbourhood called ``name``.

        Raises:
            ValueError: no such neighbourhood (the message lists them).
        """
        try:
            return self.hood_names.index(name)
        except ValueError:
            raise ValueError(f"no neighbourhood {name!r}: with {self.players} players they are "
                             f"{', '.join(self.hood_names)}") from None


@cache
def layout(players: int) -> Layout:
    """The places and neighbourhoods for 2, 3 or 4 players.

    2: ``P1``-``P5`` in the one neighbourhood ``ring``. 3: ``L1 L2 L3 C1 C2 D1 D2 D3``,
    ``light`` = L1-L3 + C1 C2, ``dark`` = D1-D3 + C1 C2. 4: ``L1``-``L5`` (``light``) and
    ``D1``-``D5`` (``dark``).

    Raises:
        ValueError: another number of players.
    """
    if players == 2:
        places, names, hoods = ("P1", "P2", "P3", "P4", "P5"), ("ring",), ((0, 1, 2, 3, 4),)
    elif players == 3:
        places = ("L1", "L2", "L3", "C1", "C2", "D1", "D2", "D3")
        names, hoods = ("light", "dark"), ((0, 1, 2, 3, 4), (3, 4, 5, 6, 7))
    elif players == 4:
        places = tuple(f"L{i}" for i in range(1, 6)) + tuple(f"D{i}" for i in range(1, 6))
        names, hoods = ("light", "dark"), ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))
    else:
        raise ValueError(f"Waddle Downtown is for 2 to 4 players, not {players}")
    hoods_of = tuple(tuple(h for h, members in enumerate(hoods) if p in members)
                     for p in range(len(places)))
    return Layout(players, places, names, hoods, hoods_of)
