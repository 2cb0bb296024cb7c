"""The action journal (waddle.journal): checksummed lines, and what a reader keeps of a
journal cut short or damaged."""

import zlib

import pytest

from waddle import SCOUT, Place
from waddle.errors import RecordError
from waddle.files import MAX_RECORD_BYTES
from waddle.hex.actions import Action
from waddle.hex.options import HexOptions
from waddle.hex.ruleset import RULESET as HEX
from waddle.hex.tiles import standard_map
from waddle.journal import Entry, Header, extend, journal_path, line, read, replay
from waddle.ruleset import Prepared

TWO = ((0, Place((1, 0))), (1, SCOUT))


def journal_of(path, table="t1", base=1, actions=TWO) -> list[bytes]:
    """Write a journal of ``actions`` (seat, action) after version ``base``; its lines."""
    lines = [line(Header(table=table, base=base))]
    lines += [line(Entry(version=base + i, seat=seat, action=action, id=f"a{i}"))
              for i, (seat, action) in enumerate(actions, 1)]
    path.write_bytes(b"".join(lines))
    return lines


def test_a_line_is_json_then_its_crc32_and_reads_back(tmp_path):
    path = tmp_path / "j"
    lines = journal_of(path)
    assert lines[1].startswith(b'{"version":2,"seat":0,"action":{"type":"place","hex":[1,0]')
    assert lines[1][-10:-9] == b" " and lines[1].endswith(b"\n") and len(lines[1].split()[-1]) == 8
    journal = read(path, Action, table="t1", base=1)
    assert journal.problem is None
    assert [(e.version, e.seat, e.action, e.id) for e in journal.entries] == [
        (2, 0, Place((1, 0)), "a1"), (3, 1, SCOUT, "a2")]


def test_a_missing_journal_is_empty(tmp_path):
    journal = read(tmp_path / "none", Action, table="t1", base=1)
    assert journal.entries == [] and journal.problem is None


def test_a_last_line_cut_short_anywhere_is_left_out_and_said(tmp_path):
    path = tmp_path / "j"
    lines = journal_of(path)
    whole = b"".join(lines[:2])
    for cut in range(len(lines[2])):
        path.write_bytes(whole + lines[2][:cut])
        journal = read(path, Action, table="t1", base=1)
        assert [e.version for e in journal.entries] == [2], cut
        assert (journal.problem is None) == (cut == 0)
        if cut:
            assert "cut short" in journal.problem


def test_a_damaged_line_ends_the_entries_and_says_how_many_are_left_out(tmp_path):
    path = tmp_path / "j"
    lines = journal_of(path, actions=[(0, Place((1, 0))), (1, SCOUT), (0, SCOUT)])
    damaged = lines[2].replace(b'"seat":1', b'"seat":0')  # the checksum no longer matches
    path.write_bytes(lines[0] + lines[1] + damaged + lines[3])
    journal = read(path, Action, table="t1", base=1)
    assert [e.version for e in journal.entries] == [2]
    assert "line 3 is damaged" in journal.problem and "1 line(s) after it" in journal.problem


def test_another_tables_journal_or_a_bad_header_is_left_out_whole(tmp_path):
    path = tmp_path / "j"
    journal_of(path, table="other")
    assert read(path, Action, table="t1", base=1).entries == []
    assert "another table's" in read(path, Action, table="t1", base=1).problem
    path.write_bytes(b"not a journal\n")
    assert "no intact header" in read(path, Action, table="t1", base=1).problem


def checksummed(body: bytes) -> bytes:
    """A journal line of ``body`` with its right checksum, whatever ``body`` holds."""
    return body + b" %08x\n" % zlib.crc32(body)


def test_a_line_nested_too_deeply_is_damaged_not_an_error(tmp_path):
    path = tmp_path / "j"
    deep = b"[" * 100_000 + b"]" * 100_000
    lines = journal_of(path)
    path.write_bytes(lines[0] + lines[1] + checksummed(b'{"version":3,"seat":1,"x":' + deep + b"}") + lines[2])
    journal = read(path, Action, table="t1", base=1)
    assert [e.version for e in journal.entries] == [2] and "line 3 is damaged" in journal.problem
    path.write_bytes(checksummed(b'{"journal":1,"table":"t1","base":1,"x":' + deep + b"}") + lines[1])
    journal = read(path, Action, table="t1", base=1)
    assert journal.entries == [] and "the header line does not decode" in journal.problem


def test_a_journal_over_the_cap_is_left_out_whole_and_said(tmp_path):
    path = tmp_path / "j"
    lines = journal_of(path)
    path.write_bytes(b"".join(lines) + b" " * MAX_RECORD_BYTES)
    journal = read(path, Action, table="t1", base=1)
    assert journal.entries == []
    assert journal.problem == (f"{path}: the file is too large: over the {MAX_RECORD_BYTES:,}-byte cap; "
                               f"the journal is left out")


def test_entries_the_snapshot_holds_are_skipped_and_a_gap_ends_the_run(tmp_path):
    path = tmp_path / "j"
    journal_of(path, base=1, actions=[(0, SCOUT), (1, SCOUT), (0, SCOUT)])  # versions 2, 3, 4
    assert [e.version for e in read(path, Action, table="t1", base=2).entries] == [3, 4]
    journal = read(path, Action, table="t1", base=0)  # the snapshot holds less than the journal's base
    assert journal.entries == [] and "version 2, expected 1" in journal.problem


def test_extend_plays_the_entries_on_the_match_and_stops_at_an_illegal_one(tmp_path):
    save = tmp_path / "game.json"
    match = HEX.new_match(Prepared(None, standard_map(2, 11)), HexOptions(), ["red", "blue"])
    first = match.position(0).legal_actions()[0]
    journal_of(journal_path(save), actions=[(0, first), (0, first)])  # the second: not red's turn
    journal = extend(match, save, table="t1")
    assert len(match) == 1 and match.game.moves == [("red", first)]
    assert [e.version for e in journal.entries] == [2] and "version 3 (seat 0) is illegal" in journal.problem
    with pytest.raises(RecordError, match="does not follow"):
        replay(match, journal.entries, source="x")
