"""The history database (waddle.history, server.history): hand-made histories with counts
and rating orders worked by hand, a game written once, bad files, migrations, and a host
that writes every finished game without its loop waiting on the database."""

import random
import sqlite3

import pytest
import trio
from test_server_kit import MAP3, config, hex_settings, hosting, on_map

import protocol
from server.history import finished_game
from waddle.history import (
    FinishedGame,
    HistoryError,
    Seat,
    connect,
    head_to_head,
    players,
    ratings,
    recent,
    write_game,
)
from waddle.history.store import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION


def game(number, names, scores, winners, *, bots=(), kind="hex", setup="standard", table="t"):
    return FinishedGame(table=table, number=number, game=kind, options={}, setup=setup, started=0.0,
                        finished=float(number), record={"n": number},
                        seats=tuple(Seat(seat=i, label=f"s{i}", name=n, bot=bots[i] if i < len(bots) else None,
                                         score=s, winner=i in winners)
                                    for i, (n, s) in enumerate(zip(names, scores))))


@pytest.fixture
def db(tmp_path):
    db = connect(tmp_path / "h.sqlite", write=True)
    yield db
    db.close()


def test_counts_wins_averages_and_ratings_order_of_a_hand_made_history(db):
    # Ann always first, Bob second, Cy third, Dee last: by symmetry the ratings follow the places
    for n in (1, 2, 3):
        write_game(db, game(n, ["Ann", "Bob", "Cy", "Dee"], [40, 30, 20, 10 * n], [0],
                            setup="lagoon" if n == 3 else "standard"))
    lines = players(db, "hex")
    assert [s.player for s in lines] == ["Ann", "Bob", "Cy", "Dee"]
    ann, dee = lines[0], lines[3]
    assert (ann.games, ann.wins, ann.average) == (3, 3, 40.0)
    assert (dee.games, dee.wins, dee.average) == (3, 0, 20.0)  # (10 + 20 + 30) / 3
    assert [(s.setup, s.games, s.wins) for s in ann.setups] == [("standard", 2, 2), ("lagoon", 1, 1)]
    assert ann.rating.games == 3 and ann.rating.ordinal > lines[1].rating.ordinal > lines[2].rating.ordinal
    vs = head_to_head(db, "Ann", "Dee")
    assert (vs.games, vs.a_ahead, vs.b_ahead, vs.a_wins, vs.b_wins) == (3, 3, 0, 3, 0)


def test_bots_are_rated_by_kind_and_marked_and_each_game_is_rated_apart(db):
    write_game(db, game(1, ["Ann", "Pingu (greedy bot)", "Tux (greedy bot)"], [5, 9, 1], [1],
                        bots=(None, "greedy", "greedy")))
    write_game(db, game(2, ["Ann", "Bob"], [9, 1], [0], kind="downtown", setup="bundled deck"))
    hexes = {s.shown: s for s in players(db, "hex")}
    assert set(hexes) == {"Ann", "greedy (bot)"}
    assert hexes["greedy (bot)"].games == 1 and hexes["greedy (bot)"].wins == 1 and hexes["greedy (bot)"].bot
    assert {s.shown: s.wins for s in players(db, "downtown")} == {"Ann": 1, "Bob": 0}
    found = ratings(db, ["Ann", "Zed"], "downtown", bots=["greedy"])
    assert found["Ann"].ordinal > found["Zed"].ordinal and found["Zed"].games == 0
    assert found["greedy (bot)"].games == 0  # rated in the hex game only


def test_a_bot_kind_in_two_seats_of_a_game_counts_one_game_as_its_rating_does(db):
    # game 1: two greedy seats (9, the winner, and 1) against Ann; game 2: one greedy seat (3), Ann wins
    write_game(db, game(1, ["Ann", "Pingu (greedy bot)", "Tux (greedy bot)"], [5, 9, 1], [1],
                        bots=(None, "greedy", "greedy")))
    write_game(db, game(2, ["Ann", "Pingu (greedy bot)"], [9, 3], [0], bots=(None, "greedy")))
    greedy = {s.shown: s for s in players(db, "hex")}["greedy (bot)"]
    assert (greedy.games, greedy.wins, greedy.rating.games) == (2, 1, 2)
    assert greedy.average == 4.0  # game 1: (9 + 1) / 2 = 5, game 2: 3
    assert [(s.setup, s.games, s.wins, s.average) for s in greedy.setups] == [("standard", 2, 1, 4.0)]
    vs = head_to_head(db, "Ann", "greedy (bot)")  # game 1: greedy's best seat first; game 2: Ann first
    assert (vs.games, vs.a_ahead, vs.b_ahead, vs.a_wins, vs.b_wins) == (2, 1, 1, 1, 1)


def test_a_shared_win_counts_for_each_winner(db):
    write_game(db, game(1, ["Ann", "Bob", "Cy"], [7, 7, 3], [0, 1]))
    assert {s.player: s.wins for s in players(db)} == {"Ann": 1, "Bob": 1, "Cy": 0}
    assert head_to_head(db, "Ann", "Bob").a_ahead == head_to_head(db, "Ann", "Bob").b_ahead == 0


def test_a_game_written_again_is_kept_once(db):
    assert write_game(db, game(1, ["Ann", "Bob"], [3, 1], [0])) is True
    assert write_game(db, game(1, ["Ann", "Bob"], [3, 1], [0])) is False
    assert len(recent(db)) == 1 and players(db)[0].rating.games == 1


def test_recent_games_are_newest_first(db):
    for n in (2, 1, 3):
        write_game(db, game(n, ["Ann", "Bob"], [n, 0], [0]))
    assert [g.finished for g in recent(db, 2)] == [3.0, 2.0]


def test_bad_files_are_refused_naming_the_file(tmp_path):
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is no database at all" * 100)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.commit()
    future = tmp_path / "future.sqlite"
    connect(future, write=True).execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    for path, problem in ((garbage, "not a history database"), (other, "not a Waddle history"),
                          (future, "newer than this waddle"), (tmp_path / "none.sqlite", "no history here")):
        with pytest.raises(HistoryError) as caught:
            connect(path)
        assert str(path) in str(caught.value) and problem in str(caught.value)


def test_an_older_schema_is_brought_up_to_date_keeping_its_games(tmp_path):
    path = tmp_path / "v1.sqlite"
    old = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](old)
    old.execute("INSERT INTO games VALUES (1, 't', 1, 'hex', '{}', 'standard', 0, 5, '{}')")
    old.execute("INSERT INTO players VALUES (1, 0, 'red', 'Ann', NULL, 'Ann', 9, 1, 1)")
    old.execute("INSERT INTO players VALUES (1, 1, 'blue', 'Bob', NULL, 'Bob', 2, 0, 2)")
    old.execute(f"PRAGMA application_id={APPLICATION_ID}")
    old.execute("PRAGMA user_version=1")
    old.close()
    db = connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT fingerprint FROM players WHERE seat = 0").fetchone()[0] is None
    lines = players(db)
    assert [(s.player, s.rating.games) for s in lines] == [("Ann", 1), ("Bob", 1)]
    assert lines[0].rating.ordinal > lines[1].rating.ordinal


async def test_a_host_writes_each_finished_game_once_without_waiting_on_a_locked_file(tmp_path):
    path = tmp_path / "h.sqlite"
    connect(path, write=True).close()
    lock = sqlite3.connect(path, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")  # another program holds the file: the writer must wait, not the host
    cfg = config(prepared=on_map(MAP3), settings=hex_settings(3, bots=["random"]), history=path)
    async with hosting(cfg, tcp=True) as (host, connect_client):
        host.history.retry_interval = 0.05
        with trio.fail_after(30):
            ada, bob = await connect_client(), await connect_client()
            await ada.join("Ada")
            await bob.join("Bob")
            await ada.send(protocol.Start())
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(3))
                n.start_soon(bob.play_randomly, random.Random(4))
            await ada.until(lambda: host.table.phase == "finished" and ada.version == host.table.version)
            assert host.history.written == 0  # the game is over and told; the file is still locked
            lock.execute("ROLLBACK")
            assert await trio.to_thread.run_sync(host.history.idle, 20)
            host.history.submit(finished_game(host.table))  # again: kept once
            assert await trio.to_thread.run_sync(host.history.idle, 20)
    db = connect(path)
    (summary,) = recent(db)
    assert summary.names == tuple(s.name for s in host.table.seats) and host.history.written == 1
    assert summary.scores == host.table.match.outcome().scores
    assert {s.shown for s in players(db)} == {"Ada", "Bob", "random (bot)"}


def test_waddle_stats_prints_the_players_best_first_and_head_to_head(tmp_path, capsys):
    from client.cli import main

    db = connect(tmp_path / "h.sqlite", write=True)
    for n in (1, 2):
        write_game(db, game(n, ["Ann", "Pingu (greedy bot)"], [9, 3], [0], bots=(None, "greedy")))
    db.close()
    assert main(["stats", "--history", str(tmp_path / "h.sqlite")]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in out if line.startswith("  ") and not line.startswith("   ")]
    assert rows[1][:4] == ["Ann", "2", "2", "9.0"] and rows[2][:5] == ["greedy", "(bot)", "2", "0", "3.0"]
    note = " ".join(out[out.index("") + 1:])  # after the table, in lines of at most 78 columns
    assert float(rows[2][-1]) < 0 and note.startswith("rating: openskill's conservative estimate of skill, "
                                                      "mu - 3 sigma: a newcomer starts at 0.0")
    assert max(len(line) for line in out) <= 78
    assert main(["stats", "--history", str(tmp_path / "h.sqlite"), "--vs", "Ann", "greedy (bot)"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("Ann vs greedy (bot): 2 games together; Ann ahead 2")  # that alone
    assert main(["stats", "--history", str(tmp_path / "h.sqlite"), "--vs", "ann", "Nobody"]) == 2
    assert "no player 'ann' in the history (did you mean 'Ann'?" in capsys.readouterr().err
    assert main(["stats", "--history", str(tmp_path / "h.sqlite"), "--vs", "Ann", "Nobody"]) == 2
    assert "no player 'Nobody' in the history;" in capsys.readouterr().err
    assert main(["stats", "--history", str(tmp_path / "h.sqlite"), "--game", "downtown"]) == 0
    assert capsys.readouterr().out.strip() == "no finished Waddle Downtown games in the history yet"
    assert main(["stats", "--history", str(tmp_path / "none.sqlite")]) == 2
    assert "none.sqlite: no history here" in capsys.readouterr().err


def test_a_newcomer_s_rating_is_openskill_s_default():
    from waddle.rating import FRESH, model

    assert (model().mu, model().sigma) == FRESH


def test_waddle_stats_says_one_game_and_never_a_rating_of_minus_zero(tmp_path, capsys, monkeypatch):
    import msgspec

    from client.cli import main
    from client.commands import stats

    db = connect(tmp_path / "h.sqlite", write=True)
    write_game(db, game(1, ["Ann", "Bea"], [9, 3], [0]))
    db.close()
    real = stats._table
    monkeypatch.setattr(stats, "_table", lambda lines, clean, only: real(  # a rating just under zero
        [msgspec.structs.replace(s, rating=msgspec.structs.replace(s.rating, ordinal=-0.04)) for s in lines],
        clean, only))
    assert main(["stats", "--history", str(tmp_path / "h.sqlite")]) == 0
    out = capsys.readouterr().out
    assert main(["stats", "--history", str(tmp_path / "h.sqlite"), "--vs", "Ann", "Bea"]) == 0
    out += capsys.readouterr().out
    assert ": 1 game, 1 win, avg 9.0" in out and ": 1 game, 0 wins, avg 3.0" in out
    assert "Ann vs Bea: 1 game together" in out and "-0.0" not in out and " 0.0" in out


def test_a_history_on_a_read_only_disk_is_read_and_a_host_is_told_it_is_read_only(tmp_path):
    import shutil
    import subprocess
    import sys

    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (a mount namespace to make a read-only disk in)")
    folder = tmp_path / "ro"
    folder.mkdir()
    db = connect(folder / "h.sqlite", write=True)
    write_game(db, game(1, ["Ann", "Bo"], [9, 3], [0]))
    db.close()
    script = ("from waddle.history import HistoryError, connect, players\n"
              f"print([p.player for p in players(connect({str(folder / 'h.sqlite')!r}), 'hex')])\n"
              "try:\n"
              f"    connect({str(folder / 'h.sqlite')!r}, write=True)\n"
              "except HistoryError as exc:\n"
              "    print(exc)\n")
    done = subprocess.run(["unshare", "-rm", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" '
                           '&& exec "$1" -c "$2"', str(folder), sys.executable, script],
                          capture_output=True, text=True, timeout=60)
    if "mount" in done.stderr and done.returncode:
        pytest.skip(f"no read-only bind mount here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    read, refused = done.stdout.splitlines()
    assert read == "['Ann', 'Bo']"
    assert refused.startswith(f"{folder / 'h.sqlite'}: cannot open the history: the file or its folder is read-only")


def test_waddle_replay_without_a_file_and_no_game_chosen_ends_quietly(tmp_path):
    import subprocess
    import sys

    db = connect(tmp_path / "h.sqlite", write=True)
    write_game(db, game(1, ["Ann", "Bea"], [9, 3], [0]))
    db.close()
    done = subprocess.run([sys.executable, "-m", "client.cli", "replay", "--history", str(tmp_path / "h.sqlite")],
                          input="q\n", capture_output=True, text=True, timeout=60)
    assert "Which game?" in done.stdout and "Ann 9*, Bea 3" in done.stdout
    assert done.returncode == 0 and done.stderr == ""  # choosing none is no error


def test_waddle_stats_never_averages_scores_of_different_variants_together(tmp_path, capsys):
    from client.cli import main

    db = connect(tmp_path / "h.sqlite", write=True)
    write_game(db, game(1, ["Ann", "Bo"], [30, 20], [0]))                                 # standard: 30
    write_game(db, game(2, ["Ann", "Bo"], [75, 60], [0], setup="standard (mirror)"))     # two halves: 75
    write_game(db, game(3, ["Cy", "Di"], [40, 20], [0]))
    db.close()
    assert main(["stats", "--history", str(tmp_path / "h.sqlite")]) == 0
    out = capsys.readouterr().out.splitlines()
    ann = next(line.split() for line in out if line.startswith("  Ann "))
    cy = next(line.split() for line in out if line.startswith("  Cy "))
    assert ann[1:4] == ["2", "2", "-"] and cy[1:4] == ["1", "1", "40.0"]  # not 52.5 from 30 and 75
    assert "      standard: 1 game, 1 win, avg 30.0" in out
    assert "      standard (mirror): 1 game, 1 win, avg 75.0" in out
    notes = " ".join(out[out.index("") + 1:])
    assert "A player of several variants shows '-' there" in notes and max(len(line) for line in out) <= 78
