"""Single keys from a terminal as a live source (they stand in for the clock's buttons)."""

from __future__ import annotations

import os
import select
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from arbiter.clock import Clock
from arbiter.inputs.base import KEYS, Emit, KeyCommand, Source, Typed


class KeyboardSource(Source):
    """Single keys from a terminal (cbreak mode, restored on close); see `KEYS`.

    Only for a TTY: without one there are no keys to read, and the display writes plain
    lines. A pipe wakes the reading thread on close, so it never polls.
    """

    name = "keyboard"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self._saved: Any = None
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None
        #: the command line being typed after `:` (None: single keys)
        self.line: str | None = None
        #: shows the line being typed (the display's footer), set by the composition root
        self.prompt: Callable[[str], None] | None = None

    @staticmethod
    def usable(stream: TextIO | None = None) -> bool:
        """Is there a terminal to read keys from?"""
        s = stream if stream is not None else sys.stdin
        try:
            return s.isatty()
        except (AttributeError, ValueError, OSError):
            return False

    def start(self, emit: Emit, clock: Clock) -> None:
        import termios
        import tty

        fd = self.stream.fileno()
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(
            target=self._read, args=(fd, emit, clock), name="keyboard", daemon=True
        )
        self._thread.start()

    def _read(self, fd: int, emit: Emit, clock: Clock) -> None:
        while True:
            ready, _, _ = select.select([fd, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            data = os.read(fd, 32)
            if not data:
                return
            t = clock.now()
            for ch in data.decode("utf-8", errors="ignore"):
                if self.line is not None:
                    self._edit(ch, t, emit)
                    continue
                key = ch.lower() if ch != " " else ch
                if key == ":":
                    self.line = ""
                    self._show()
                elif key in KEYS:
                    emit(KeyCommand(t, key))

    def _edit(self, ch: str, t: float, emit: Emit) -> None:
        """A key of a command line begun with `:`: Enter sends it, Escape drops it."""
        line = self.line or ""
        if ch in "\r\n":
            self.line = None
            if line.strip():
                emit(Typed(t, line))
        elif ch == "\x1b":
            self.line = None
        elif ch in ("\x7f", "\b"):
            self.line = line[:-1]
        elif ch.isprintable():
            self.line = line + ch
        self._show()

    def _show(self) -> None:
        if self.prompt is not None:
            self.prompt(self.line or "")

    def close(self) -> None:
        if self._wake_w >= 0:
            os.write(self._wake_w, b"x")
            if self._thread is not None:
                self._thread.join(timeout=1.0)
            os.close(self._wake_w)
            os.close(self._wake_r)
            self._wake_w = self._wake_r = -1
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None
