"""A headless bot client: a :class:`waddle.bots.Bot` playing one seat through a
:class:`client.core.Client` until the game ends.

The bot thinks on a copy of the replica in a worker thread, so the connection's
heartbeats and the other clients in the same process keep running meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from client.core import ActionRejected, Client, ClientError
from waddle.bots import Bot


async def play(client: Client, bot: Bot, *, ready: bool = True, pace: float = 0.0,
               on_rejected: Callable[[ActionRejected], None] | None = None) -> None:
    """Say ready (unless ``ready=False``) and play ``client``'s seat with ``bot`` to the game's end.

    ``pace``: seconds to wait before each move (so people can watch).

    A rejected action (the table moved on, a stand-in bot played the turn) is reported
    to ``on_rejected`` and the bot decides again after the next host message.

    Raises:
        ClientError: the client closed before the game ended (the reason in its message).
    """
    events = client.events()
    if ready:
        await client.ready()
    state = client.state
    while not state.finished:
        if state.my_turn:
            await trio.sleep(pace)
            if not state.my_turn:
                continue
            action = await trio.to_thread.run_sync(bot.choose, state.game.copy())
            try:
                await client.act(action)
                continue
            except ActionRejected as exc:
                if on_rejected is not None:
                    on_rejected(exc)
        try:
            await events.receive()
        except trio.EndOfChannel:
            raise ClientError(f"the connection closed before the game ended: "
                              f"{state.closed_reason}") from None
