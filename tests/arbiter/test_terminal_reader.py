"""The terminal helper shared by the keyboard and typed-command sources
(arbiter/inputs/terminal.py): the end of a pipe, a close that wakes a blocked reader, and the
terminal's mode given back."""

from __future__ import annotations

import os
import termios
import threading

from arbiter.inputs.terminal import TerminalReader, is_terminal


def test_a_pipe_is_read_to_its_end_and_the_end_is_told_apart_from_a_close() -> None:
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "r") as stream:
        reader = TerminalReader(stream)
        got: list[bytes] = []
        done = threading.Event()

        def run() -> None:
            got.extend(reader.chunks(4))
            done.set()

        reader.start(run, name="test-reader", cbreak=False)
        os.write(write_fd, b"e2e4\n")
        os.close(write_fd)
        assert done.wait(5.0)
        reader.close()
    assert b"".join(got) == b"e2e4\n" and all(len(chunk) <= 4 for chunk in got)
    assert reader.ended
    assert not is_terminal(stream)


def test_close_wakes_a_reader_blocked_on_a_silent_input() -> None:
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "r") as stream:
        reader = TerminalReader(stream)
        done = threading.Event()
        reader.start(lambda: (list(reader.chunks(64)), done.set()), name="idle", cbreak=False)
        assert not done.wait(0.05)  # nothing to read: blocked in select
        reader.close()
        assert done.is_set()  # close joined the woken thread
        reader.close()  # a second close does nothing
    os.close(write_fd)
    assert not reader.ended


def test_cbreak_mode_is_set_and_the_terminal_restored() -> None:
    master, slave = os.openpty()
    try:
        with os.fdopen(slave, "r", closefd=False) as tty_in:
            before = termios.tcgetattr(slave)
            assert is_terminal(tty_in)
            reader = TerminalReader(tty_in)
            reader.start(lambda: None, name="tty", cbreak=True)
            assert not termios.tcgetattr(slave)[3] & termios.ICANON
            reader.close()
            assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)
