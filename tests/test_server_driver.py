"""The table's driver plays bot seats: a quick bot on the host's loop, any other in a
worker thread (server/driver.py, waddle.ruleset.Bot)."""

import trio
from test_server_kit import MAP3, config, hex_settings, hosting, on_map

import protocol


async def test_a_quick_bot_chooses_on_the_host_s_loop_and_a_searching_one_in_a_worker_thread(autojump_clock):
    settings = hex_settings(3, bots=["random", "greedy"], seat_order="seated")
    thought: list[str] = []  # the bots whose choices were handed to a worker thread

    async def offload(function, *args):  # inline, as the kit's (virtual time)
        bot = getattr(function, "__self__", None)
        if bot is not None and hasattr(bot, "choose"):
            thought.append(bot.name)
        return function(*args)

    with trio.fail_after(600):
        async with hosting(config(settings=settings, prepared=on_map(MAP3), grace=1.0)) as (host, connect):
            host.table.offload = offload
            ada = await connect()
            await ada.join("Ada")
            await ada.send(protocol.Start())
            await ada.expect(protocol.Started)
            await ada.stream.aclose()  # away: after the grace a stand-in (greedy) plays her seat
            while host.table.phase != "finished":
                await trio.sleep(1)
    bots = [kind for kind in host.table.bot_kinds if kind is not None]
    assert {"random", "greedy"} <= set(bots)
    assert thought and set(thought) == {"greedy"}  # every greedy choice, no random one
    assert len(thought) == bots.count("greedy")
