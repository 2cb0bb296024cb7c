"""A headless bot client: a :class:`waddle.ruleset.Bot` playing one seat through a
:class:`client.core.Client` until the game ends.

The bot thinks on a private copy of what its seat knows (:meth:`waddle.ruleset.View.position`)
in a worker thread, so the connection's heartbeats and the other clients in the same
process keep running meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from client.core import ActionRejected, Client, ClientError
from client.state import TableState
from protocol import Continue, Rejected
from waddle.ruleset import Bot


async def start_when_full(client: Client, on_refused: Callable[[Rejected], None] | None = None) -> None:
    """Ask to start the game; if the host refuses, say ready and ask once more when every seat is filled.

    For the table's owner: the host's bots fill the empty seats, so the first ``start``
    usually starts the game. If it is refused (seats empty and no bots to fill them, or
    this seat is not the owner), the refusal goes to ``on_refused``, the seat says it is
    ready (the host starts once every seat is filled and ready) and, once every seat is
    filled, asks to start again. Returns when the game has started, or after that second
    request is answered.

    Raises:
        ClientError: the client closed first.
    """
    if not await _start_refused(client):
        return
    if on_refused is not None:
        on_refused(client.state.last_rejection)
    await client.ready()
    await client.wait_for(lambda s: s.phase != "lobby" or _table_full(s))
    if client.state.phase == "lobby":
        await _start_refused(client)


async def _start_refused(client: Client) -> bool:
    """Send ``start``; ``True`` if it was refused, ``False`` once the game started."""
    before = client.state.last_rejection
    await client.start()
    await client.wait_for(lambda s: s.phase != "lobby" or (
        s.last_rejection is not before and s.last_rejection.request == "start"))
    return client.state.phase == "lobby"


def _table_full(state: TableState) -> bool:
    return state.settings is not None and len(state.seats) >= state.settings.players


async def play(client: Client, bot: Bot, *, ready: bool = True, pace: float = 0.0,
               on_rejected: Callable[[ActionRejected], None] | None = None) -> None:
    """Say ready (unless ``ready=False``) and play ``client``'s seat with ``bot`` to the game's end.

    ``pace``: seconds to wait before each move (so people can watch). A pause the host
    waits for this seat in (half-time) is ended for it at once (``continue``).

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
        if state.waiting_for_me:
            client.send_nowait(Continue())
        elif state.my_turn:
            await trio.sleep(pace)
            if not state.my_turn:
                continue
            action = await trio.to_thread.run_sync(bot.choose, state.view.position())
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
