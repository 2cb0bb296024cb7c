"""A hostile host against ``waddle bot``: whatever text it sends (names, labels, bot kinds,
rejections, closing messages), no escape, C1 control or bidi character reaches the
terminal."""

import sys
import unicodedata

import trio

import protocol
from protocol import FramedStream
from waddle.hex.options import HexOptions
from waddle.hex.ruleset import RULESET as HEX
from waddle.hex.tiles import standard_map
from waddle.ruleset import Prepared

#: Terminal tricks: set the title, clear the screen, an 8-bit CSI, bidi overrides and isolates.
EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\u2066\u200f\x85"


def hostile_lobby(phase: str) -> protocol.Lobby:
    seats = [protocol.SeatInfo(seat=i, label=label, colour=label, name=f"{EVIL}{label}", connected=True,
                               ready=True, bot=EVIL) for i, label in enumerate(("red", "blue"))]
    return protocol.Lobby(phase=phase, settings=protocol.Settings(players=2, options=HexOptions()),
                          seats=seats, owner=0)


async def hostile_host(stream) -> None:
    framed = FramedStream.for_server(stream, HEX)
    match = HEX.new_match(Prepared(None, standard_map(2, 3)), HexOptions(), ["red", "blue"])
    await framed.receive()  # hello
    await framed.send(protocol.Welcome(protocol=2, server=EVIL, game="hex", code_required=False,
                                       phase="playing", title=EVIL, table=EVIL))
    await framed.receive()  # join
    await framed.send(protocol.Seated(seat=0, label="red", name=f"Robo{EVIL}", token="t"))
    await framed.send(protocol.Snapshot(version=1, view=match.view(0), lobby=hostile_lobby("playing")))
    await framed.send(protocol.Chat(name=EVIL, label=None, text=EVIL))
    act = await framed.receive()
    while not isinstance(act, protocol.Act):
        act = await framed.receive()
    await framed.send(protocol.Rejected(request="act", code=EVIL, message=EVIL, id=act.id))
    action = match.position(0).legal_actions()[0]
    await framed.send(protocol.Played(version=2, seat=0, events=match.apply(0, action), bot=EVIL))
    await framed.send(protocol.Closing(code="host_stopped", message=f"the host stopped{EVIL}"))
    with trio.move_on_after(30):  # until the bot, told the host stopped, hangs up
        while await stream.receive_some():
            pass


def bad_characters(text: str) -> list[str]:
    return [c for c in text if c == "\x1b" or "\x80" <= c <= "\x9f" or unicodedata.bidirectional(c)
            in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "LRM", "RLM", "ALM")]


async def test_no_escape_c1_or_bidi_character_from_a_hostile_host_reaches_the_output():
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(trio.serve_tcp, hostile_host, 0)
        port = listeners[0].socket.getsockname()[1]
        with trio.fail_after(60):
            done = await trio.run_process([sys.executable, "-m", "client.cli", "bot", f"127.0.0.1:{port}",
                                           "--name", "Robo", "--strategy", "random", "--wait", "5", "--follow", "0"],
                                          capture_stdout=True, capture_stderr=True, check=False)
        nursery.cancel_scope.cancel()
    out, err = done.stdout.decode(), done.stderr.decode()
    assert "seated as red (Robo" in out and "rejected: " in out and "[" in out  # the host's text, cleaned
    assert "evil" in out and "the host stopped" in err and "Traceback" not in err
    assert bad_characters(out) == [] and bad_characters(err) == []


def test_each_game_s_text_lines_clean_every_text_from_the_host():
    from client.games import part
    from waddle.downtown.options import DowntownOptions
    from waddle.downtown.ruleset import RULESET as DOWNTOWN

    games = [(HEX, HexOptions(), Prepared(None, standard_map(2, 3))),
             (DOWNTOWN, DowntownOptions(), DOWNTOWN.prepare(DowntownOptions(), 2, 1))]
    for ruleset, options, prepared in games:
        match = ruleset.new_match(prepared, options, ["red", "blue"] if ruleset is HEX else ["blue", "green"])
        seat = min(match.to_act())
        events = match.apply(seat, match.position(seat).legal_actions()[0])
        played = protocol.Played(version=2, seat=seat, events=match.redact(events, seat), bot=EVIL)
        text = part(ruleset.name, "text")
        labels = [f"{EVIL}{label}" for label in match.labels]
        lines = [text.move_line(played, labels, lambda label: EVIL + label),
                 *text.score_lines(match.outcome(), list(match.labels), lambda label: EVIL + label)]
        assert all(bad_characters(line) == [] for line in lines), (ruleset.name, lines)
        assert "evil" in lines[0], lines[0]  # cleaned, not dropped
