"""The ruleset interface: the one door between a game's rules and what hosts or shows it.

A game plugs into the host, the protocol and the clients by implementing three classes
(after OpenSpiel's game/state split and boardgame.io's player views):

- :class:`Ruleset`: the game's static facts (name, seats, players, the msgspec types of
  its options, actions, events and views, its bots) and its factories: check options,
  prepare and start a :class:`Match`, load a record, follow a :class:`View`, make a bot.
- :class:`Match`: one game being played, the host's authoritative state. Seats are
  numbers ``0 .. n-1`` in turn order; :meth:`Match.to_act` says which seats may act now
  (a set: a game may ask several seats at once), :meth:`Match.apply` checks and plays an
  action by a seat and returns typed events, :meth:`Match.redact` removes from them what
  an audience may not see, :meth:`Match.view` is everything an audience may know.
- :class:`View`: what one audience (a seat, or the spectators) knows of a match: built
  from the match's view data, kept current by the redacted events; what a client's
  screen and bots read.

Analysis is optional too: :meth:`Ruleset.analyse` asks the game's search bot what a
position is worth (:class:`Analysis`: the expected final score of every seat and the best
action), and :meth:`Ruleset.replay` gives a record's opening match and its actions, so a
viewer can step through it; both know only the position or record they are given.

What the host tells a bot that asks for it (``docs/protocol.md``, Whose turn and what is
legal) comes from here too: :meth:`Match.to_act`, and :meth:`Match.legal`, a seat's legal
actions listed for the wire (entries of :attr:`Ruleset.legal_type`; a game that cannot
list them cheaply keeps the default, ``None``). :meth:`Match.outdates` says which seats an
action makes decide again (a decision made before it is ``stale``): by default every
seat, but a game with a simultaneous phase spares the seats another seat's hidden choice
changes nothing for.

Take-backs are optional: :meth:`Match.check_undo` and :meth:`Match.undo` take back a
seat's own last action (Board Game Arena's policy: as long as nobody has acted since),
and :meth:`View.undo` follows; a game whose actions reveal secrets (a card drawn) keeps
the defaults, which refuse every take-back.

An **audience** is a seat number, or ``None`` for a spectator. Rulesets are found by
name in a registry (:func:`get_ruleset`); the built-in ones are imported on first use.
Nothing here does I/O but :meth:`Ruleset.prepare`, which may read a map or deck file.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

import msgspec

from waddle.errors import IllegalActionError, RecordError, ViewError

#: An audience: a seat number, or ``None`` for a spectator.
Audience = int | None

#: The built-in rulesets: name -> the module whose ``RULESET`` it is.
BUILT_IN: dict[str, str] = {"hex": "waddle.hex.ruleset", "downtown": "waddle.downtown.ruleset"}
#: The ruleset a host plays unless told otherwise.
DEFAULT_RULESET = "hex"
#: The difficulty levels players choose, easiest first (every game maps each onto a bot).
LEVELS = ("easy", "medium", "hard")


class SeatLook(msgspec.Struct, frozen=True):
    """How a seat is told apart: its ``label`` in the game (unique at a table, e.g.
    ``"red"``) and the ``colour`` it is drawn in (a terminal style name)."""

    label: str
    colour: str


class Outcome(msgspec.Struct, frozen=True):
    """The score of a match, now or at its end.

    ``scores``: each seat's points, in seat order. ``winners``: the seats with the most
    points once ``finished`` (a tie shares the victory, unless the game breaks it), else
    empty. ``leaders``: the seats ahead now. ``detail``: the game's own breakdown (the hex
    game: :class:`waddle.hex.game.Result`).
    """

    finished: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    leaders: tuple[int, ...]
    detail: Any = None


class Level(msgspec.Struct, frozen=True):
    """What a difficulty level (:data:`LEVELS`) plays as: the bot ``kind`` and its time
    budget, ``seconds`` a move (``None``: the bot has none, or keeps its default).

    The mapping is a decision of the project (docs/arena.md gives each level's measured
    strength); :attr:`Ruleset.levels` holds a game's.
    """

    kind: str
    seconds: float | None = None

    def describe(self) -> str:
        """The bot it is, for people: ``"search, 1 s a move"`` or ``"greedy"``."""
        return self.kind if self.seconds is None else f"{self.kind}, {self.seconds:g} s a move"


class Prepared(msgspec.Struct, frozen=True):
    """What :meth:`Ruleset.prepare` made ready for a match (the slow part: a map, a deck).

    ``seed``: the seed the match is reproducible from (the hex game: its standard map's
    seed), also the default seed of the opening turn order. ``data``: the ruleset's own.
    """

    seed: int | None
    data: Any = None


class Candidate(msgspec.Struct, frozen=True):
    """One action the search weighed at the root: the ``action``, the ``visits`` it got
    and the ``expected`` final score of every seat after it (points, in seat order)."""

    action: Any
    visits: int
    expected: tuple[float, ...]


class Analysis(msgspec.Struct, frozen=True):
    """What the search bot thinks of a position (:meth:`Ruleset.analyse`).

    ``seat``: the seat to act, whose choice ``best`` is (``None`` once the game is over,
    then ``expected`` is the final score itself; see :meth:`of` for how it is chosen).
    ``expected``: every seat's expected final score in points, in seat order, if ``best``
    is played. ``candidates``: the actions
    weighed, most visited first. ``iterations``: the search's iterations (0 at the end).
    """

    seat: int | None
    best: Any
    expected: tuple[float, ...]
    candidates: tuple[Candidate, ...] = ()
    iterations: int = 0

    #: Candidates with at least this share of the most visited one's visits are sound:
    #: the search found them as good for its reward (winning, then the margin).
    SOUND = 0.5

    @classmethod
    def of(cls, seat: int, candidates: Sequence[Candidate], iterations: int) -> Analysis:
        """The analysis of a search for ``seat`` that weighed ``candidates`` (at least one):
        the best is the sound candidate (:attr:`SOUND`) with the highest expected score
        for ``seat``, so a search whose reward no longer tells moves apart (a game won
        anyway) still names the move that scores most."""
        ranked = tuple(sorted(candidates, key=lambda c: -c.visits))
        floor = ranked[0].visits * cls.SOUND
        best = max((c for c in ranked if c.visits >= floor), key=lambda c: c.expected[seat])
        return cls(seat, best.action, best.expected, ranked, iterations)


class Bot(Protocol):
    """A bot: ``choose(position)`` returns a legal action for the seat that the position
    (from :meth:`Match.position` or :meth:`View.position`) is for, without changing it.

    A bot class may set ``quick = True`` when it nearly always chooses in well under a
    millisecond (a random bot): a host then runs its choice on its event loop, where
    handing it to a worker thread would cost more than the choice. Any other bot thinks
    in a worker thread."""

    name: str

    def choose(self, position: Any) -> Any: ...


def bot_of(bots: Mapping[str, Callable[..., Bot]], kind: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot of ``kind`` from a game's table of bot classes ``bots`` (name -> class
    taking ``seed`` and ``options``): each game's ``make_bot``.

    Raises:
        ValueError: for an unknown kind, naming the known ones, or bad options.
    """
    try:
        cls = bots[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}: expected one of {', '.join(bots)}") from None
    try:
        return cls(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for the {kind} bot: {exc}") from None


class Match(ABC):
    """One game in play: the host's authoritative state (see the module docstring)."""

    #: The ruleset this match follows.
    ruleset: Ruleset
    #: The seats' labels, by seat number (seat order is the opening turn order).
    labels: tuple[str, ...]

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that may act now (empty once the game is over)."""

    @abstractmethod
    def check(self, seat: int, action: Any) -> None:
        """Do nothing if ``seat`` may play ``action`` now.

        Raises:
            waddle.errors.IllegalActionError: naming the rule that forbids it (also for
                a seat that may not act now).
        """

    @abstractmethod
    def apply(self, seat: int, action: Any) -> list[Any]:
        """Check and play ``action`` for ``seat``; return the events it caused, in order.

        Raises:
            waddle.errors.IllegalActionError: see :meth:`check`; nothing changed.
        """

    def check_undo(self, seat: int) -> None:
        """Do nothing if ``seat`` may take back its last action now (the game's policy).

        The default: never (a game whose actions reveal secrets keeps it).

        Raises:
            waddle.errors.IllegalActionError: naming why not.
        """
        raise IllegalActionError(f"{self.ruleset.title} has no take-backs")

    def undo(self, seat: int) -> list[Any]:
        """Take back ``seat``'s last action; return the events saying so (what
        :meth:`View.undo` follows). The match is exactly as it was before that action.

        Raises:
            waddle.errors.IllegalActionError: see :meth:`check_undo`; nothing changed.
        """
        self.check_undo(seat)
        raise NotImplementedError  # a game that allows take-backs overrides both

    def pause_after(self, events: list[Any]) -> str | None:
        """What the table should pause for after an action that caused ``events``: a
        name for people (the hex game: ``"half-time"`` once the first half of a mirror
        match ended), or ``None`` to play on. The host holds the game until every
        person says to go on, or a short timeout (``docs/protocol.md``, Pauses)."""
        return None

    def legal(self, seat: int) -> Sequence[Any] | None:
        """The actions ``seat`` may send now, listed for the wire (``docs/protocol.md``):
        entries of :attr:`Ruleset.legal_type`, each an action that may be sent as it is,
        empty when the seat may not act; built from what the seat may know only. ``None``:
        the game cannot list them cheaply (the default)."""
        return None

    def outdates(self, events: list[Any], seat: int) -> bool:
        """Whether the action that caused ``events`` (the match's own, unredacted) makes
        ``seat`` decide again: a decision ``seat`` made before it is refused ``stale``.

        The default: every action outdates every seat. A game with a simultaneous phase
        says ``False`` for a seat whose options another seat's hidden choice leaves as they
        were (Waddle Downtown's setup discards), and must decide only from what ``seat``
        sees (the answer is visible to it: ``stale`` or not)."""
        return True

    def redact(self, events: list[Any], audience: Audience) -> list[Any]:
        """``events`` as ``audience`` may see them. A game without secrets returns
        ``events`` itself for every audience, so the host encodes them once."""
        return events

    @abstractmethod
    def view(self, audience: Audience) -> Any:
        """Everything ``audience`` may know now, as the ruleset's ``view_type``."""

    def sample(self, audience: Audience, rng: random.Random) -> Match:
        """A match that ``audience`` cannot tell from this one: everything it may not know
        (the other seats' hands and hidden choices, the order of a deck) dealt afresh by
        ``rng``, consistently with all it has seen (a determinization, as information-set
        search calls it). It defines the game's secrets: :meth:`view` and :meth:`redact`
        must give ``audience`` the same in every such match (``tests/test_ruleset_contract.py``
        checks it). The result shares no state with this match: acting on it leaves this
        one as it is.

        The default, for a game without :attr:`Ruleset.secrets`: a copy of this match
        (its record loaded again).

        Raises:
            NotImplementedError: the game keeps secrets and does not say which.
        """
        if self.ruleset.secrets:
            raise NotImplementedError(f"{self.ruleset.title} keeps secrets: its matches must sample")
        return self.ruleset.load(self.record())

    @abstractmethod
    def record(self, **extra: Any) -> dict[str, Any]:
        """The game record so far, JSON-ready (secrets included: give it out only once
        the game is over), with ``extra`` top-level fields."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The score now (final once :attr:`is_over`)."""

    @abstractmethod
    def position(self, seat: int) -> Any:
        """A private copy of what ``seat`` knows, for a bot of that seat to think on."""

    @abstractmethod
    def __len__(self) -> int:
        """The number of actions played."""


class View(ABC):
    """What one audience knows of a match, kept current by events (see the module docstring)."""

    #: The seat this view is for, or ``None`` for a spectator.
    audience: Audience
    #: The seats' labels, by seat number.
    labels: tuple[str, ...]
    #: Every event seen so far, oldest first.
    events: list[Any]

    @abstractmethod
    def apply(self, events: list[Any]) -> None:
        """Follow the events of one action, as the host sent them to this audience.

        Raises:
            waddle.errors.ViewError: they do not follow from what this view knows (the
                view is unchanged; the client should ask for a fresh view).
        """

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its last action now, as far as this view knows
        (the host decides; the default: never)."""
        return False

    def undo(self, events: list[Any]) -> None:
        """Follow the events of a take-back (:meth:`Match.undo`); the default refuses.

        Raises:
            waddle.errors.ViewError: they do not follow (the view is unchanged).
        """
        raise ViewError("this game has no take-backs")

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def data(self) -> Any:
        """What this view knows, as the ruleset's ``view_type``: equal to the match's
        :meth:`Match.view` for this audience while the view is in step with it (so
        :meth:`Ruleset.follow` of it gives this view again)."""

    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that may act now."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """The actions this view's seat may play now (empty when it may not act)."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The score as this audience knows it (final once :attr:`is_over`)."""

    @abstractmethod
    def position(self) -> Any:
        """A private copy of what this seat knows, for a bot of the seat to think on."""


class Ruleset(ABC):
    """A game the host can run and the clients can show (see the module docstring)."""

    #: The registry name, also on the wire (``welcome.game``): ``"hex"``.
    name: ClassVar[str]
    #: The game's title for people: ``"Waddle"``.
    title: ClassVar[str]
    #: Fewest and most players.
    players: ClassVar[tuple[int, int]]
    #: The seats' looks, in the order free seats take them (at least ``players[1]``).
    seats: ClassVar[tuple[SeatLook, ...]]
    #: The msgspec types of the game's options, actions, events and view data.
    options_type: ClassVar[Any]
    action_type: ClassVar[Any]
    event_type: ClassVar[Any]
    view_type: ClassVar[Any]
    #: The msgspec type of an entry of a seat's ``legal`` list (:meth:`Match.legal`):
    #: ``None``, the action type; a game that lists its actions in a compact form (Waddle
    #: Downtown's spreads of penguins) names that form's type.
    legal_type: ClassVar[Any] = None
    #: The bot kinds :meth:`make_bot` makes, the default first.
    bots: ClassVar[tuple[str, ...]]
    #: The bot kinds among :attr:`bots` that search and so take a ``seconds`` budget a move.
    timed_bots: ClassVar[tuple[str, ...]] = ()
    #: The ``format`` field of the game's records.
    record_format: ClassVar[str]
    #: Whether the game keeps secrets (its audiences see different views: hands, a
    #: deck's order): its record, which holds them, is given out only after the game, and
    #: the replay viewer analyses a game of it only once it is over.
    secrets: ClassVar[bool] = False
    #: The difficulty levels by name (every one of :data:`LEVELS`): the bot each plays as.
    #: :meth:`make_bot` and :meth:`check_bots` take a level's name wherever a kind goes.
    levels: ClassVar[Mapping[str, Level]] = {}

    @abstractmethod
    def check_options(self, options: Any, players: int, *, prepared: Prepared | None = None,
                      from_peer: bool = False, host: Any = None) -> None:
        """Raise ``ValueError`` (the message says why) if ``options`` cannot be played
        by ``players`` players: ``prepared``, when given, is what the host made ready
        itself (then used instead of what ``options`` choose); ``from_peer``: the options
        came from a client (the owner's ``configure``), which may not name files on the
        host, but may keep a file ``host`` (the options the host itself chose) names."""

    @abstractmethod
    def prepare(self, options: Any, players: int, seed: int | None) -> Prepared:
        """Make ready what a match with ``options`` needs (may be slow, or read a file:
        run it in a worker thread). ``seed`` is the host's seed, ``None`` for random.

        Raises:
            ValueError: the options cannot be played (naming the file and the problem).
        """

    @abstractmethod
    def new_match(self, prepared: Prepared, options: Any, labels: Sequence[str]) -> Match:
        """A new match for the seats ``labels`` (in opening turn order).

        Raises:
            ValueError: wrong labels or number of players.
        """

    @abstractmethod
    def load(self, record: Mapping[str, Any], *, source: str = "<record>") -> Match:
        """The match a record (parsed JSON) reaches, replayed through the rules.

        Raises:
            waddle.errors.RecordError: naming ``source``, the place and the problem.
        """

    @abstractmethod
    def follow(self, data: Any, label: str | None) -> View:
        """A view from the view data a match gave to the seat labelled ``label`` (``None``,
        or a label not in the game: a spectator's).

        Raises:
            waddle.errors.ViewError: the data does not describe a game of this ruleset.
        """

    @abstractmethod
    def make_bot(self, kind: str, seed: int | None = None, **options: Any) -> Bot:
        """A new bot of ``kind`` (one of :attr:`bots`, or a level of :attr:`levels`, made
        as :meth:`resolve_bot` says); ``options`` such as ``seconds``.

        Raises:
            ValueError: an unknown kind (naming the known ones) or bad options.
        """

    def replay(self, record: Mapping[str, Any], *, source: str = "<record>") -> tuple[Match, list[tuple[int, Any]]]:
        """The match at the start of ``record`` (nothing played yet) and the record's actions
        as ``(seat, action)`` in order, every one checked (what a replay viewer steps through).

        Raises:
            waddle.errors.RecordError: as :meth:`load`.
            NotImplementedError: the game has no replays.
        """
        raise NotImplementedError(f"{self.title} has no replays")

    def analyse(self, position: Any, seconds: float, *, seed: int | None = None,
                iterations: int | None = None, stop: Callable[[], bool] = lambda: False) -> Analysis:
        """What the game's search bot thinks of ``position`` (from :meth:`Match.position`
        or :meth:`View.position`: what the seat to act knows, nothing more) after about
        ``seconds`` of search or ``iterations`` (at least one iteration; with ``seed`` and
        ``iterations`` alone the same answer each time), or as soon as ``stop()`` is true.

        Pure computation, no I/O: run it in a worker thread. The default refuses.

        Raises:
            NotImplementedError: the game has no analysis.
        """
        raise NotImplementedError(f"{self.title} has no analysis")

    def reseeded(self, options: Any, seed: int) -> Any:
        """``options`` for another game like the last, made afresh from ``seed`` (a
        rematch: the hex game gives a standard map the new seed). The default: the same
        options."""
        return options

    def upgrade_settings(self, settings: Mapping[str, Any], protocol: int) -> dict[str, Any]:
        """A saved table's settings (plain JSON, as a host of protocol version ``protocol``
        wrote them) in today's shape, the game's own options under ``"options"``: a host
        resuming an old save asks the game, which alone knows its options' history. The
        default: as they are (a game whose saves never changed shape)."""
        return dict(settings)

    def setup_name(self, options: Any) -> str:
        """The map, deck or variant ``options`` play, in a few words, for the history's
        split of a player's games (``"standard"``, ``"lagoon"``). The default: ``"standard"``."""
        return "standard"

    def check_bots(self, kinds: Sequence[str]) -> None:
        """Raise ``ValueError`` naming the first of ``kinds`` that is neither a bot kind nor
        a level of this game (the message lists both)."""
        for kind in kinds:
            if kind not in self.bots and kind not in self.levels:
                raise ValueError(f"unknown bot {kind!r}: expected a level ({', '.join(self.levels)}) "
                                 f"or a bot kind ({', '.join(self.bots)})")

    def resolve_bot(self, kind: str, options: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The bot kind and options that ``kind`` with ``options`` stands for: a level's
        bot and budget (``options`` given win over the level's), else ``kind`` as it is."""
        level = self.levels.get(kind)
        if level is None:
            return kind, dict(options)
        budget = {} if level.seconds is None else {"seconds": level.seconds}
        return level.kind, {**budget, **options}

    def bot_choices(self) -> tuple[str, ...]:
        """What players may choose for a bot seat: the levels, easiest first, then the kinds."""
        return (*self.levels, *self.bots)

    def describe_bot(self, kind: str) -> str:
        """``kind`` for people: a level with the bot it is (``"hard (search, 1 s a move)"``),
        else the kind itself."""
        level = self.levels.get(kind)
        return kind if level is None else f"{kind} ({level.describe()})"

    def label_look(self, label: str) -> SeatLook:
        """The look of the seat labelled ``label``.

        Raises:
            ValueError: not a seat label of this game.
        """
        for look in self.seats:
            if look.label == label:
                return look
        raise ValueError(f"unknown seat {label!r}: expected one of "
                         f"{', '.join(s.label for s in self.seats)}")

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}: {self.title}>"


def get_ruleset(name: str) -> Ruleset:
    """The registered ruleset called ``name``.

    Raises:
        ValueError: no such ruleset (the message names the known ones).
    """
    module = BUILT_IN.get(name)
    if module is None:
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(BUILT_IN)}")
    return importlib.import_module(module).RULESET


def rulesets() -> dict[str, Ruleset]:
    """Every built-in ruleset by name."""
    return {name: get_ruleset(name) for name in BUILT_IN}


def check_record(data: Any, source: str, format: str, version: int) -> int | None:
    """Check the parts every game's record shares: a JSON object of ``format`` and
    ``version`` with a ``seed`` (an integer or null); return the seed (docs/records.md).

    Raises:
        waddle.errors.RecordError: naming ``source``, the field and the problem.
    """
    if not isinstance(data, Mapping):
        raise RecordError(f"{source}: a record must be a JSON object")
    if data.get("format") != format:
        raise RecordError(f"{source}: format: expected {format!r}, found {data.get('format')!r}")
    if data.get("version") != version:
        raise RecordError(f"{source}: version: this program reads version {version}, "
                          f"found {data.get('version')!r}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"{source}: seed must be an integer or null")
    return seed


def ruleset_of_record(data: Any) -> Ruleset | None:
    """The ruleset whose records have the ``format`` of ``data`` (a parsed record), or ``None``."""
    if not isinstance(data, Mapping):
        return None
    return next((r for r in rulesets().values() if r.record_format == data.get("format")), None)


def opening_order(labels: Sequence[str], seat_order: str, seed: int | None) -> list[str]:
    """The opening turn order of the seats ``labels``: as seated, or shuffled.

    RULES.md "Setup" (and DOWNTOWN.md "Setup" 3): "Seating order is random (seeded) unless
    given." ``seat_order`` is ``"seated"`` (``labels`` as given) or ``"random"``: shuffled
    by ``seed`` (the same seed, the same order, in any process), or unpredictably when
    ``seed`` is ``None``.
    """
    order = list(labels)
    if seat_order == "random":
        rng = random.Random(f"waddle seat order {seed}") if seed is not None else random.SystemRandom()
        rng.shuffle(order)
    return order
