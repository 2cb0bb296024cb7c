"""A Waddle Downtown table for the UI's tests, without a network: the host's match, the
client's :class:`~client.state.TableState` of one seat (or a spectator) fed what a host
would send, and a controller whose actions the host plays and answers.

Imported by the Downtown UI tests; no tests here.
"""

from __future__ import annotations

from test_ui_kit import FakeSession

from client.state import TableState
from client.ui.controller import Controller
from protocol.messages import Lobby, Played, Rejected, Seated, SeatInfo, Settings, Snapshot, Welcome
from waddle.downtown.options import DowntownOptions
from waddle.downtown.ruleset import DowntownMatch
from waddle.downtown.state import State
from waddle.errors import IllegalActionError
from waddle.ruleset import get_ruleset

DOWNTOWN = get_ruleset("downtown")
NAMES = ("Ann", "Bob", "Cy", "Di")


class Host(FakeSession):
    """A fake session whose actions a host's match plays at once: ``played`` comes back to
    the state (or ``rejected``, with the rule)."""

    def __init__(self, state, match, seat: int | None) -> None:
        super().__init__(state)
        self.match, self.seat = match, seat

    def act(self, action) -> bool:
        if not super().act(action):
            return False
        try:
            self.host_plays(self.seat, action, None)
        except IllegalActionError as exc:
            self.state.apply(Rejected(request="act", code="illegal", message=str(exc), id="1"))
        return True

    def host_plays(self, seat: int, action, bot: str | None) -> None:
        """The host applies ``action`` of ``seat`` and sends this client its events."""
        events = self.match.apply(seat, action)
        self.state.apply(Played(version=self.state.version + 1, seat=seat,
                                events=self.match.redact(events, self.seat), bot=bot))


def table(players: int = 2, seat: int | None = 0, *, seed: int = 3, single: bool = False,
          position: State | None = None, **options) -> tuple[Host, Controller]:
    """A game dealt from ``seed`` (or at ``position``, a hand-built engine state of
    :mod:`downtown_kit`) as the client of ``seat`` sees it (a snapshot), with its
    controller (``options``: the controller's)."""
    opts = DowntownOptions(single_deck=single if position is None else position.single)
    labels = [look.label for look in DOWNTOWN.seats[:players]]
    if position is None:
        match = DOWNTOWN.new_match(DOWNTOWN.prepare(opts, players, seed), opts, labels)
    else:
        match, labels = DowntownMatch(position, None, []), list(position.labels)
    state = TableState()
    state.apply(Welcome(protocol=2, server="test", game="downtown", code_required=False, phase="lobby"))
    if seat is not None:
        state.apply(Seated(seat=seat, label=labels[seat], name=NAMES[seat], token="t"))
    seats = [SeatInfo(seat=i, label=label, colour=label, name=NAMES[i], connected=True, ready=True,
                      bot=None if i == seat else "greedy") for i, label in enumerate(labels)]
    lobby = Lobby(phase="playing", settings=Settings(players=players, options=opts), seats=seats, owner=0)
    state.apply(Snapshot(version=1, view=match.view(seat), lobby=lobby))
    host = Host(state, match, seat)
    control = Controller(host, **options)
    control.changed()
    return host, control


def bots_play(host: Host, until=lambda match: False) -> None:
    """Greedy bots play every seat but the client's until it may act (or ``until(match)``,
    or the end)."""
    bots = {}
    match = host.match
    while not match.is_over and not until(match):
        others = sorted(match.to_act() - {host.seat})
        if not others:
            return
        seat = others[0]
        bot = bots.setdefault(seat, DOWNTOWN.make_bot("greedy", seat))
        host.host_plays(seat, bot.choose(match.position(seat)), "greedy")


def play_turn(control: Controller, check=lambda: None) -> str:
    """Play the client's turn with the view's keys, as a person would: the first card
    that may be played, B where possible (else A), the first places that take the
    penguins; ``check()`` runs at every step. Returns the kind of act (``"none"``: no
    action possible), ``"discard"`` or ``"draw"``."""
    view = control.view
    draft = view.draft
    check()
    if draft.step == "discard":
        view.pick_line(0)
        check()
        view.enter()
        return "discard"
    if draft.step == "draw":
        view.pick_line(0)
        return "draw"
    view.pick_line(next(i for i, card in enumerate(draft.items()) if not draft.blocked(card)))
    for _ in range(60):
        draft = view.draft
        check()
        if draft.step == "kind":
            view._turn(lambda d: d.pick_kind("move" if "move" in d.items() else "add"))
        elif draft.step in ("copy", "source"):
            view.enter()
        elif draft.step == "recolour":
            for colour in ("red", "yellow"):
                view.penguin(colour)
            view.enter()
        elif draft.step == "spread":
            _spread(view)
        elif draft.step == "confirm":
            kind = draft.kind or "none"
            view.enter()
            return kind
    raise AssertionError(f"the turn did not end: {draft.step}, {control.ui.notice}")


def _spread(view) -> None:
    """Put penguins on the first places that take them (B: all of them; else one)."""
    draft = view.draft
    game = view.game
    for _ in range(len(game.red)):
        for colour in ("red", "yellow"):
            while True:
                before = len(draft.put)
                view.penguin(colour)
                if len(draft.put) == before or draft.kind != "move":
                    break
            if draft.put and (draft.kind != "move" or sum(draft.left()) == 0):
                view.enter()
                return
        view.next_place(1)
    view.enter()
