"""A club host's worker process (server/workers.py): each new game prepared off the
host's process, the answer or the error back, a dead process replaced."""

import os
import signal

import pytest
import trio

from server.workers import Workers
from waddle.hex.options import HexOptions, StandardMap
from waddle.hex.ruleset import RULESET as HEX


async def test_a_hex_game_is_prepared_in_the_worker_process_the_same_as_here():
    workers = Workers()
    try:
        with trio.fail_after(60):
            there = await workers.run(HEX.prepare, HexOptions(map=StandardMap(seed=7)), 4, None)
            pid = await workers.run(os.getpid)
    finally:
        workers.close()
    assert pid != os.getpid()
    assert there == HEX.prepare(HexOptions(map=StandardMap(seed=7)), 4, None)  # seeded: the same map


async def test_the_work_s_error_comes_back_and_a_killed_process_is_replaced():
    workers = Workers()
    try:
        with trio.fail_after(60):
            with pytest.raises(ValueError, match="invalid literal"):
                await workers.run(int, "seven")
            first = await workers.run(os.getpid)
            os.kill(first, signal.SIGKILL)
            second = await workers.run(os.getpid)
    finally:
        workers.close()
    assert second not in (first, os.getpid())
