"""A club's tables bring their saves to the disk in batches (server/flush.py)."""

import os

import trio

import server.flush
from server.flush import Flusher


async def test_savers_asking_while_a_flush_is_under_way_share_the_next_one_and_each_hears_its_own_error(
        tmp_path, autojump_clock, monkeypatch):
    files = [tmp_path / f"table-{i}.waddle.json" for i in range(5)]
    for file in files:
        file.write_text("{}")
    missing = tmp_path / "gone.waddle.json"
    batches, syncs = [], []
    monkeypatch.setattr(server.flush.os, "sync", lambda: syncs.append(len(batches)))

    async def offload(function, batch):  # a worker thread's job, inline, taking 10 ms
        batches.append(batch)
        await trio.sleep(0.01)
        return function(batch)

    flusher = Flusher(offload)
    errors = {}

    async def save(file):
        errors[file] = await flusher.sync(file)

    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            for file in [*files, missing]:
                nursery.start_soon(save, file)
    assert [len(batch) for batch in batches] == [1, 5]  # the first alone, the rest together
    assert syncs == [2]  # one flush of every file system, for the batch of five
    assert all(errors[file] is None for file in files)
    assert isinstance(errors[missing], FileNotFoundError)


async def test_a_single_table_s_journal_is_flushed_by_its_own_fsync(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(server.flush.os, "sync", lambda: synced.append("all"))
    monkeypatch.setattr(server.flush.os, "fsync", lambda fd: synced.append(fd))
    fd = os.open(tmp_path / "g.json.journal", os.O_WRONLY | os.O_CREAT)
    try:
        assert await Flusher().sync(fd) is None
    finally:
        os.close(fd)
    assert synced == [fd]
