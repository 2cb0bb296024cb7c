"""Wrong acts sent with real tokens are never accepted, over whole games of both games.

Issue 28 saw, once in a fuzz of a hex seat, a wrong act sent with a real token answered
``ack``. The cause: an action id the seat had already played was answered ``ack``
(``duplicate: true``) before any other check, whatever the action under it (a fuzzer whose
ids start again at "1" after a reconnect gets exactly that; so did this suite's own test
client, whose ids started again with each connection: its later actions were acknowledged
and never played). The host now answers ``duplicate`` only for the same action resent, and
refuses another action under a used id (``bad_message``).

The property test drives a table (two seats, both people) the way its connections do: each
wrong act is encoded as a client would send it and decoded by the host's own decoder
(``bad_message`` when it does not decode), then handed to the table. Between wrong acts the
seat to act plays a random legal action, so every game is played to its end.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples
from test_server_kit import MAP2, on_map

import protocol
from protocol.framing import BadMessage, decode, decoder_for
from protocol.messages import Ack, Act, Join, Rejected, Start
from server.table import Table
from waddle.downtown.actions import Discard, Play
from waddle.downtown.options import DowntownOptions
from waddle.hex.actions import Place
from waddle.hex.options import HexOptions
from waddle.ruleset import get_ruleset


class Peer:
    """A connection as the table sees it; keeps what it is sent (frames decoded)."""

    def __init__(self, ruleset, name: str) -> None:
        self.seat, self.watching, self.name, self.label, self.address, self.asks = None, False, name, name, None, None
        self.fingerprint = None
        self.sent: list[Any] = []
        self._decoder = decoder_for(protocol.server_message(ruleset))

    def send_frames(self, frames) -> None:
        self.sent += [self._decoder.decode(frame[4:]) for frame in frames]

    def close(self, code: str, message: str) -> None:
        raise AssertionError(f"closed: {code} {message}")

    def log_rejection(self, request: str, code: str, message: str) -> None:
        pass


def new_table(game: str) -> Table:
    ruleset = get_ruleset(game)
    if game == "hex":
        return Table(protocol.Settings(players=2, seat_order="seated", options=HexOptions()),
                     ruleset=ruleset, prepared=on_map(MAP2), seed=3)
    return Table(protocol.Settings(players=2, seat_order="seated", options=DowntownOptions()),
                 ruleset=ruleset, seed=3)


def started(game: str) -> tuple[Table, list[Peer]]:
    table = new_table(game)
    peers = [Peer(table.ruleset, "Ada"), Peer(table.ruleset, "Bob")]
    for peer in peers:
        table.handle(peer, Join(name=peer.name))
    table.handle(peers[0], Start())
    assert table.match is not None
    return table, peers


def act_json(act: Act) -> dict[str, Any]:
    return msgspec.to_builtins(act)


#: Values that make each field of an act wrong whatever the table's state: an id of the
#: wrong type or length; a version no table reaches or of the wrong type; a token no seat
#: has; inside the action, numbers past any map, a NUL-led text no card or place is named,
#: the wrong types.
WRONG = {
    "id": st.sampled_from([5, None, "", "x" * 65, [], {}, 1.5]),
    "version": st.sampled_from([None, "1", 1.5, -1, 2**62, 2**64, -2**63 - 1, [], {}, True]),
    "token": st.one_of(st.sampled_from([None, 5, "", [], "x" * 64]), st.text(max_size=8)),
    "action": st.one_of(st.sampled_from([2**40, -2**40, 2**64, 10**30, 1.5, float("1e300"), [], {},
                                         [2**40, 0], "\u202e\x1b[2J"]),
                        st.text(max_size=8).map(lambda text: "\x00" + text)),
}


def spoil(body: dict[str, Any], draw) -> dict[str, Any]:
    """``body`` (an act's JSON) with one field made wrong (:data:`WRONG`), deep inside the
    action for ``action``, or a required key (or the action's type) dropped."""
    key = draw(st.sampled_from(sorted(WRONG)))
    if draw(st.integers(0, 4)) == 0:
        if key == "action" and draw(st.booleans()):
            return {**body, "action": {k: v for k, v in body["action"].items() if k != "type"}}
        return {k: v for k, v in body.items() if k != key}
    if key != "action":
        return {**body, key: draw(WRONG[key])}
    return {**body, "action": replace_leaf(body["action"], draw)}


def replace_leaf(tree: Any, draw) -> Any:
    """``tree`` with one of its values (not an object's ``type``) replaced by a wrong one."""
    if isinstance(tree, dict):
        keys = sorted(k for k in tree if k != "type")
        if keys and draw(st.booleans()):
            key = draw(st.sampled_from(keys))
            return {**tree, key: replace_leaf(tree[key], draw)}
    if isinstance(tree, list) and tree and draw(st.booleans()):
        index = draw(st.integers(0, len(tree) - 1))
        return [*tree[:index], replace_leaf(tree[index], draw), *tree[index + 1:]]
    return draw(WRONG["action"])


def illegal_action(table: Table, seat: int, legal: Any, played: list[Any], draw) -> Any | None:
    """An action the rules forbid, by hand: the hex game, a penguin on a hex already taken or
    off the map; Waddle Downtown, a card not in the seat's hand. ``None``: none to make."""
    if table.ruleset.name == "hex":
        taken = [a.hex for a in played if isinstance(a, Place)]
        off_map = (draw(st.integers(40, 10**6)), draw(st.integers(-10**6, -40)))
        return Place(hex=draw(st.sampled_from(taken)) if taken and draw(st.booleans()) else off_map,
                     double=draw(st.booleans()))
    state = table.match.state
    held = {state.name(card) for card in state.hands[seat]}
    others = sorted(set(state.deck.index) - held)
    if not others:
        return None
    card = draw(st.sampled_from(others))
    return Discard(card) if isinstance(legal, Discard) else Play(card)


KINDS = ("stale", "another seat's token", "out of turn", "illegal", "junk", "used id")


def wrong_act(table: Table, peers: list[Peer], seat: int, legal: Any, played: list[Any],
              ids: list[tuple[str, Any]], draw) -> tuple[Peer, bytes] | None:
    """A wrong act of a kind ``draw`` chooses, as ``(sender, JSON body)``; ``None`` when
    that kind cannot be made now (e.g. nobody is out of turn while both seats choose)."""
    kind = draw(st.sampled_from(KINDS))
    tokens = [s.token for s in table.seats]
    act = Act(id=f"w{len(ids)}", version=table.version, token=tokens[seat], action=legal)
    sender = peers[seat]
    if kind == "stale":
        act.version = draw(st.sampled_from([table.version - 1, table.version + 1, 0, 2**62]))
    elif kind == "another seat's token":
        if draw(st.booleans()):
            sender = peers[1 - seat]  # the other seat's connection sends with this seat's token
        else:
            act.token = tokens[1 - seat]  # this seat's connection with the other seat's token
    elif kind == "out of turn":
        if 1 - seat in table.match.to_act():
            return None
        sender, act.token = peers[1 - seat], tokens[1 - seat]
    elif kind == "illegal":
        action = illegal_action(table, seat, legal, played, draw)
        if action is None:
            return None
        act.action = action
    elif kind == "used id":
        used = [id for id, action in ids if action != legal]
        if not used:
            return None
        act.id = draw(st.sampled_from(used))  # an id this seat played, for another action now
    body = act_json(act)
    if kind == "junk":
        body = spoil(body, draw)
    return sender, json.dumps(body).encode()


def deliver(table: Table, sender: Peer, body: bytes) -> list[Any]:
    """Hand ``body`` to the table as the host does (its decoder first); what ``sender``
    was sent back."""
    try:
        message = decode(decoder_for(protocol.client_message(table.ruleset)), body)
    except BadMessage:
        return [Rejected(request="act", code="bad_message", message="")]
    before = len(sender.sent)
    table.handle(sender, message)
    return sender.sent[before:]


def play_a_whole_game(game: str, draw) -> tuple[int, int]:
    """Play ``game`` to its end with a wrong act before each legal one; ``(legal actions,
    wrong acts refused)``."""
    table, peers = started(game)
    bots = [table.ruleset.make_bot("random", n) for n in range(2)]
    played: list[Any] = []
    ids: list[list[tuple[str, Any]]] = [[], []]  # each seat's action ids and actions
    refused = 0
    for _ in range(500):
        if table.match.is_over:
            return len(played), refused
        seat = min(table.match.to_act())
        legal = bots[seat].choose(table.match.position(seat))
        wrong = wrong_act(table, peers, seat, legal, played, ids[seat], draw)
        if wrong is not None:
            version, moves = table.version, len(table.match)
            others = [len(p.sent) for p in peers if p is not wrong[0]]
            answers = deliver(table, *wrong)
            assert len(answers) == 1 and isinstance(answers[0], Rejected), (answers, wrong)
            assert (table.version, len(table.match)) == (version, moves)
            assert others == [len(p.sent) for p in peers if p is not wrong[0]]  # nobody else heard
            refused += 1
        id = f"{seat}-{len(played)}"
        answers = deliver(table, peers[seat], json.dumps(act_json(
            Act(id=id, version=table.version, token=table.seats[seat].token, action=legal))).encode())
        assert isinstance(answers[0], protocol.Played) and answers[1] == Ack(id=id, version=table.version)
        played.append(legal)
        ids[seat].append((id, legal))
    raise AssertionError("the game did not end in 500 actions")


@pytest.mark.parametrize("game", ["hex", "downtown"])
@settings(max_examples=examples(12))
@given(data=st.data())
def test_no_wrong_act_with_a_real_token_is_accepted_and_the_game_goes_on(game, data):
    async def main():
        return play_a_whole_game(game, data.draw)

    legal, refused = trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    assert legal > 10 and refused > legal // 3


def test_a_used_action_id_is_acknowledged_only_for_the_same_action_resent():
    async def main():
        table, (ada, bob) = started("hex")
        legal = table.ruleset.make_bot("random", 1).choose(table.match.position(0))
        resend = json.dumps(act_json(Act(id="1", version=1, token=table.seats[0].token, action=legal))).encode()
        assert isinstance(deliver(table, ada, resend)[0], protocol.Played)
        assert deliver(table, ada, resend) == [Ack(id="1", version=2, duplicate=True)]  # a resend
        other = Place(hex=(40, -40))  # out of turn and off the map, under the used id
        for version, action in ((1, other), (2, other)):
            [answer] = deliver(table, ada, json.dumps(act_json(
                Act(id="1", version=version, token=table.seats[0].token, action=action))).encode())
            assert (answer.code, answer.id) == ("bad_message", "1")
            assert "fresh id" in answer.message
        assert table.version == 2

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
