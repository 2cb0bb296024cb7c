"""Waddle: the rules engine of the hex board game *Waddle* (2024, Corné van Moorsel).

Pure Python, no I/O but the explicit load and save functions. Start with
:class:`Game` on a :class:`Map` (:func:`standard_map`, :func:`load_map`,
:func:`bundled_map`), list :meth:`Game.legal_actions`, and :meth:`Game.apply` them.
"""

from waddle.errors import IllegalActionError, RecordError
from waddle.hex.actions import SCOUT, Action, Place, Scout, action_from_dict, parse_action
from waddle.hex.bundled import bundled_map, bundled_maps
from waddle.hex.events import Event, GameEnded, HalfEnded, Placed, RoundEnded, Scouted
from waddle.hex.game import COLOURS, DOUBLES, Game, Result
from waddle.hex.hexgrid import Hex, neighbours
from waddle.hex.maps import Map, MapError, Pool, Water, load_map
from waddle.hex.scoring import PoolResult, Score, ScoreSheet, Waddle
from waddle.hex.tiles import standard_map

__all__ = [
    "SCOUT", "Action", "Place", "Scout", "action_from_dict", "parse_action",
    "IllegalActionError", "MapError", "RecordError",
    "Event", "GameEnded", "HalfEnded", "Placed", "RoundEnded", "Scouted",
    "COLOURS", "DOUBLES", "Game", "Result", "Hex", "neighbours",
    "Map", "Pool", "Water", "load_map", "PoolResult", "Score", "ScoreSheet", "Waddle",
    "bundled_map", "bundled_maps", "standard_map",
]
