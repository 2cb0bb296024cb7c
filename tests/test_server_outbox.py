"""The table's outbox (server/outbox.py): what one turn sends is held per connection and
written when the turn ends, each connection's in one write, in order, the sender's first."""

from __future__ import annotations

import os
import random
import struct
import types

import msgspec
import pytest
import trio
from test_server_kit import HEX, MAP2, TablePeer, config, hosting, on_map, started_pair

import protocol
import server.connection
from server.outbox import Outbox, in_turn
from server.persistence import read_save
from server.table import Table


class Link:
    """A connection as the outbox sees it: notes each write (its frames) and its close in
    ``log``, shared by every link, in the order they come."""

    def __init__(self, name: str, log: list) -> None:
        self.name, self.log = name, log

    def send_frames(self, frames) -> None:
        self.log.append((self.name, list(frames)))

    def close(self, code: str, message: str) -> None:
        self.log.append((self.name, f"closed {code}"))


def links(*names: str) -> tuple[list, list[Link]]:
    log: list = []
    return log, [Link(name, log) for name in names]


def test_outside_a_turn_each_frame_is_written_at_once():
    log, (ada,) = links("ada")
    outbox = Outbox()
    outbox.send(ada, b"1")
    assert log == [("ada", [b"1"])]
    outbox.send(ada, b"2")
    assert log == [("ada", [b"1"]), ("ada", [b"2"])]


def test_a_turn_writes_each_connection_s_frames_once_at_its_end_in_order_its_first_first():
    log, (ada, bob, eve) = links("ada", "bob", "eve")
    outbox = Outbox()
    with outbox.turn(bob):
        outbox.send(ada, b"a1")
        outbox.send(eve, b"e1")
        outbox.send(bob, b"b1")
        outbox.send(ada, b"a2")
        outbox.send(bob, b"b2")
        assert log == []  # nothing written while the turn lasts
    assert log == [("bob", [b"b1", b"b2"]), ("ada", [b"a1", b"a2"]), ("eve", [b"e1"])]


def test_a_turn_inside_a_turn_writes_nothing_until_the_outermost_ends():
    log, (ada, bob) = links("ada", "bob")
    outbox = Outbox()
    with outbox.turn(bob):
        outbox.send(ada, b"a1")
        with outbox.turn(ada):  # a later first counts for nothing: bob's turn began it
            outbox.send(ada, b"a2")
            outbox.send(bob, b"b1")
        assert log == []
        outbox.send(bob, b"b2")
    assert log == [("bob", [b"b1", b"b2"]), ("ada", [b"a1", b"a2"])]


def test_a_flushed_connection_is_written_at_once_and_what_follows_is_held_again():
    log, (ada, bob) = links("ada", "bob")
    outbox = Outbox()
    with outbox.turn(ada):
        outbox.send(bob, b"b1")
        outbox.send(ada, b"a1")
        outbox.send(ada, b"a2")
        outbox.flush(ada)
        assert log == [("ada", [b"a1", b"a2"])]
        outbox.flush(ada)  # nothing held: no empty write
        outbox.send(ada, b"a3")
        assert log == [("ada", [b"a1", b"a2"])]
    assert log == [("ada", [b"a1", b"a2"]), ("ada", [b"a3"]), ("bob", [b"b1"])]


def test_a_connection_closed_in_a_turn_gets_what_it_was_sent_before_its_close():
    log, (ada, bob) = links("ada", "bob")
    outbox = Outbox()
    with outbox.turn(bob):
        outbox.send(ada, b"a1")
        outbox.send(bob, b"b1")
        outbox.close(ada, "replaced", "the seat was reclaimed by another connection")
        assert log == [("ada", [b"a1"]), ("ada", "closed replaced")]
    assert log == [("ada", [b"a1"]), ("ada", "closed replaced"), ("bob", [b"b1"])]


def test_a_turn_whose_work_raises_still_writes_what_it_sent_and_the_next_turn_starts_afresh():
    log, (ada, bob) = links("ada", "bob")
    outbox = Outbox()
    with pytest.raises(ValueError), outbox.turn(ada):
        outbox.send(bob, b"b1")
        raise ValueError("the work failed")
    assert log == [("bob", [b"b1"])]
    outbox.send(ada, b"a1")  # no turn is open any more: written at once
    assert log == [("bob", [b"b1"]), ("ada", [b"a1"])]


def test_a_method_in_turn_is_one_turn_of_its_table_s_outbox():
    log, (ada, bob) = links("ada", "bob")

    class Owner:
        def __init__(self) -> None:
            self.outbox = Outbox()

        @in_turn
        def tell_both(self) -> str:
            self.outbox.send(ada, b"a1")
            self.outbox.send(bob, b"b1")
            self.outbox.send(ada, b"a2")
            assert log == []
            return "told"

    assert Owner().tell_both() == "told"
    assert log == [("ada", [b"a1", b"a2"]), ("bob", [b"b1"])]


class Recorder(TablePeer):
    """A peer of a table called directly that notes in ``writes``, shared by every
    recorder, each write it is given: its name and the types of the messages in it, in
    the order the writes come."""

    def __init__(self, name: str, writes: list) -> None:
        super().__init__(name)
        self.writes = writes

    def send_frames(self, frames) -> None:
        decoder = protocol.framing.decoder_for(protocol.server_message(HEX))
        self.writes.append((self.name, tuple(type(decoder.decode(f[4:])).__name__ for f in frames)))
        super().send_frames(frames)


def recorded_game(writes: list) -> tuple[Table, list[Recorder]]:
    """A hex table where Ada and Bob play and Eve watches, each a :class:`Recorder` into
    ``writes``, its game started."""
    table = Table(config().settings, ruleset=HEX, prepared=on_map(MAP2), seed=3)
    people = [Recorder(name, writes) for name in ("Ada", "Bob", "Eve")]
    for peer in people[:2]:
        table.handle(peer, protocol.Join(name=peer.name))
    table.handle(people[2], protocol.Watch(name="Eve"))
    table.handle(people[0], protocol.Start())
    return table, people


def others(mover: Recorder, *messages: str) -> list:
    """Each connection but ``mover``'s one write of ``messages``, sorted."""
    return sorted((name, messages) for name in ("Ada", "Bob", "Eve") if name != mover.name)


async def test_the_mover_s_event_and_ack_are_written_before_any_other_connection_s_frame(autojump_clock):
    writes: list = []
    table, (ada, bob, _) = recorded_game(writes)
    mover = ada if 0 in table.match.to_act() else bob
    action = table.match.position(0).legal_actions()[0]
    del writes[:]
    table.handle(mover, protocol.Act(id="1", version=table.version, token=mover.token, action=action))
    assert writes[0] == (mover.name, ("Played", "Ack"))  # one write, the event first
    assert sorted(writes[1:]) == others(mover, "Played")  # one write each


async def test_the_game_s_last_act_reaches_the_others_in_one_write_with_the_final_lobby(autojump_clock):
    writes: list = []
    table, (ada, bob, _) = recorded_game(writes)
    rng = random.Random(4)
    for _ in range(200):
        seat = min(table.match.to_act())
        mover = next(p for p in (ada, bob) if table.seats.number(p.seat) == seat)
        action = rng.choice(table.match.position(seat).legal_actions())
        del writes[:]
        table.handle(mover, protocol.Act(id=f"a{table.version}", version=table.version,
                                         token=mover.token, action=action))
        if table.match.is_over:
            break
    assert table.phase == "finished"
    mine = [w for w in writes if w[0] == mover.name]
    assert mine == [(mover.name, ("Played", "Ack")), (mover.name, ("Lobby",))]  # its answer at once
    assert writes[0] == mine[0]  # before any other connection's write
    assert sorted(w for w in writes if w[0] != mover.name) == others(mover, "Played", "Lobby")


async def test_a_bot_s_action_is_a_turn_too_its_event_and_the_final_lobby_in_one_write(autojump_clock):
    writes: list = []
    table, _ = recorded_game(writes)
    rng = random.Random(5)
    for _ in range(200):
        seat = min(table.match.to_act())
        del writes[:]
        table.apply(seat, rng.choice(table.match.position(seat).legal_actions()), "random")  # the driver's call
        if table.match.is_over:
            break
    assert table.phase == "finished"
    assert sorted(writes) == [(name, ("Played", "Lobby")) for name in ("Ada", "Bob", "Eve")]


def frames_in(data: bytes) -> list[dict]:
    """The messages (as JSON objects) of the whole frames in ``data``."""
    messages = []
    while data:
        (size,) = struct.unpack(">I", data[:4])
        messages.append(msgspec.json.decode(data[4:4 + size]))
        data = data[4 + size:]
    return messages


async def test_over_tcp_each_connection_gets_an_act_in_one_write_after_its_journal_line(tmp_path, monkeypatch):
    save = tmp_path / "g.json"
    writes: list[tuple[list[dict], int]] = []  # each socket write of the host: its messages, the save's version

    def write(fd: int, data: bytes) -> int:
        writes.append((frames_in(bytes(data)), read_save(save).version if save.exists() else 0))
        return os.write(fd, data)

    monkeypatch.setattr(server.connection, "os", types.SimpleNamespace(write=write))
    async with hosting(config(save=save), tcp=True) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            mover, other = (ada, bob) if ada.my_turn() else (bob, ada)
            version = mover.version + 1
            del writes[:]
            await mover.act(mover.game.legal_actions()[0])
            await other.expect(protocol.Played, version=version)
            await mover.expect(protocol.Ack, version=version)
    about = [(messages, saved) for messages, saved in writes
             if any(m.get("version") == version for m in messages)]
    assert sorted([m["type"] for m in messages] for messages, _ in about) == [["played"], ["played", "ack"]]
    assert all(saved >= version for _, saved in about)  # the journal held the action first
