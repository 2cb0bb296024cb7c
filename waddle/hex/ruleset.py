"""The hex game behind the ruleset interface (:mod:`waddle.ruleset`).

:data:`RULESET` is registered as ``"hex"``. A seat is a colour (:data:`waddle.hex.game.COLOURS`);
seat numbers are the opening turn order, the order of :attr:`Game.players`. The game has
no secrets: every audience sees the same events and the same view, which is the game so
far (:class:`HexViewData`: the map, the players, the moves).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePath
from typing import Annotated, Any, Literal

import msgspec

from waddle.errors import IllegalActionError, ViewError
from waddle.hex.actions import Action, Coord, Place, Scout
from waddle.hex.analysis import analyse
from waddle.hex.bots import BOTS, SEARCHES, make_bot
from waddle.hex.events import Event, HalfEnded, Placed, Scouted, TookBack
from waddle.hex.game import COLOURS, Game
from waddle.hex.maps import MAX_HEXES, Map, MapError
from waddle.hex.options import BundledMap, FileMap, HexOptions, StandardMap, describe, make_map
from waddle.hex.record import FORMAT, from_record, to_record
from waddle.jsonform import json_form
from waddle.ruleset import (
    Analysis,
    Audience,
    Level,
    Match,
    Outcome,
    Prepared,
    Ruleset,
    SeatLook,
    View,
)

Colour = Literal["red", "blue", "yellow", "green", "purple"]


class HexData(msgspec.Struct, frozen=True, omit_defaults=True):
    """One hex of a map as a view carries it (the record's map form, ``docs/records.md``)."""

    q: Coord
    r: Coord
    terrain: Literal["ice", "water"]
    number: int | None = None
    fish: tuple[int, ...] = ()


class MapData(msgspec.Struct, frozen=True):
    """A map as a view carries it: its hexes."""

    hexes: Annotated[tuple[HexData, ...], msgspec.Meta(max_length=MAX_HEXES)]


class Move(msgspec.Struct, frozen=True):
    """One action played, with the colour that played it."""

    player: Colour
    action: Action


class HexViewData(msgspec.Struct, frozen=True, kw_only=True):
    """The hex game as every audience sees it: the ``map``, the ``players`` (colours in
    opening turn order), the ``mirror_match`` option and every ``moves`` so far."""

    map: MapData
    players: tuple[Colour, ...]
    mirror_match: bool = False
    moves: tuple[Move, ...] = ()


class HexRuleset(Ruleset):
    """Waddle, the hex game (RULES.md)."""

    name = "hex"
    title = "Waddle"
    players = (2, 5)
    seats = tuple(SeatLook(colour, colour) for colour in COLOURS)
    options_type = HexOptions
    action_type = Action
    event_type = Event
    view_type = HexViewData
    bots = tuple(BOTS)
    timed_bots = SEARCHES
    record_format = FORMAT
    #: The difficulty levels (a project decision, measured in docs/arena.md).
    levels = {"easy": Level("random"), "medium": Level("greedy"), "hard": Level("search", 1.0)}

    def check_options(self, options: HexOptions, players: int, *, prepared: Prepared | None = None,
                      from_peer: bool = False, host: HexOptions | None = None) -> None:
        """Raise ``ValueError`` if ``players`` cannot play on the map (``prepared``'s, when
        the host made it, else the one ``options`` choose) or a peer chose a map file
        other than the host's own (``host.map``)."""
        if from_peer and isinstance(options.map, FileMap) and (host is None or options.map != host.map):
            raise ValueError("a map file can only be chosen on the host")
        if not self.players[0] <= players <= self.players[1]:
            raise ValueError(f"Waddle is for 2 to 5 players, not {players}")
        map = label = None
        if not isinstance(options.map, StandardMap):
            map, label = make_map(options.map, players)[0], describe(options.map)
        if prepared is not None:
            map, label = prepared.data, "the host's map"
        if map is None:
            return
        low, high = map.players
        if not low <= players <= high:
            raise ValueError(f"the {label} is for {low} to {high} players, not {players}")

    def prepare(self, options: HexOptions, players: int, seed: int | None) -> Prepared:
        """Make the map (a standard map without a seed gets a random one): ``data`` is the
        :class:`~waddle.hex.maps.Map`, ``seed`` the standard map's seed."""
        try:
            map, map_seed = make_map(options.map, players)
        except MapError as exc:
            raise ValueError(str(exc)) from None
        return Prepared(map_seed, map)

    def new_match(self, prepared: Prepared, options: HexOptions, labels: Sequence[str]) -> HexMatch:
        return HexMatch(Game(prepared.data, labels, mirror_match=options.mirror_match), prepared.seed)

    def load(self, record: Mapping[str, Any], *, source: str = "<record>") -> HexMatch:
        return HexMatch(from_record(record, source=source), record.get("seed"))

    def follow(self, data: HexViewData, label: str | None) -> HexView:
        try:
            map = Map.from_dict(json_form(data.map), source="view: map")
            game = Game(map, data.players, mirror_match=data.mirror_match)
        except ValueError as exc:
            raise ViewError(f"not a hex game: {exc}") from None
        view = HexView(game, game.players.index(label) if label in game.players else None)
        for number, move in enumerate(data.moves, 1):
            if move.player != game.current_player:
                raise ViewError(f"move {number}: {move.player} played, but it was {game.current_player}'s turn")
            try:
                view.events.extend(game.apply(move.action))
            except IllegalActionError as exc:
                raise ViewError(f"move {number}: {move.action} is illegal: {exc}") from None
        return view

    def make_bot(self, kind: str, seed: int | None = None, **options: Any):
        kind, options = self.resolve_bot(kind, options)
        return make_bot(kind, seed, **options)

    def replay(self, record: Mapping[str, Any], *, source: str = "<record>") -> tuple[HexMatch, list[tuple[int, Action]]]:
        game = from_record(record, source=source)
        start = Game(game.map, game.players, mirror_match=game.mirror_match)
        return HexMatch(start, record.get("seed")), [(game.players.index(p), a) for p, a in game.moves]

    def analyse(self, position: Game, seconds: float, *, seed: int | None = None,
                iterations: int | None = None, stop: Callable[[], bool] = lambda: False) -> Analysis:
        """The search bot's verdict (:func:`waddle.hex.analysis.analyse`): every player's
        expected final total, and the current player's best action."""
        return analyse(position, seconds, seed=seed, iterations=iterations, stop=stop)

    def reseeded(self, options: HexOptions, seed: int) -> HexOptions:
        """A standard map gets ``seed`` (a new layout); other maps stay."""
        if isinstance(options.map, StandardMap):
            return msgspec.structs.replace(options, map=StandardMap(seed=seed))
        return options

    def upgrade_settings(self, settings: Mapping[str, Any], protocol: int) -> dict[str, Any]:
        """Protocol 1 (the hex game alone) kept the options (``map``, ``mirror_match``,
        ``realtime_score``) among the table's settings: they move into ``options``."""
        settings = dict(settings)
        if protocol == 1:
            names = [field.encode_name for field in msgspec.structs.fields(HexOptions)]
            settings["options"] = {name: settings.pop(name) for name in names if name in settings}
        return settings

    def setup_name(self, options: HexOptions) -> str:
        """The map: ``"standard"``, a bundled map's name or a map file's name, with
        ``" (mirror)"`` for a mirror match."""
        choice = options.map
        name = choice.name if isinstance(choice, BundledMap) else \
            PurePath(choice.path).name if isinstance(choice, FileMap) else "standard"
        return f"{name} (mirror)" if options.mirror_match else name


RULESET = HexRuleset()


def _outcome(game: Game) -> Outcome:
    result = game.result()
    seat = {colour: i for i, colour in enumerate(game.players)}
    return Outcome(result.finished, tuple(result.scores[p].total for p in game.players),
                   tuple(seat[p] for p in result.winners), tuple(seat[p] for p in result.leaders),
                   result)


def check_undo(game: Game, seat: int) -> None:
    """Raise unless the player at ``seat`` played the last action of ``game`` and it is not over.

    Raises:
        IllegalActionError: naming why not.
    """
    if game.is_over:
        raise IllegalActionError("the game is over")
    if not len(game):
        raise IllegalActionError("nothing has been played yet")
    last = game.moves[-1][0]
    if last != game.players[seat]:
        raise IllegalActionError(f"{last} acted last: only your own last action can be taken back")


def view_data(game: Game) -> HexViewData:
    """What every audience sees of ``game``: its map, players, mirror match and moves."""
    return HexViewData(map=msgspec.convert(game.map.to_dict(), MapData), players=game.players,
                       mirror_match=game.mirror_match,
                       moves=tuple(Move(player, action) for player, action in game.moves))


def _to_act(game: Game) -> frozenset[int]:
    player = game.current_player
    return frozenset() if player is None else frozenset((game.players.index(player),))


class HexMatch(Match):
    """A hosted hex game: the engine's :class:`~waddle.hex.game.Game` and its map's ``seed``."""

    ruleset = RULESET

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed
        self.labels = game.players

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def to_act(self) -> frozenset[int]:
        return _to_act(self.game)

    def check(self, seat: int, action: Any) -> None:
        self._check_seat(seat, action)
        self.game.check(action)

    def _check_seat(self, seat: int, action: Any) -> None:
        """What the engine's own check does not know: whose turn it is, what an action is."""
        game = self.game
        if game.current_player is not None and game.players[seat] != game.current_player:
            raise IllegalActionError(f"it is {game.current_player}'s turn")
        if not isinstance(action, (Place, Scout)):
            raise IllegalActionError(f"not an action of Waddle: {action!r}")

    def apply(self, seat: int, action: Action) -> list[Event]:
        self._check_seat(seat, action)
        return self.game.apply(action)  # checks the rules itself

    def legal(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may send now (:meth:`Game.legal_actions
        <waddle.hex.game.Game.legal_actions>`: places in ``(q, r)`` order, single before
        double, then scout), or none when it is not the seat's turn. The game has no
        secrets, so any seat may know them."""
        return self.game.legal_actions() if seat in _to_act(self.game) else ()

    def check_undo(self, seat: int) -> None:
        """A seat may take back its last action while nobody has acted since and the
        game is not over (Board Game Arena's policy); in the first action of a half it
        also takes back the half's end."""
        check_undo(self.game, seat)

    def undo(self, seat: int) -> list[Event]:
        self.check_undo(seat)
        player = self.game.players[seat]
        return [TookBack(player, self.game.pop())]

    def pause_after(self, events: list[Event]) -> str | None:
        """Half-time after the first half of a mirror match."""
        return "half-time" if any(isinstance(e, HalfEnded) for e in events) else None

    def view(self, audience: Audience) -> HexViewData:
        return view_data(self.game)

    def record(self, **extra: Any) -> dict[str, Any]:
        return to_record(self.game, seed=self.seed, **extra)

    def outcome(self) -> Outcome:
        return _outcome(self.game)

    def position(self, seat: int) -> Game:
        return self.game.copy()

    def __len__(self) -> int:
        return len(self.game)


class HexView(View):
    """One audience's replica of a hex game: a :class:`~waddle.hex.game.Game` advanced by
    the main event of each action (``placed`` or ``scouted``), every derived event checked."""

    def __init__(self, game: Game, audience: Audience) -> None:
        self.game = game
        self.audience = audience
        self.labels = game.players
        self.events: list[Event] = []

    def apply(self, events: list[Event]) -> None:
        game = self.game
        first = events[0] if events else None
        if isinstance(first, Placed):
            action: Action = Place(first.hex, first.double)
        elif isinstance(first, Scouted):
            action = Scout()
        else:
            raise ViewError(f"an action's events start with placed or scouted, not {first!r}")
        if first.player != game.current_player:
            raise ViewError(f"{first.player} played, but it is {game.current_player}'s turn here")
        try:
            produced = game.apply(action)
        except IllegalActionError as exc:
            raise ViewError(f"{action} is illegal here: {exc}") from None
        if produced != list(events):
            game.pop()
            raise ViewError(f"{action} yields other events here")
        self.events.extend(produced)

    def can_undo(self, seat: int) -> bool:
        try:
            check_undo(self.game, seat)
        except IllegalActionError:
            return False
        return True

    def undo(self, events: list[Event]) -> None:
        game = self.game
        first = events[0] if len(events) == 1 else None
        if not isinstance(first, TookBack) or first.player not in game.players:
            raise ViewError(f"a take-back is one took_back event, not {events!r}")
        try:
            check_undo(game, game.players.index(first.player))
        except IllegalActionError as exc:
            raise ViewError(f"{first.player} cannot take back here: {exc}") from None
        if game.moves[-1][1] != first.action:
            raise ViewError(f"{first.player}'s last action here is not {first.action}")
        game.pop()
        self.events.extend(events)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def data(self) -> HexViewData:
        return view_data(self.game)

    def to_act(self) -> frozenset[int]:
        return _to_act(self.game)

    def legal_actions(self) -> tuple[Action, ...]:
        return self.game.legal_actions() if self.audience in self.to_act() else ()

    def outcome(self) -> Outcome:
        return _outcome(self.game)

    def position(self) -> Game:
        return self.game.copy()
