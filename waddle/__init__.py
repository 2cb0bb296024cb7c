"""Waddle: the rules engine of the hex board game *Waddle* (2024, Corné van Moorsel).

Pure Python, no I/O but the explicit load and save functions. Start with
:class:`Game` on a :class:`Map` (:func:`standard_map`, :func:`load_map`,
:func:`bundled_map`), list :meth:`Game.legal_actions`, and :meth:`Game.apply` them.
"""

from waddle.actions import SCOUT, Action, Place, Scout, action_from_dict, parse_action
from waddle.bundled import bundled_map, bundled_maps
from waddle.errors import IllegalActionError, MapError, RecordError
from waddle.events import Event, GameEnded, HalfEnded, Placed, RoundEnded, Scouted
from waddle.game import COLOURS, DOUBLES, Game, Result
from waddle.hexgrid import Hex, neighbours
from waddle.maps import Map, Pool, Water, load_map
from waddle.scoring import PoolResult, Score, ScoreSheet, Waddle
from waddle.tiles import standard_map

__all__ = [
    "SCOUT", "Action", "Place", "Scout", "action_from_dict", "parse_action",
    "IllegalActionError", "MapError", "RecordError",
    "Event", "GameEnded", "HalfEnded", "Placed", "RoundEnded", "Scouted",
    "COLOURS", "DOUBLES", "Game", "Result", "Hex", "neighbours",
    "Map", "Pool", "Water", "load_map", "PoolResult", "Score", "ScoreSheet", "Waddle",
    "bundled_map", "bundled_maps", "standard_map",
]
