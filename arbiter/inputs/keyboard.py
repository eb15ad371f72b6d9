"""Single keys from a terminal as a live source (they stand in for the clock's buttons)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from arbiter.clock import Clock
from arbiter.inputs.base import KEYS, Emit, KeyCommand, Source, Typed
from arbiter.inputs.terminal import TerminalReader, is_terminal


class KeyboardSource(Source):
    """Single keys from a terminal (cbreak mode, restored on close); see `KEYS`.

    Only for a TTY: without one there are no keys to read, and the display writes plain
    lines. A pipe wakes the reading thread on close, so it never polls.
    """

    name = "keyboard"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self._reader = TerminalReader(self.stream)
        #: the command line being typed after `:` (None: single keys)
        self.line: str | None = None
        #: shows the line being typed (the display's footer), set by the composition root
        self.prompt: Callable[[str], None] | None = None

    @staticmethod
    def usable(stream: TextIO | None = None) -> bool:
        """Is there a terminal to read keys from?"""
        return is_terminal(stream if stream is not None else sys.stdin)

    def start(self, emit: Emit, clock: Clock) -> None:
        self._reader = TerminalReader(self.stream)  # the stream may be set after __init__
        self._reader.start(lambda: self._read(emit, clock), name="keyboard", cbreak=True)

    def _read(self, emit: Emit, clock: Clock) -> None:
        for data in self._reader.chunks(32):
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
        self._reader.close()
