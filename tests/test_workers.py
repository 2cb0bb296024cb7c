"""A club host's worker process (server/workers.py): each new game prepared off the
host's process, the answer or the error back, a dead process replaced."""

import os
import select
import signal
import subprocess
import sys

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


#: A host's part, in a process of its own: a worker started, its pid printed, then waiting.
_HOST = """
import os, sys, trio
from server.workers import Workers
async def main():
    workers = Workers()
    print(await workers.run(os.getpid), flush=True)
    sys.stdin.read()
trio.run(main)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
def test_a_killed_host_leaves_no_worker_process_behind():
    host = subprocess.Popen([sys.executable, "-c", _HOST], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        worker = int(host.stdout.readline())
        assert _alive(worker)
        host.kill()
        host.wait(timeout=30)
        ended = os.pidfd_open(worker)  # readable once the worker has ended (Linux)
        try:
            readable, _, _ = select.select([ended], [], [], 30)  # bounded wait for that event
        finally:
            os.close(ended)
        assert readable, f"worker {worker} outlived its killed host"
    finally:
        if host.poll() is None:
            host.kill()
        host.stdin.close()
        host.stdout.close()


async def test_closed_the_pool_s_own_thread_has_ended_so_python_s_exit_cannot_race_it():
    import threading

    before = set(threading.enumerate())
    workers = Workers()
    with trio.fail_after(60):
        assert await workers.run(os.getpid) != os.getpid()
    assert set(threading.enumerate()) - before  # the pool's threads, while it runs
    workers.close()
    left = set(threading.enumerate()) - before
    assert not left, left  # a pool thread still ending raced the exit hook: a traceback at the host's exit
