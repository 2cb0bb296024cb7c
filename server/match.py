"""The server's one door to the rules engine: a :class:`Match` is one game being hosted.

Everything the host knows about Waddle is here (colours, maps, bots, records); the table
(:mod:`server.table`) only asks whose turn it is, whether an action is legal, applies
it, and reads the record. Hosting another game means writing another module like this.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from protocol.actions import from_engine, to_engine
from protocol.messages import ActionForm, BundledMap, FileMap, Settings, StandardMap
from waddle import COLOURS, Game, IllegalActionError, action_from_dict
from waddle.hex.bots import BOTS, make_bot
from waddle.hex.bundled import bundled_map
from waddle.hex.maps import Map, load_map
from waddle.hex.record import from_record, to_record
from waddle.hex.tiles import standard_map

#: The seat colours, in the order free seats take them.
SEAT_COLOURS: tuple[str, ...] = COLOURS

#: Bot kinds the host can run.
BOT_KINDS: tuple[str, ...] = tuple(BOTS)

#: A bot: given a private copy of the game, return its action (may run in a worker thread).
Chooser = Callable[[Game], ActionForm]


def make_map(settings: Settings, players: int) -> tuple[Map, int | None]:
    """The map ``settings`` choose for ``players`` seats, and the seed it was made with.

    Raises:
        ValueError: an unknown bundled map, or a map file that cannot be read or used
            (:class:`waddle.MapError`, naming the file and the problem).
    """
    choice = settings.map
    if isinstance(choice, StandardMap):
        seed = choice.seed if choice.seed is not None else random.SystemRandom().randrange(2**31)
        return standard_map(players, seed), seed
    if isinstance(choice, BundledMap):
        return bundled_map(choice.name), None
    assert isinstance(choice, FileMap)
    return load_map(choice.path), None


def opening_order(colours: Sequence[str], seat_order: str, seed: int | None) -> list[str]:
    """The opening turn order of the seats ``colours``: as seated, or shuffled.

    RULES.md "Setup": "Seating order is random (seeded) unless given." ``seat_order`` is
    ``"seated"`` (``colours`` as given) or ``"random"``: shuffled by ``seed`` (the same
    seed, the same order, in any process), or unpredictably when ``seed`` is ``None``.
    """
    order = list(colours)
    if seat_order == "random":
        rng = random.Random(f"waddle seat order {seed}") if seed is not None else random.SystemRandom()
        rng.shuffle(order)
    return order


def check_settings(settings: Settings, map: Map | None = None) -> None:
    """Raise ``ValueError`` (the message says why) if ``settings`` cannot be played: an
    unknown bot kind, a map that cannot be made, or ``settings.players`` outside the
    map's ``players`` range (``map``: the host's own map, instead of the one the
    settings choose)."""
    for kind in settings.bots:
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}: expected one of {', '.join(BOTS)}")
    choice, label = settings.map, "the host's map"
    if not isinstance(choice, StandardMap):
        chosen = make_map(settings, settings.players)[0]
        if map is None:
            map = chosen
            label = f"bundled map {choice.name!r}" if isinstance(choice, BundledMap) else f"map file {choice.path}"
    if map is None:
        return
    low, high = map.players
    if not low <= settings.players <= high:
        raise ValueError(f"the {label} is for {low} to {high} players, not {settings.players}")


class Match:
    """One hosted game: the engine's :class:`~waddle.Game` and the seed of its map."""

    def __init__(self, game: Game, seed: int | None) -> None:
        self.game = game
        self.seed = seed

    @classmethod
    def new(cls, settings: Settings, colours: Sequence[str], map: Map | None = None,
            seed: int | None = None, order_seed: int | None = None) -> Match:
        """A new game for the seats ``colours`` (in seat order) with ``settings``, on ``map``
        (made with ``seed``) if given, else on the map the settings choose. The opening
        turn order is :func:`opening_order` (``order_seed``, else the map's seed).

        Raises:
            ValueError: the map cannot be made (see :func:`make_map`) or the players are wrong.
        """
        if map is None:
            map, seed = make_map(settings, len(colours))
        order = opening_order(colours, settings.seat_order, order_seed if order_seed is not None else seed)
        return cls(Game(map, order, mirror_match=settings.mirror_match), seed)

    @classmethod
    def replay(cls, record: dict[str, Any], source: str = "<record>"
               ) -> tuple[Match, dict[str, Any], list[tuple[str, ActionForm, list[dict]]]]:
        """The match a saved record reaches, its record before any action, and each
        action's ``(player, action, events)``.

        Raises:
            waddle.RecordError: the record does not load (naming ``source``, the place and
                the problem).
        """
        from_record(record, source=source)  # checks every action, naming the bad one
        start = from_record({**record, "actions": []}, source=source)
        match = cls(start, record.get("seed"))
        initial = match.record()
        played = []
        for item in record["actions"]:
            action = action_from_dict(item)
            events = start.apply(action)
            played.append((item["player"], from_engine(action), [e.to_dict() for e in events]))
        return match, initial, played

    @property
    def players(self) -> tuple[str, ...]:
        """Colours in opening turn order."""
        return self.game.players

    @property
    def current_player(self) -> str | None:
        """The colour to act, ``None`` when the game is over."""
        return self.game.current_player

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def actions(self) -> int:
        """Actions played so far."""
        return len(self.game)

    def illegal(self, form: ActionForm) -> str | None:
        """Why ``form`` is illegal now (the rule), or ``None`` if it is legal."""
        try:
            self.game.check(to_engine(form))
        except IllegalActionError as exc:
            return str(exc)
        return None

    def apply(self, form: ActionForm) -> tuple[str, list[dict[str, Any]]]:
        """Play a legal action for the current player: ``(player, event dicts)``."""
        player = self.game.current_player
        return player, [event.to_dict() for event in self.game.apply(to_engine(form))]

    def record(self, **extra: Any) -> dict[str, Any]:
        """The game record so far (``docs/records.md``), with ``extra`` top-level fields."""
        return to_record(self.game, seed=self.seed, **extra)

    def position(self) -> Game:
        """A private copy of the game for a bot to think on."""
        return self.game.copy()


def make_chooser(kind: str, seed: int | None) -> Chooser:
    """A bot of ``kind`` as a function from a game copy to a wire action.

    Raises:
        ValueError: an unknown kind.
    """
    bot = make_bot(kind, seed)
    return lambda game: from_engine(bot.choose(game))

