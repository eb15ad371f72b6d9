"""Fan-out of JSON messages to many Server-Sent-Events clients.

A game's session thread (or a hall's poller) calls `Hub.publish` after each step; every
browser connected to the stream gets the message. The hub is the only thing the producing
thread and the web server's event loop share, and it is built so that a slow or stalled
browser never delays the producer:

- `publish` encodes a message once, appends it to each client's bounded queue under a lock
  held for microseconds, and wakes the clients' event loop with one `call_soon_threadsafe`;
  it never waits for a network write.
- A client whose queue is full is dropped (its stream ends). The browser's `EventSource`
  reconnects by itself a moment later and starts again from the greeting, so a lagging
  viewer is brought up to date instead of holding back the others.
- `subscribe` takes the greeting (the state a new client starts from: `greeting()`) and
  registers the client under the same lock as `publish` and `transact`, so a client misses
  no message and sees none twice.

The API (stable, also used by the hall view of issue 14): `Message`, `Hub.publish`,
`Hub.transact`, `Hub.subscribe`, `Subscription.next`, `Subscription.close`, `Hub.close`,
`Hub.clients`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

#: messages a client may have waiting before it is dropped (it then reconnects)
MAX_QUEUE = 512
#: what `EventSource` waits before it reconnects, in milliseconds (sent in the greeting)
RETRY_MS = 1000


@dataclass(frozen=True)
class Message:
    """One Server-Sent Event: a name (`event:`) and a JSON-able payload (`data:`).

    Its wire form is made once, at the first `encode` (a greeting kept between two steps is
    encoded once for all the clients that connect meanwhile): do not change `data` after.
    """

    event: str
    data: Any

    def encode(self) -> bytes:
        """The event as it goes on the wire (one `data:` line: JSON has no raw newline)."""
        return self._wire

    @functools.cached_property
    def _wire(self) -> bytes:
        text = json.dumps(self.data, separators=(",", ":"), ensure_ascii=False)
        return f"event: {self.event}\ndata: {text}\n\n".encode()


def comment(text: str) -> bytes:
    """An SSE comment line: browsers ignore it; it keeps idle connections open."""
    return f": {text}\n\n".encode()


@dataclass(eq=False)
class Subscription:
    """One connected client: its queue of encoded messages, read by its response's task."""

    hub: Hub
    loop: asyncio.AbstractEventLoop
    pending: deque[bytes] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    dropped: bool = False

    async def next(self, timeout: float) -> list[bytes] | None:
        """The messages waiting (waits up to `timeout` s for one); [] on a timeout; None once
        the subscription is closed (the hub closed, or the client lagged and was dropped)."""
        if not self.pending and not self.closed:
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                return []
        with self.hub.lock:
            out = list(self.pending)
            self.pending.clear()
        if not out and self.closed:
            return None
        return out

    def close(self) -> None:
        """Leave the hub (the client went away)."""
        self.hub.unsubscribe(self)


class Hub:
    """See the module docstring.

    Args:
        greeting: the messages a new client starts from (the current state), called under
            the hub's lock; None: no greeting.
        max_queue: a client with more messages waiting than this is dropped.
    """

    def __init__(
        self,
        greeting: Callable[[], Iterable[Message]] | None = None,
        *,
        max_queue: int = MAX_QUEUE,
    ) -> None:
        self.lock = threading.RLock()
        self.greeting = greeting
        self.max_queue = max_queue
        self._subs: list[Subscription] = []
        self._closed = False
        self.published = 0

    @property
    def clients(self) -> int:
        """How many clients are connected."""
        with self.lock:
            return len(self._subs)

    def publish(self, *messages: Message) -> None:
        """Send `messages` to every client; thread-safe, never blocks on a client."""
        if not messages:
            return
        encoded = [m.encode() for m in messages]
        with self.lock:
            self._fan_out(encoded)

    def transact(self, step: Callable[[], Iterable[Message]]) -> None:
        """Run `step` (which updates the state the greeting reads) and publish what it
        returns, atomically with respect to `subscribe`: no client sees a state and then a
        message already in it, nor misses one."""
        with self.lock:
            encoded = [m.encode() for m in step()]
            if encoded:
                self._fan_out(encoded)

    def _fan_out(self, encoded: list[bytes]) -> None:
        self.published += len(encoded)
        loops: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in list(self._subs):
            if len(sub.pending) + len(encoded) > self.max_queue:
                self._drop(sub)
            else:
                sub.pending.extend(encoded)
            loops.setdefault(sub.loop, []).append(sub)
        for loop, subs in loops.items():
            _wake(loop, subs)

    def subscribe(self) -> Subscription:
        """A new client, from inside the server's event loop; its queue starts with the
        retry delay and the greeting."""
        loop = asyncio.get_running_loop()
        sub = Subscription(self, loop)
        with self.lock:
            sub.pending.append(f"retry: {RETRY_MS}\n\n".encode())
            if self.greeting is not None:
                sub.pending.extend(m.encode() for m in self.greeting())
            if self._closed:
                sub.closed = True
            else:
                self._subs.append(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self.lock:
            if sub in self._subs:
                self._subs.remove(sub)
            sub.closed = True

    def _drop(self, sub: Subscription) -> None:
        """A client that fell `max_queue` messages behind: end its stream (it reconnects)."""
        self._subs.remove(sub)
        sub.closed = True
        sub.dropped = True
        sub.pending.clear()

    def close(self) -> None:
        """End every client's stream (the server is stopping); later clients end at once."""
        with self.lock:
            self._closed = True
            subs, self._subs = self._subs, []
            for sub in subs:
                sub.closed = True
        loops: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        for sub in subs:
            loops.setdefault(sub.loop, []).append(sub)
        for loop, group in loops.items():
            _wake(loop, group)


def _wake(loop: asyncio.AbstractEventLoop, subs: list[Subscription]) -> None:
    """Set the clients' events on their loop's thread (asyncio.Event is not thread-safe)."""

    def wake_all() -> None:
        for sub in subs:
            sub.wake.set()

    try:
        loop.call_soon_threadsafe(wake_all)
    except RuntimeError:  # the loop is closed: the server has stopped
        for sub in subs:
            sub.closed = True


__all__ = ["MAX_QUEUE", "RETRY_MS", "Hub", "Message", "Subscription", "comment"]
