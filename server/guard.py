"""Guessing a table's join code: each guess checked in constant time, wrong guesses
slowed down per address and in all, so a default code cannot be found in a night.

One :class:`Guard` serves a host's every way in: the TCP join and watch requests
(:class:`server.table.Table`) and the SSH gateway's password (the code is the password).
A guess is one call::

    verdict = guard.check(address, given, secret)   # address: the peer's IP text, or None
    if verdict.ok:
        ...                                         # let it in
    else:
        refuse(verdict.why)                         # e.g. "the join code is wrong"

``check`` never blocks and never sleeps, so a wrong code costs the guesser (it is told
to wait, and its next guess within that time is refused without being compared), never
the host; it is thread-safe (the SSH gateway may call it from its own thread or event
loop) and reads time from ``clock`` (seconds, :func:`time.monotonic` by default; a trio
test passes ``trio.current_time``).

How it slows guesses (:class:`Policy`; the numbers are in docs/protocol.md, "Join codes"):

- per address (an IPv4 address; an IPv6 address by its /64 network, which one machine
  may fill with addresses): the first ``free`` wrong codes cost nothing (a player who
  mistypes once, or twice, gets in at once with the right code); after that, each wrong
  code makes the address wait ``delay`` seconds, doubling with every further wrong code
  up to ``max_delay``, before its next guess is compared;
- in all: the same over every address together (``overall_free``, ``overall_delay``,
  ``overall_max_delay``), so many addresses guess no faster than a few;
- wrong codes are counted over a window: an address (or the host) that guessed nothing
  wrong for ``window`` seconds starts again from nothing;
- state is bounded: at most ``max_addresses`` addresses are remembered (the one unheard
  from longest is forgotten first; the limit in all still holds for it), each in a few
  numbers.

A refused guess is not compared at all, so while it waits a guesser learns nothing: in
the long run at most one guess per ``overall_max_delay`` seconds is compared, whatever the
number of addresses (:meth:`Policy.guesses_per_minute`). A right code clears its
address's count (not the count in all).

Codes are compared with :func:`hmac.compare_digest` (:func:`server.seats.same_secret`):
how long a comparison takes does not depend on where the codes differ. The default code
(:func:`new_code`) has :data:`CODE_BITS` random bits.
"""

from __future__ import annotations

import ipaddress
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from server.seats import same_secret

#: The letters of a made-up join code: digits and lower-case letters without i, l, o
#: and u (Crockford's base 32: nothing to confuse 0 with o or 1 with l), 5 bits each.
CODE_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
#: Letters of a made-up join code.
CODE_LENGTH = 8
#: Random bits of a made-up join code: 40 (:meth:`Policy.night_chance`: under the
#: default policy the chance of finding one in a 12-hour night is about 2 in 100 million).
CODE_BITS = CODE_LENGTH * 5


def new_code() -> str:
    """A fresh random join code: :data:`CODE_LENGTH` letters of :data:`CODE_ALPHABET`
    (:data:`CODE_BITS` bits, from :mod:`secrets`), e.g. ``"k7mq3x9d"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class Policy:
    """How hard guessing is made (times in seconds; the defaults are the host's).

    Per address: ``free`` wrong codes without delay, then ``delay`` doubling per wrong code
    up to ``max_delay``. In all: ``overall_free``, then ``overall_delay`` doubling up to
    ``overall_max_delay``. Counts start again after ``window`` seconds without a wrong
    code; at most ``max_addresses`` addresses are remembered.
    """

    free: int = 3
    delay: float = 1.0
    max_delay: float = 60.0
    overall_free: int = 30
    overall_delay: float = 0.25
    overall_max_delay: float = 2.0
    window: float = 900.0
    max_addresses: int = 4096

    def guesses_per_minute(self) -> float:
        """The most guesses compared in a minute in the long run, from any number of
        addresses: one per ``overall_max_delay`` (the ``overall_free`` ones come once per
        quiet ``window`` on top)."""
        return 60.0 / self.overall_max_delay

    def night_chance(self, bits: int = CODE_BITS, hours: float = 12.0) -> float:
        """The chance that guessing finds a code of ``bits`` random bits within ``hours``
        (every compared guess a new code, at :meth:`guesses_per_minute`, plus the free ones)."""
        guesses = self.guesses_per_minute() * 60 * hours + self.overall_free + self.free
        return min(1.0, guesses / 2.0 ** bits)


@dataclass(frozen=True)
class Verdict:
    """What :meth:`Guard.check` decided about one guess.

    ``ok``: the code is right (let it in). ``checked``: the code was compared (``False``:
    refused unseen, the guesser must wait). ``wait``: seconds before the next guess from
    this address is compared (0: at once). ``why``: for the guesser when not ``ok``
    (plain text: "the join code is wrong", "too many wrong join codes ...: try again in
    8 s").
    """

    ok: bool
    checked: bool
    wait: float = 0.0
    why: str = ""


class _Count:
    """Wrong codes counted over a window: how many, and until when the next is refused."""

    __slots__ = ("wrong", "last", "until")

    def __init__(self) -> None:
        self.wrong, self.last, self.until = 0, -math.inf, -math.inf

    def forget_if_quiet(self, now: float, window: float) -> None:
        if now - self.last >= window:
            self.wrong, self.until = 0, -math.inf

    def failed(self, now: float, free: int, delay: float, max_delay: float) -> None:
        self.wrong += 1
        self.last = now
        over = self.wrong - free
        if over > 0:
            self.until = now + min(max_delay, delay * 2.0 ** min(over - 1, 64))


class Guard:
    """Checks guesses of a secret code (see the module docstring): :meth:`check`.

    ``policy``: the limits; ``clock``: the time in seconds (monotonic).
    """

    def __init__(self, policy: Policy | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy or Policy()
        self.clock = clock
        self._lock = threading.Lock()
        self._addresses: OrderedDict[str, _Count] = OrderedDict()
        self._overall = _Count()
        #: Guesses since the guard was made: compared and wrong, and refused unseen.
        self.wrong = 0
        self.refused = 0

    def check(self, address: str | None, given: str | None, secret: str) -> Verdict:
        """Whether ``given`` (a client's code; ``None``: none given, a wrong code) is
        ``secret``, for a guess from ``address`` (IP address text; ``None``: a stream
        without one, all such counted as one address). Never raises, never blocks."""
        with self._lock:
            now, policy = self.clock(), self.policy
            key = address_key(address)
            count = self._count(key, now)
            self._overall.forget_if_quiet(now, policy.window)
            until = max(count.until, self._overall.until)
            if now < until:
                self.refused += 1
                wait = until - now
                return Verdict(False, False, wait, _wait_text(wait, count.until >= self._overall.until))
            if given is not None and same_secret(given, secret):
                del self._addresses[key]
                return Verdict(True, True)
            self.wrong += 1
            count.failed(now, policy.free, policy.delay, policy.max_delay)
            self._overall.failed(now, policy.overall_free, policy.overall_delay, policy.overall_max_delay)
            wait = max(0.0, max(count.until, self._overall.until) - now)
            return Verdict(False, True, wait, "the join code is wrong" + (
                f" (the next try is looked at in {_seconds(wait)})" if wait else ""))

    def wrong_codes(self, address: str | None) -> int:
        """The wrong codes counted for ``address`` now (0 when forgotten)."""
        with self._lock:
            count = self._addresses.get(address_key(address))
            if count is None:
                return 0
            count.forget_if_quiet(self.clock(), self.policy.window)
            return count.wrong

    def __len__(self) -> int:
        """How many addresses are remembered (at most ``policy.max_addresses``)."""
        return len(self._addresses)

    def _count(self, key: str, now: float) -> _Count:
        count = self._addresses.get(key)
        if count is None:
            count = self._addresses[key] = _Count()
            if len(self._addresses) > self.policy.max_addresses:
                self._addresses.popitem(last=False)
        else:
            self._addresses.move_to_end(key)
            count.forget_if_quiet(now, self.policy.window)
        return count


def address_key(address: str | None) -> str:
    """Whose guesses ``address`` makes: an IPv4 address as it is (an IPv4-mapped IPv6
    address as its IPv4 address), an IPv6 address as its /64 network, ``""`` for
    ``None``; other text as it is."""
    if not address:
        return ""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _wait_text(wait: float, own: bool) -> str:
    whose = "from your address" if own else "at this host"
    return f"too many wrong join codes {whose}: try again in {_seconds(wait)}"


def _seconds(wait: float) -> str:
    return f"{max(1, math.ceil(wait))} s"
