"""A Waddle bot on the client library, in about twenty lines.

    python examples/simple_bot.py 127.0.0.1:7777 --name Simple [--code CODE]

It joins, says it is ready and, on each of its turns, plays the greedy bot of the
host's game; the client reconnects by itself if the link drops.
"""

import argparse

import trio

from client import ClientError, connect
from client.address import parse_address


async def main(host: str, port: int, name: str, code: str | None = None) -> None:
    async with connect(host, port, name=name, code=code) as client:
        bot = client.state.ruleset.make_bot("greedy", seed=1)
        await client.ready()
        async for _ in client.events():              # after every message from the host
            if client.state.finished:
                break
            if client.state.my_turn:
                await client.act(bot.choose(client.state.view.position()))
        print(dict(zip(client.state.view.labels, client.state.outcome().scores)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("address", metavar="HOST:PORT")
    parser.add_argument("--name", default="simple bot")
    parser.add_argument("--code", help="the table's join code")
    args = parser.parse_args()
    try:
        trio.run(main, *parse_address(args.address), args.name, args.code)
    except (ClientError, ValueError) as exc:
        raise SystemExit(f"simple_bot: {exc}") from None
