"""A Waddle bot on the client library, in about twenty lines.

    python examples/simple_bot.py 127.0.0.1:7777 --name Simple

It joins, says it is ready and, on each of its turns, plays the greedy bot's choice
(``waddle.bots``); the client reconnects by itself if the link drops.
"""

import argparse

import trio

from client import connect
from waddle.bots import make_bot


async def main(host: str, port: int, name: str) -> None:
    bot = make_bot("greedy", seed=1)
    async with connect(host, port, name=name) as client:
        await client.ready()
        async for _ in client.events():              # after every message from the host
            if client.state.finished:
                break
            if client.state.my_turn:
                await client.act(bot.choose(client.state.game))
        print(client.state.live_scores())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("address", metavar="HOST:PORT")
    parser.add_argument("--name", default="simple bot")
    args = parser.parse_args()
    host, _, port = args.address.rpartition(":")
    trio.run(main, host, int(port), args.name)
