"""Write-ahead saving across what a table does besides actions: take-backs, half-time,
rematches and Waddle Downtown (whose save keeps its secrets as its record does). At every
event a connection is sent, the save (snapshot + journal) already holds it: a host killed
then resumes with everything anybody saw."""

import json
import random

import msgspec
import pytest
from test_downtown_secrets import check_view
from test_server_kit import MAP2, config, on_map

import protocol
from protocol.messages import Settings
from server.persistence import read_save
from server.table import Table
from waddle.downtown.options import DowntownOptions
from waddle.downtown.ruleset import RULESET as DOWNTOWN
from waddle.hex.options import HexOptions, StandardMap
from waddle.hex.ruleset import RULESET as HEX
from waddle.journal import journal_path

EVENTS = ("started", "played", "undone")


class Witness:
    """A peer (:class:`server.seats.Peer`) that reads the save back whenever an event is
    queued to it: the event's version and the save's (``seen``), and the frames it got."""

    def __init__(self, table: Table, name: str) -> None:
        self.table, self.name, self.label, self.seat, self.watching, self.asks = table, name, name, None, False, None
        self.fingerprint = None
        self.token: str | None = None
        self.address: str | None = None
        self.seen: list[tuple[int, int]] = []
        self.frames: list[dict] = []

    def send_frames(self, frames) -> None:
        for frame in frames:
            message = msgspec.json.decode(frame[4:])
            self.frames.append(message)
            if message["type"] == "seated":
                self.token = message["token"]
            if message["type"] in EVENTS:
                self.seen.append((message["version"], read_save(self.table.save_path).version))

    def close(self, code: str, message: str) -> None:
        pass

    def log_rejection(self, request: str, code: str, message: str) -> None:
        pass


def seated(table: Table, *names: str) -> list[Witness]:
    """People joined at ``table`` and the game started."""
    people = [Witness(table, name) for name in names]
    for person in people:
        table.handle(person, protocol.Join(name=person.name))
    table.handle(people[0], protocol.Start())
    return people


def act(table: Table, people: list[Witness], rng: random.Random) -> Witness:
    """One random legal action by the seat to act, through its connection; who acted."""
    seat = min(table.match.to_act())
    person = next(p for p in people if table.seats.number(p.seat) == seat)
    action = rng.choice(table.match.position(seat).legal_actions())
    table.handle(person, protocol.Act(id=f"a{table.version}", version=table.version,
                                      token=person.token, action=action))
    return person


def every_event_was_saved_first(people: list[Witness]) -> None:
    for person in people:
        assert person.seen and all(saved == version for version, saved in person.seen), person.seen


async def test_a_take_back_is_in_the_save_before_undone_is_sent_and_resumes(tmp_path, autojump_clock):
    save = tmp_path / "g.json"
    table = Table(config().settings, ruleset=HEX, save=save, prepared=on_map(MAP2), seed=3)
    people = seated(table, "Ada", "Bob")
    rng = random.Random(1)
    for _ in range(3):
        person = act(table, people, rng)
        table.handle(person, protocol.Undo(version=table.version, token=person.token))
        act(table, people, rng)
    assert sum(f["type"] == "undone" for f in people[0].frames) == 3
    every_event_was_saved_first(people)
    resumed = read_save(save)  # the host killed now: no last snapshot
    assert resumed.version == table.version == 1 + 3 * 3
    assert resumed.match.game.moves == table.match.game.moves and len(resumed.match) == 3
    assert resumed.saved.bots == [None] * 3
    back = Table.resume(save, prepared=on_map(MAP2))
    assert back.version == table.version and back.match.game.moves == table.match.game.moves


async def test_the_half_and_the_game_end_are_saved_before_they_are_announced(tmp_path, autojump_clock):
    save = tmp_path / "g.json"
    settings = Settings(players=2, options=HexOptions(map=StandardMap(seed=2), mirror_match=True))
    table = Table(settings, ruleset=HEX, save=save, seed=5)
    people = seated(table, "Ada", "Bob")
    rng = random.Random(2)
    while not table.match.is_over:
        if table.pause is not None:
            for person in people:
                table.handle(person, protocol.Continue())
        act(table, people, rng)
    half = [f for f in people[1].frames if f["type"] == "played"
            and any(e["type"] == "half_ended" for e in f["events"])]
    assert len(half) == 1
    every_event_was_saved_first(people)
    resumed = read_save(save)
    assert resumed.match.is_over and resumed.match.game.moves == table.match.game.moves


async def test_a_rematch_keeps_the_finished_game_whole_and_journals_the_next_beside_it(tmp_path,
                                                                                        autojump_clock):
    save = tmp_path / "night.json"
    table = Table(config().settings, ruleset=HEX, save=save, prepared=on_map(MAP2), seed=3)
    people = seated(table, "Ada", "Bob")
    rng = random.Random(3)
    while not table.match.is_over:
        act(table, people, rng)
    first = list(table.match.game.moves)
    for person in people:
        table.handle(person, protocol.Rematch())
    assert table.games == 2 and table.save_path == tmp_path / "night-2.json"
    for _ in range(5):
        act(table, people, rng)
    every_event_was_saved_first(people)
    done = read_save(save)
    assert done.match.is_over and done.match.game.moves == first
    assert json.loads(save.read_text())["actions"] == done.match.record()["actions"]  # the file alone
    second = read_save(tmp_path / "night-2.json")
    assert second.version == table.version and second.saved.games == 2
    assert second.match.game.moves == table.match.game.moves and len(second.match) == 5
    assert journal_path(tmp_path / "night-2.json").exists()


@pytest.mark.parametrize("single", [False, True])
async def test_a_downtown_game_is_saved_ahead_and_resumes_keeping_each_seat_s_secrets(
        tmp_path, autojump_clock, single):
    save = tmp_path / "d.json"
    settings = Settings(players=3, seat_order="seated", options=DowntownOptions(single_deck=single))
    table = Table(settings, ruleset=DOWNTOWN, save=save, seed=8)
    people = seated(table, "Ann", "Bob", "Cy")
    bots = [DOWNTOWN.make_bot("random", seed) for seed in range(3)]
    for _ in range(12):
        for seat in sorted(table.match.to_act()):
            person = next(p for p in people if table.seats.number(p.seat) == seat)
            table.handle(person, protocol.Act(id=f"a{table.version}", version=table.version,
                                              token=person.token,
                                              action=bots[seat].choose(table.match.position(seat))))
    every_event_was_saved_first(people)
    resumed = read_save(save)
    assert resumed.version == table.version and resumed.recovered == len(table.match)
    assert resumed.match.record() == table.match.record()
    back = Table.resume(save)
    bob = Witness(back, "Bob")
    back.handle(bob, protocol.Reclaim(token=people[1].token, last_version=0))
    snapshot = next(f for f in bob.frames if f["type"] == "snapshot")
    check_view(snapshot["view"], 1, back.match.state, "a resumed table's snapshot")
