"""Reading a terminal or a pipe on a thread of its own: shared by the keyboard source and the
typed-command source (`arbiter.live.virtual_play.CommandSource`).

`TerminalReader` owns what both need and must get right the same way: cbreak mode set on a
terminal and restored on close whatever happened, and a wake pipe beside the input so the
reading thread blocks in `select` (no polling) and still ends at once when the source closes.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO


def is_terminal(stream: TextIO) -> bool:
    """Is `stream` a terminal? (False for pipes, files and streams without a descriptor.)"""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class TerminalReader:
    """The input side of `stream` for one reading thread: `start` it with the function the
    thread runs, read with `chunks`, `close` to stop the thread and restore the terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._saved: Any = None
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None
        #: did the input itself end (end of file), rather than `close` stop the reading?
        self.ended = False

    def start(self, run: Callable[[], None], *, name: str, cbreak: bool) -> None:
        """Make the wake pipe, put a terminal in cbreak mode (keys arrive one by one, not
        echoed as a line) when `cbreak`, and run `run` on a daemon thread called `name`."""
        if cbreak:
            import termios
            import tty

            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def chunks(self, size: int) -> Iterator[bytes]:
        """The bytes read from the stream, at most `size` at a time, as they come; ends at
        the end of the input or when `close` wakes the thread."""
        fd = self.stream.fileno()
        while True:
            ready, _, _ = select.select([fd, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            data = os.read(fd, size)
            if not data:
                self.ended = True
                return
            yield data

    def close(self) -> None:
        """Wake and join the reading thread (unless called from it), close the pipe and give
        the terminal back its saved mode. Safe to call more than once."""
        if self._wake_w >= 0:
            os.write(self._wake_w, b"x")
            if self._thread is not None and self._thread is not threading.current_thread():
                self._thread.join(timeout=1.0)
            with contextlib.suppress(OSError):
                os.close(self._wake_w)
            with contextlib.suppress(OSError):
                os.close(self._wake_r)
            self._wake_w = self._wake_r = -1
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None
