"""One DGT clock command at a time (`eboard-protocols.md` 1.8, 8).

The clock takes one command, answers with an ACK (1–2 s on USB), and loses commands sent
while it is busy. So commands wait in a queue: the first is written at once, the next only
after the ACK of the one before (or after giving up on it). An unacknowledged command is
resent once after `resend_s` (~2 s) and given up after `give_up_s` (~6 s, users saw an XL
clock answer with repeated errors); a command the clock answers with an error ACK is resent
once at the next poll (the clock was busy or missed a byte, as issue 18 reads the other
drivers), and only a second error is a fault. Each failure is kept in `faults`.

The queue is sans-I/O: a command handed out by `submit` has no send time until the next
`stamp(now)` / `poll(now)`, which the codec calls at every `feed` and `poll`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from firmware_bridge.codecs.dgt_clock import COMMAND_NAMES, ClockAck


@dataclass(frozen=True, slots=True)
class ClockFault:
    """A clock command that failed at `t`: no ACK in time, or an error ACK."""

    t: float
    command: str
    reason: str


@dataclass(slots=True)
class _Pending:
    cmd: int
    data: bytes
    sent_at: float | None = None
    resent: bool = False

    @property
    def name(self) -> str:
        return COMMAND_NAMES.get(self.cmd, f"{self.cmd:02X}")


class ClockCommandQueue:
    """The clock commands in flight and waiting; see the module docstring."""

    def __init__(self, resend_s: float = 2.0, give_up_s: float = 6.0) -> None:
        self.resend_s = resend_s
        self.give_up_s = give_up_s
        self.faults: list[ClockFault] = []
        self._pending: _Pending | None = None
        self._waiting: deque[_Pending] = deque()
        self._resend_now = False

    @property
    def pending(self) -> str | None:
        """Name of the command awaiting its ACK, if any."""
        return self._pending.name if self._pending else None

    @property
    def waiting(self) -> int:
        """Commands queued behind the pending one."""
        return len(self._waiting)

    def submit(self, data: bytes) -> bytes:
        """Queue the command `data` (a whole `2B` command); return it if it may go now."""
        item = _Pending(cmd=data[3], data=data)
        if self._pending is None:
            self._pending = item
            return data
        self._waiting.append(item)
        return b""

    def restart(self, data: bytes) -> bytes:
        """After a (re)connect: `data` goes first, a command lost in flight goes next."""
        self._resend_now = False
        if self._pending is not None:
            self._pending.sent_at, self._pending.resent = None, False
            self._waiting.appendleft(self._pending)
        self._pending = _Pending(cmd=data[3], data=data)
        return data

    def stamp(self, now: float) -> None:
        """Give a command handed out without a time its send time."""
        if self._pending is not None and self._pending.sent_at is None:
            self._pending.sent_at = now

    def acknowledge(self, ack: ClockAck, now: float) -> bool:
        """Resolve the pending command with an asked-for ACK; False if it echoes another."""
        if self._pending is None or ack.command != self._pending.cmd:
            return False
        if not ack.ok:
            if not self._pending.resent:
                self._pending.resent = True
                self._pending.sent_at = None
                self._resend_now = True  # written at the next poll
                return True
            self.faults.append(
                ClockFault(now, self._pending.name, f"the clock answered error {ack.ack0:02X}")
            )
        self._pending = None
        return True

    def poll(self, now: float) -> bytes:
        """What the queue wants written at `now`: a resend, or the next command."""
        out = b""
        item = self._pending
        if self._resend_now:
            self._resend_now = False
            if item is not None and item.sent_at is None:
                out += item.data
        self.stamp(now)
        if item is not None and item.sent_at is not None:
            age = now - item.sent_at
            if age >= self.give_up_s:
                sent = "sent twice" if item.resent else "sent once"
                self.faults.append(ClockFault(now, item.name, f"no ACK after {age:.1f} s ({sent})"))
                self._pending = None
            elif age >= self.resend_s and not item.resent:
                item.resent = True
                out += item.data
        if self._pending is None and self._waiting:
            self._pending = self._waiting.popleft()
            self._pending.sent_at = now
            out += self._pending.data
        return out
