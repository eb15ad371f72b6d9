"""Play `arbiter play --board SIM` in this process, by typed commands, on a fake clock.

The game is built as `arbiter play` builds it (its options parsed by the real parser, the
composition root `arbiter.live.setup`), on a virtual board read through the real codec and
serial path; the typed commands come through a pipe, as from a shell. The only seams are the
clock (a `FakeClock` that the hand's pauses move, so a run gives the same journal and PGN
every time) and the display (plain lines into a buffer).
"""

from __future__ import annotations

import argparse
import io
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.cli import play
from arbiter.clock import FakeClock
from arbiter.live.setup import new_game, settings_of
from arbiter.live.virtual_play import CommandSource
from arbiter.outputs.display import Display
from rules.rulings import Ruling

#: real seconds a test game may take before it is a failure
LIMIT_S = 60.0


@dataclass
class Played:
    rulings: list[Ruling]
    screen: str
    pgn: str
    journal: Path


def play_typed(
    tmp: Path,
    options: Sequence[str],
    lines: Sequence[str],
    *,
    name: str = "game",
    timed: bool = False,
) -> Played:
    """Play `lines` as typed commands in `arbiter play OPTIONS` (which names a `*-sim`).

    With `timed`, each line is `T COMMAND`: the fake clock is set to stream time T before
    the command is done, and the hand does not pace itself (its pauses only let the session
    rule on what was sent): a test places each movement and press at the moment it wants,
    e.g. a reply lifted within `latency_s` of a press whose move the board reports late.
    """
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    journal = tmp / f"{name}.jsonl"
    args = parser.parse_args([*options, "--journal", str(journal), "--display", "plain"])
    settings = settings_of(args)
    read_fd, write_fd = os.pipe()
    os.write(write_fd, ("\n".join(lines) + "\n").encode())
    os.close(write_fd)
    clock = FakeClock()
    with os.fdopen(read_fd, "r") as commands:
        session = new_game(settings, journal, clock=clock)
        runner = threading.Thread(target=session.run, daemon=True)
        out = io.StringIO()
        built = session.display
        session.display = Display(out, tty=False, title="test")
        session.display.attach(session.game)
        for note in built.notes:  # what the game said as it was built
            session.display.note(note)
        def pause(dt: float) -> None:
            """Move the fake clock once the session has ruled on everything sent so far, as
            real time would: no input waits in the queue while the clock jumps past it."""
            settle()
            if not timed:
                clock.advance(dt)

        def settle() -> None:
            session.wait_idle()

        for source in session.sources:
            if isinstance(source, CommandSource):
                source.stream = commands
                source.pause = pause
                if timed:
                    timed_perform = at_its_time(source.perform, clock, settle)
                    source.perform = timed_perform  # type: ignore[method-assign]
        live_pgn = settings.get("pgn")
        session.keep_pgn(live_pgn, "2026.12.03")
        runner.start()
        runner.join(LIMIT_S)
        assert not runner.is_alive(), "the typed game did not end"
    if live_pgn is not None:  # the session's own, rewritten after every move
        return Played(session.rulings, out.getvalue(), Path(live_pgn).read_text(), journal)
    pgn = session.write_pgn(tmp / f"{name}.pgn", date="2026.12.03").read_text()
    return Played(session.rulings, out.getvalue(), pgn, journal)


def at_its_time(
    perform: Callable[..., None], clock: FakeClock, settle: Callable[[], None]
) -> Callable[..., None]:
    """`CommandSource.perform` for lines `T COMMAND`: the clock stands at T for the command."""

    def timed_perform(line: str, *args: object) -> None:
        at, _, command = line.strip().partition(" ")
        settle()
        clock.set(max(clock.now(), float(at)))
        perform(command, *args)

    return timed_perform
