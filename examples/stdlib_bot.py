"""A Waddle bot with the Python standard library only: socket, json and struct.

It shows the wire protocol is language-neutral (docs/protocol.md): 4-byte big-endian
length prefix, then one JSON object (protocol version 3). It plays whichever game the
host plays (``welcome.game``), following it from the ``started`` view and the events:

- The hex game: the map comes from the view, the active hex and turn tracks from
  ``round_ended``, each ``placed``/``scouted`` moves its player along the tracks. On its
  turn it places a single penguin on an empty ice hex next to the active hex, preferring
  hexes that touch its own penguins (bigger waddles). It never scouts and never uses a
  double, so it needs no other rule. When a player takes back a move (``undone``) it puts
  back what that move changed; at half-time it says ``continue`` at once.
- Waddle Downtown: the places, supplies, piles and its own hand come from the view (its
  seat's: no other hand), and the events keep them current. At the setup it discards a
  card other than the Copy; on its turn it plays a random card the play restriction
  allows (a Copy copies an opponent's top card), with the card's action done the
  simplest legal way (A: one penguin on a place with room; B: the first place whose
  penguins fit elsewhere, spread in board order; Recolour and Recall: one penguin), and
  in the single-deck variant draws the deck's top (or a display card once it is empty).

    python examples/stdlib_bot.py 127.0.0.1:7777 --name Stdlib [--code CODE] [--game downtown]

Limits: it joins from the lobby (no reclaim after a dropped link) and plays until the
``game_ended`` event, then prints the final scores and leaves.
"""

import argparse
import json
import random
import socket
import struct
import sys

HEADER = struct.Struct(">I")
MAX_FRAME = 1024 * 1024          # the host's frame cap
NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def send(sock, message):
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    sock.sendall(HEADER.pack(len(body)) + body)


def receive_exactly(sock, size):
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the host closed the connection")
        data += chunk
    return data


def receive(sock):
    (length,) = HEADER.unpack(receive_exactly(sock, HEADER.size))
    if not 0 < length <= MAX_FRAME:
        raise ConnectionError(f"bad frame length {length}")
    return json.loads(receive_exactly(sock, length).decode("utf-8"))


def around(hex):
    q, r = hex
    return [(q + dq, r + dr) for dq, dr in NEIGHBOURS]


class HexTable:
    """The little the bot needs to know of the hex game: the board, the active hex, the turn tracks."""

    def __init__(self, view):
        hexes = view["map"]["hexes"]
        self.ice = {(h["q"], h["r"]) for h in hexes if h["terrain"] == "ice"}
        numbered = sorted((h["number"], (h["q"], h["r"])) for h in hexes
                          if h["terrain"] == "water" and h.get("number") is not None)
        self.owner = {}                                    # hex -> colour
        self.active = next(w for _, w in numbered if any(n in self.ice for n in around(w)))
        self.tracks = [list(view["players"]), []]
        self.active_track = 0

    def to_act(self, colour):
        """Whether ``colour`` may act now."""
        return self.active is not None and self.tracks[self.active_track][0] == colour

    def follow(self, events):
        """Follow the events of one action."""
        for event in events:
            self._follow(event)

    def _follow(self, event):
        kind = event["type"]
        track = self.tracks[self.active_track]
        if kind == "placed":
            self.owner[tuple(event["hex"])] = event["player"]
            track.append(track.pop(0))
        elif kind == "scouted":
            self.tracks[1 - self.active_track].append(track.pop(0))
        elif kind == "half_ended":
            self.owner.clear()
        elif kind == "round_ended":
            self.active = tuple(event["active_hex"]) if event["active_hex"] else None
            self.tracks = [list(t) for t in event["tracks"]]
            self.active_track = event["active_track"]

    def copy(self):
        """What :meth:`follow` changes, to put back after a take-back (``undone``)."""
        return dict(self.owner), [list(t) for t in self.tracks], self.active, self.active_track

    def restore(self, saved):
        owner, tracks, self.active, self.active_track = saved
        self.owner, self.tracks = dict(owner), [list(t) for t in tracks]

    def choose(self, colour, rng):
        empty = [h for h in around(self.active) if h in self.ice and h not in self.owner]
        friendly = [h for h in empty if any(self.owner.get(n) == colour for n in around(h))]
        return {"type": "place", "hex": list(rng.choice(friendly or empty)), "double": False}

    @staticmethod
    def scores(ended):
        """The final score lines of a ``game_ended`` event."""
        ranked = sorted(ended["scores"].items(), key=lambda kv: -kv[1]["total"])
        lines = [f"{p:<7} {s['waddles']:>3} + {s['pools']:>3} = {s['total']:>3}" for p, s in ranked]
        return lines + ["winners: " + " ".join(ended["winners"])]


CAPACITY = 5                     # Waddle Downtown: penguins a place holds at most


def neighbourhoods(places):
    """Waddle Downtown's neighbourhoods by the place names (docs/protocol.md): with 2
    players ``P1``-``P5`` are the ring; else Light is the ``L`` and ``C`` places, Dark
    the ``D`` and ``C`` places (3 players: the centre places ``C1``, ``C2`` are in both)."""
    if places[0].startswith("P"):
        return {"ring": list(places)}
    return {"light": [p for p in places if p[0] in "LC"], "dark": [p for p in places if p[0] in "DC"]}


class DowntownTable:
    """What the bot knows of Waddle Downtown: its seat's view, kept current by the events."""

    def __init__(self, view):
        self.players, self.me = view["players"], view["audience"]
        self.names = [p["place"] for p in view["places"]]
        self.places = {p["place"]: [p["red"], p["yellow"]] for p in view["places"]}
        self.hoods = neighbourhoods(self.names)
        self.supply = [[s["red"], s["yellow"]] for s in view["seats"]]
        self.tops = [s["pile"][-1] if s["pile"] else None for s in view["seats"]]
        self.chosen = [s["discarded"] for s in view["seats"]]
        self.hand = list(view["hand"])
        self.cards = {card["name"]: card for card in view["cards"]}
        self.single, self.deck, self.display = view["single_deck"], view["deck"], list(view["display"])
        self.phase, self.order, self.turn = view["phase"], view["order"], view["turn"]

    def to_act(self, colour):
        """Whether this seat may act now: a setup discard still to choose, or its turn."""
        if self.phase == "setup":
            return self.me != 0 and not self.chosen[self.me]
        return self.phase in ("play", "draw") and self.order[self.turn] == self.me

    def follow(self, events):
        """Follow the events of one action, then whose turn it is."""
        for event in events:
            getattr(self, "_" + event["type"], lambda event: None)(event)
        first = events[0]["type"]
        drew = any(e["type"] == "drew" for e in events)
        if first == "played" and not drew and self.single and (self.deck or self.display):
            self.phase = "draw"                      # the player chooses what to draw
        elif first in ("played", "drew") and self.phase != "over":
            self.phase, self.turn = "play", self.turn + 1
            if any(e["type"] in ("round_ended", "tie_break") for e in events):
                self.turn = 0

    def _discard_chosen(self, event):
        self.chosen[event["seat"]] = True
        if event["card"] is not None and event["seat"] == self.me:
            self.hand.remove(event["card"])

    def _discards_revealed(self, event):
        for seat, card in enumerate(event["cards"]):
            if card is not None:
                self.tops[seat] = card
        self.phase = "play"

    def _played(self, event):
        seat, act = event["seat"], event["act"]
        self.tops[seat] = event["card"]
        if seat == self.me:
            self.hand.remove(event["card"])
        if act is None:
            return
        supply = self.supply[seat]
        if act["type"] == "recolour":
            take, put = (0, 1) if act["colour"] == "red" else (1, 0)
            place = self.places[act["place"]]
            place[take] -= act["count"]
            place[put] += act["count"]
            supply[take] += act["count"]
            supply[put] -= act["count"]
            return
        if act["type"] == "move":
            self.places[act["source"]] = [0, 0]
        sign = -1 if act["type"] == "recall" else 1
        for penguins in act["penguins"]:
            place = self.places[penguins["place"]]
            place[0] += sign * penguins["red"]
            place[1] += sign * penguins["yellow"]
            if act["type"] != "move":
                supply[0] -= sign * penguins["red"]
                supply[1] -= sign * penguins["yellow"]

    def _drew(self, event):
        if event["seat"] == self.me and event["card"] is not None:
            self.hand.append(event["card"])
        if event["source"] == "display":
            slot = self.display.index(event["card"])
            if event["refill"] is None:
                del self.display[slot]
            else:
                self.display[slot] = event["refill"]
        if self.single and (event["source"] == "deck" or event["refill"] is not None):
            self.deck -= 1

    def _tie_break(self, event):
        self.order = event["seats"]

    def _game_ended(self, event):
        self.phase = "over"

    def choose(self, colour, rng):
        """This seat's action now."""
        if self.phase == "setup":
            card = next((c for c in self.hand if self.cards[c]["rule"] != "copy"), self.hand[0])
            return {"type": "discard", "card": card}
        if self.phase == "draw":
            return {"type": "draw", "card": None if self.deck else self.display[0]}
        shown = {top for seat, top in enumerate(self.tops) if seat != self.me and top is not None}
        card = rng.choice([c for c in self.hand if c not in shown] or self.hand)
        copied = None
        if self.cards[card]["rule"] == "copy":
            copied = next((t for t in sorted(shown) if self.cards[t]["rule"] != "copy"), None)
        action = self.cards[copied or card]["action"] if copied or self.cards[card]["rule"] != "copy" else "standard"
        return {"type": "play", "card": card, "copied": copied, "act": self.act(action)}

    def act(self, action):
        """The simplest legal act of ``action`` (``None`` when none is possible)."""
        supply = self.supply[self.me]
        for hood, places in self.hoods.items():
            for name in places:
                red, yellow = self.places[name]
                if action == "standard" and red + yellow < CAPACITY and any(supply):
                    colour = 0 if supply[0] else 1
                    return {"type": "add", "hood": hood, "penguins": [self._penguins(name, colour, 1)]}
                if action == "recall" and red + yellow:
                    return {"type": "recall", "hood": hood, "penguins": [self._penguins(name, 0 if red else 1, 1)]}
                if action == "recolour" and (red and supply[1] or yellow and supply[0]):
                    return {"type": "recolour", "place": name, "colour": "red" if red and supply[1] else "yellow",
                            "count": 1, "hood": hood}
        return self.move() if action == "standard" else None

    def move(self):
        """Action B: empty the first place whose penguins fit on the other places of a
        neighbourhood, filling those places in board order (``None``: no such place)."""
        for source in self.names:
            red, yellow = self.places[source]
            for hood, places in self.hoods.items():
                targets = [p for p in places if p != source]
                if not red + yellow or sum(CAPACITY - sum(self.places[p]) for p in targets) < red + yellow:
                    continue
                penguins, left = [], [red, yellow]
                for name in targets:
                    room = CAPACITY - sum(self.places[name])
                    put = [min(room, left[0]), 0]
                    put[1] = min(room - put[0], left[1])
                    left = [left[0] - put[0], left[1] - put[1]]
                    if any(put):
                        penguins.append({"place": name, "red": put[0], "yellow": put[1]})
                return {"type": "move", "source": source, "hood": hood, "penguins": penguins}
        return None

    @staticmethod
    def _penguins(place, colour, count):
        return {"place": place, "red": count if colour == 0 else 0, "yellow": count if colour == 1 else 0}

    def scores(self, ended):
        """The final score lines of a ``game_ended`` event."""
        ranked = sorted(range(len(self.players)), key=lambda s: -ended["scores"][s])
        lines = [f"{self.players[s]:<7} {ended['scores'][s]:>3}" for s in ranked]
        shared = " (shared)" if ended["shared"] else ""
        return lines + ["winners: " + " ".join(self.players[s] for s in ended["winners"]) + shared]


TABLES = {"hex": HexTable, "downtown": DowntownTable}


def play(host, port, name, code=None, seed=None, game=None):
    """Join, play to the end; return the game's table and its ``game_ended`` event."""
    rng = random.Random(seed)
    with socket.create_connection((host, port), timeout=60) as sock:
        send(sock, {"type": "hello", "protocol": 3, "client": "stdlib-bot", "game": game})
        welcome = receive(sock)
        if welcome["type"] != "welcome" or welcome["game"] not in TABLES:
            raise ConnectionError(f"refused: {welcome}")
        make_table = TABLES[welcome["game"]]
        send(sock, {"type": "join", "name": name, "label": None, "code": code})
        token = colour = table = None
        version, acted_on, ids, paused, before = 0, None, 0, False, []
        while True:
            message = receive(sock)
            kind = message["type"]
            if kind == "ping":
                send(sock, {"type": "pong", "nonce": message["nonce"]})
            elif kind == "seated":
                token, colour = message["token"], message["label"]
                print(f"seated as {colour}", flush=True)
                send(sock, {"type": "ready", "ready": True})
            elif kind in ("closing",) or (kind == "rejected" and message["request"] != "act"):
                raise ConnectionError(f"{message['code']}: {message['message']}")
            elif kind == "rejected":
                acted_on = None                          # decide again
            elif kind == "started":
                table, version, before = make_table(message["view"]), message["version"], []
            elif kind == "lobby":                        # half-time: say to go on at once
                paused = message.get("pause") is not None
                if any(s["label"] == colour and s.get("waiting") for s in message["seats"]):
                    send(sock, {"type": "continue"})
            elif kind == "undone":                       # a player took back their last action
                version = message["version"]
                table.restore(before.pop())
            elif kind == "played":
                version = message["version"]
                if isinstance(table, HexTable):
                    before.append(table.copy())
                table.follow(message["events"])
                ended = [e for e in message["events"] if e["type"] == "game_ended"]
                if ended:
                    send(sock, {"type": "leave"})
                    return table, ended[0]
            if table and not paused and table.to_act(colour) and acted_on != version:
                ids += 1
                acted_on = version
                send(sock, {"type": "act", "id": str(ids), "version": version, "token": token,
                            "action": table.choose(colour, rng)})


def parse_address(text):
    """``"HOST:PORT"`` (``"[::1]:7777"`` for IPv6) -> ``(host, port)``; a ``ValueError``
    worded as ``waddle join``'s for anything else."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host:
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:7777), got {text!r}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"bad port {port!r} in {text!r}: expected a number from 1 to 65535")
    return host.removeprefix("[").removesuffix("]"), int(port)


def main(argv=None):
    parser = argparse.ArgumentParser(description="A Waddle bot using only the standard library.")
    parser.add_argument("address", metavar="HOST:PORT")
    parser.add_argument("--name", default="stdlib bot")
    parser.add_argument("--code", default=None, help="the table's join code")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--game", choices=tuple(TABLES), default=None,
                        help="play only this game (default: whatever the host plays)")
    args = parser.parse_args(argv)
    try:
        table, ended = play(*parse_address(args.address), args.name, args.code, args.seed, args.game)
    except (OSError, ValueError) as exc:
        print(f"stdlib_bot: {exc}", file=sys.stderr)
        return 2
    print("\n".join(table.scores(ended)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
