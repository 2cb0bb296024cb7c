"""The act pipeline of a table: an action checked, applied, written ahead, then told.

An ``act`` passes the checks of :data:`protocol.messages.ACT_CHECKS` in that order
(:mod:`server.checks`; a duplicate id is answered at once after the token check), then
the match applies it (checking the rules); its journal line is written to the save
file's journal (:meth:`server.persistence.Saver.append`) before any frame about it is
made, so an action is durable before anybody is told. The mover gets its own view of the
events and its ``ack`` in one write, at once; then every other audience its own view
(:mod:`server.log`), written when the turn ends (:mod:`server.outbox`). After the events
the table settles: the turn's clock, a pause the game asks for (the hex game's
half-time: held until every person says to go on, or it times out), the game's end
(saved, then announced). A seat's player may take back its last action (the game's
policy, :meth:`waddle.ruleset.Match.check_undo`), an event too. :class:`ActPart` is this
part of :class:`server.table.Table` (a mixin). Codes: ``docs/protocol.md``.
"""

from __future__ import annotations

import logging
from typing import Any

import trio

from protocol.framing import encode
from protocol.messages import Ack, Act, Continue, Played, Undo, Undone
from protocol.text import with_article
from server.checks import BEFORE_RULES, first_failure
from server.log import entry_for
from server.logbudget import peer_log
from server.outbox import in_turn
from server.pause import Pause
from server.seats import Peer, Seat, same_secret
from server.turns import Told, told, with_fields
from waddle.errors import IllegalActionError

log = logging.getLogger("waddle.server")


class ActPart:
    """The table's act pipeline, take-backs and pauses (see the module docstring)."""

    def _act(self, peer: Peer, message: Act) -> None:
        """The checks of :data:`protocol.messages.ACT_CHECKS` in that order (``bad_message``
        was the decoder's; :mod:`server.checks`), a duplicate id answered at once after the
        token check; then apply (which checks the rules: a stale action's rules are checked
        first, so ``illegal`` still comes before ``stale``), tell and ack."""
        seat = peer.seat
        if seat is not None and message.id in seat.acted and same_secret(message.token, seat.token):
            return self._duplicate(peer, seat, message)
        failed = first_failure(self, seat, message, BEFORE_RULES)
        if failed is None and message.version != self.version:
            failed = first_failure(self, seat, message, ("illegal", "stale"))
        if failed is not None:
            return self._reject(peer, "act", *failed, message.id)
        try:
            events = self._play(self.seats.number(seat), message.action, None, message.id, peer)
        except IllegalActionError as exc:
            return self._reject(peer, "act", "illegal", str(exc), message.id)
        self._settle(events)

    def _duplicate(self, peer: Peer, seat: Seat, message: Act) -> None:
        """An ``act`` whose id ``seat`` played: the same action resent is answered ``ack``
        ``duplicate``; another action under that id is refused (``bad_message``), never
        acknowledged. (After a resume the actions played before it are not remembered:
        any act under their ids is answered ``duplicate``, as it is not applied.)"""
        version = seat.acted[message.id]
        if seat.actions.get(message.id, message.action) != message.action:
            return self._reject(peer, "act", "bad_message", f"this seat's action id was used for another "
                                f"action (version {version}): send each action with a fresh id", message.id)
        self.send(peer, Ack(id=message.id, version=version, duplicate=True))

    @in_turn
    def apply(self, seat: int, action: Any, bot: str | None, id: str | None = None) -> int:
        """Play a legal ``action`` for seat number ``seat`` (chosen by ``bot``, ``None``:
        its player, whose action ``id`` it is); write it ahead to the save file's journal,
        then send each audience its events; return the new version.

        Raises:
            waddle.errors.IllegalActionError: the action is not legal now; nothing changed.
        """
        self._settle(self._play(seat, action, bot, id))
        return self.version

    def _play(self, seat: int, action: Any, bot: str | None, id: str | None,
              mover: Peer | None = None) -> list[Any]:
        """:meth:`apply`'s first part: play ``action``, write it ahead, send each audience
        its events; return the events (raises as :meth:`apply` does). ``mover``: the
        connection that sent the action (its ``id``), written to first, its event and
        ``ack`` at once, before the table works out what the others see."""
        match = self.match
        events = match.apply(seat, action)
        version = self.version + 1
        if id is not None:
            self.seats[seat].acted[id] = version
            self.seats[seat].actions[id] = action
        self.bot_kinds.append(bot)
        if self.saver:
            self.saver.append(version, seat, action, bot, id)
        self.changed = [version if match.outdates(events, s) else v for s, v in enumerate(self.changed)]

        def played(seen: list[Any]) -> Played:
            return Played(version=version, seat=seat, events=seen, bot=bot)

        known = None
        if mover is not None:
            mine = match.redact(events, seat)
            known = mine, encode(played(mine))
            self.outbox.send(mover, with_fields(known[1], told(match, seat, mover.asks)))
            self.send(mover, Ack(id=id, version=version))
            self.outbox.flush(mover)
        payloads = self._per_audience(lambda a: match.redact(events, a))
        entry = entry_for(payloads, played, known)
        self.log.append(entry)
        self._send_event(entry, but=mover, turns=Told(match, entry))
        return events

    def _settle(self, events: list[Any]) -> None:
        """:meth:`apply`'s second part, after the played ``events``: the turn's clock, a
        pause, the game's end (each saved before it is announced) and the driver's wake."""
        self.turn_started = now = trio.current_time()
        pause = self.match.pause_after(events)
        if pause is not None and self.saver:
            self.saver.checkpoint()  # the half is over: the save file alone holds it
        people = {s for s in self.seats if s.bot is None and s.peer is not None}
        if pause is not None and people and not self.match.is_over:
            self.pause = Pause(pause, now + self.pause_timeout, people)
            log.info("%s: waiting for every player to go on", pause)
            self.broadcast_lobby()
        if self.match.is_over:
            self.phase = "finished"
            winners = [self.seats[n].label for n in self.match.outcome().winners]
            log.info("game over: won by %s", ", ".join(winners))
            self.broadcast_lobby()
            if self.saver:
                self.saver.checkpoint()  # the save file alone holds the whole game
            if self.on_game_over is not None:
                self.on_game_over(self)
        self.wake()  # the driver may have a bot to run or a deadline to move

    # -- take-backs -------------------------------------------------------------------------

    def _undo(self, peer: Peer, message: Undo) -> None:
        """A take-back: the token, started, over and stale checks of an act, then
        the game's own policy (:meth:`waddle.ruleset.Match.check_undo`)."""
        failed = first_failure(self, peer.seat, message, ("bad_token", "not_started", "game_over", "stale"))
        if failed is not None:
            return self._reject(peer, "undo", *failed)
        seat = peer.seat
        try:
            self.undo(self.seats.number(seat))
        except IllegalActionError as exc:
            self._reject(peer, "undo", "cannot_undo", str(exc))

    @in_turn
    def undo(self, seat: int) -> int:
        """Take back the last action of seat number ``seat``, which its player chose
        (a bot's or stand-in's choice is not theirs to take back); ``undone`` to every
        audience; a pause that action began ends. Return the new version.

        Raises:
            waddle.errors.IllegalActionError: not allowed now (the message says why).
        """
        if self.bot_kinds and self.bot_kinds[-1] is not None:
            raise IllegalActionError(f"{with_article(self.bot_kinds[-1])} bot chose the last action, not you")
        events = self.match.undo(seat)
        version = self.version + 1
        if self.saver:
            self.saver.undo(version, seat)
        self.changed = [version] * len(self.changed)

        entry = entry_for(self._per_audience(lambda a: self.match.redact(events, a)),
                          lambda seen: Undone(version=version, seat=seat, events=seen))
        self._append(entry, Told(self.match, entry))
        self.bot_kinds.pop()
        self.turn_started = trio.current_time()
        peer_log.info("%s took back their last action", self.seats[seat].name)
        if self.pause is not None:
            self.pause = None
            self.broadcast_lobby()
        self.wake()
        return self.version

    # -- pauses -----------------------------------------------------------------------------

    def _continue(self, peer: Peer, message: Continue) -> None:
        if peer.seat is None:
            return self._reject(peer, "continue", "not_joined", "take a seat first")
        if self.pause is not None:
            self.go_on(peer.seat)
            self.broadcast_lobby()

    @in_turn
    def go_on(self, seat: Seat | None = None) -> None:
        """``seat``'s player says the pause may end (``None``: the pause timed out); it ends
        once nobody is waited for. Does nothing without a pause."""
        pause = self.pause
        if pause is None:
            return
        pause.waiting.discard(seat)
        if seat is None or not pause.waiting:
            log.info("%s is over", pause.name)
            self.pause = None
            self.turn_started = trio.current_time()
            self.broadcast_lobby()
