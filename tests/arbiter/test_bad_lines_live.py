"""Issue 17 item 2 (D2): a live `--events` stream that meets a line it cannot read says so on
the screen (file, line and fault, in the user's language) and in the journal (a `sensor`
`bad_line` note, docs/events.md), and the game goes on with the lines after it. A resume of
the journal, cut after any of its lines as a crash would cut it, notes every bad line once
and gives the PGN of the stream without its bad lines. `replay` and `pgn` of the stream
itself still stop at the bad line, naming file, line and fault.

In this process, on a fake clock set past the whole game: the stream's events come as fast as
the thread reads them, and the session rules them in order.
"""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import pytest
from cli_inprocess import run_cli

from arbiter.clock import FakeClock
from arbiter.inputs.base import BadLine, SourceDone
from arbiter.inputs.stream import StreamSource
from arbiter.live.session import Session
from arbiter.outputs.display import Display
from arbiter.records.journal import JournalWriter, read_journal
from arbiter.records.stream import MAX_LINE_BYTES
from rules.events import Sensor, Start

#: 1. e4 e5 2. Nf3, presses by the clock, then Black resigns (no time control: no flag)
GOOD = [
    {"t": 0.0, "type": "start", "white": "A", "black": "B"},
    {"t": 1.0, "type": "lift", "square": "e2", "piece": "P"},
    {"t": 1.2, "type": "place", "square": "e4", "piece": "P"},
    {"t": 1.4, "type": "press", "side": "white"},
    {"t": 2.0, "type": "lift", "square": "e7", "piece": "p"},
    {"t": 2.2, "type": "place", "square": "e5", "piece": "p"},
    {"t": 2.4, "type": "press", "side": "black"},
    {"t": 3.0, "type": "lift", "square": "g1", "piece": "N"},
    {"t": 3.2, "type": "place", "square": "f3", "piece": "N"},
    {"t": 3.4, "type": "press", "side": "white"},
    {"t": 4.0, "type": "resign", "side": "black"},
]

#: every kind of bad line of the issue, and what the screen and the journal say of it
BAD_LINES: dict[str, tuple[bytes, str]] = {
    "overflowing number": (
        b'{"t": 1' + b"0" * 400 + b', "type": "tick"}',
        "'t' must be a finite number",
    ),
    "more digits than Python reads": (b'{"t": ' + b"9" * 5000 + b', "type": "tick"}', "line"),
    "NaN": (b'{"t": NaN, "type": "tick"}', "'t' must be a finite number, not nan"),
    "infinity": (
        b'{"t": 1.2, "type": "arbiter", "action": "add_time", "side": "white",'
        b' "seconds": -Infinity}',
        "'seconds' must be a finite number",
    ),
    "deep nesting": (b'{"t": 1.2, "x": ' + b"[" * 100_000, "nested too deeply"),
    "huge line": (b'{"t": 1.2, "x": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}', "longer than"),
    "not UTF-8": (b'{"t": 1.2, "type": "tick", "x": "\xff\xfe"}', "not UTF-8"),
    "BOM inside": (b'\xef\xbb\xbf{"t": 1.2, "type": "tick"}', "BOM"),
    "wrong type": (b'{"t": 1.2, "type": "lift", "square": 44}', "'square' must be a square"),
    "time backwards": (b'{"t": 0.5, "type": "tick"}', "times must not run backwards"),
    "second start": (b'{"t": 1.2, "type": "start"}', "a second 'start' event"),
}


def stream_bytes(bad: list[bytes], after: int = 3) -> bytes:
    """GOOD as JSON Lines, with the `bad` lines after its line `after` (1-based)."""
    lines = [json.dumps(o).encode() for o in GOOD]
    return b"\n".join([*lines[:after], *bad, *lines[after:]]) + b"\n"


def play(stream: Path, journal: Path, language: str = "en") -> tuple[Session, str]:
    """Play `stream` live to its end; the session and its screen."""
    source = StreamSource.open(str(stream))
    start = source.first_start()
    assert start is not None
    out = io.StringIO()
    display = Display(out, tty=False, language=language)
    session = Session.new(start, JournalWriter(journal), FakeClock(100.0), sources=[source],
                          display=display)  # fmt: skip
    session.run()
    return session, out.getvalue()


def pgn(session: Session, tmp_path: Path) -> str:
    return session.write_pgn(tmp_path / "out.pgn").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def clean_pgn(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("clean")
    (tmp / "clean.jsonl").write_bytes(stream_bytes([]))
    session, _ = play(tmp / "clean.jsonl", tmp / "j.jsonl")
    assert session.game.result == "1-0"
    return pgn(session, tmp)


@pytest.mark.parametrize("kind", BAD_LINES)
def test_each_bad_line_is_said_journaled_and_skipped(
    kind: str, tmp_path: Path, clean_pgn: str
) -> None:
    line, said = BAD_LINES[kind]
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(stream_bytes([line]))
    session, screen = play(stream, tmp_path / "j.jsonl")
    # the screen: file, line, fault, and that the game goes on
    shown = [s for s in screen.splitlines() if "the line is skipped; the game goes on" in s]
    assert len(shown) == 1 and shown[0].startswith(f"{stream}: line 4: "), screen
    assert said in shown[0] and len(shown[0]) < 600
    # the journal: the note, at the line before's time, and nothing of the bad line itself
    events, _ = read_journal(tmp_path / "j.jsonl")
    notes = [e for e in events if isinstance(e, Sensor) and e.status == "bad_line"]
    assert len(notes) == 1 and notes[0].t == 1.2
    assert notes[0].detail is not None and notes[0].detail.startswith(f"{stream}: line 4: ")
    assert said in notes[0].detail and len(notes[0].detail) <= 400
    assert [e.type for e in events].count("start") == 1
    # the game went on to its end, as without the bad line
    assert session.game.result == "1-0" and len(session.game.records) == 3
    assert pgn(session, tmp_path) == clean_pgn
    # every reader takes the journal: pgn and replay of it, as of the clean game
    out = run_cli("pgn", str(tmp_path / "j.jsonl"))
    assert out.returncode == 0 and not out.stderr
    assert _moves(out.stdout) == _moves(clean_pgn)
    assert run_cli("replay", str(tmp_path / "j.jsonl")).returncode == 0


def test_replay_and_pgn_of_the_stream_itself_still_stop_at_the_bad_line(tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(stream_bytes([BAD_LINES["NaN"][0]]))
    for command in ("replay", "pgn"):
        out = run_cli(command, str(stream))
        assert out.returncode == 2, (command, out.stderr)
        assert f"{stream}: line 4: 't' must be a finite number, not nan" in out.stderr
    pgn_out = run_cli("pgn", str(stream)).stdout
    assert "the record stops here" in pgn_out and "e4" in pgn_out and "Nf3" not in pgn_out


def test_the_screen_says_it_in_the_users_language(tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(stream_bytes([BAD_LINES["NaN"][0]]))
    _, screen = play(stream, tmp_path / "j.jsonl", language="sr")
    line = next(s for s in screen.splitlines() if s.startswith(f"{stream}: "))
    assert "the line is skipped" not in line and "must be a finite number" not in line, line
    assert "nan" in line


def test_a_bad_first_line_still_stops_before_the_game(tmp_path: Path) -> None:
    from arbiter.errors import SourceError

    stream = tmp_path / "s.jsonl"
    stream.write_bytes(b'{"t": NaN, "type": "start"}\n' + stream_bytes([])[1:])
    with pytest.raises(SourceError, match="line 1"):
        StreamSource.open(str(stream)).first_start()


def test_a_resume_cut_after_any_line_notes_each_bad_line_once(
    tmp_path: Path, clean_pgn: str
) -> None:
    """A crash may cut the journal after any of its lines: a resume of every such cut notes
    every bad line exactly once and gives the clean game's PGN."""
    bad = [BAD_LINES[k][0] for k in ("NaN", "deep nesting", "second start")]
    stream = tmp_path / "s.jsonl"
    # two bad lines together after e4's placing, one after Black's press
    data = stream_bytes(bad[:2], after=3).split(b"\n")
    data.insert(9, bad[2])
    stream.write_bytes(b"\n".join(data))
    full, _ = play(stream, tmp_path / "full.jsonl")
    assert pgn(full, tmp_path) == clean_pgn
    lines = (tmp_path / "full.jsonl").read_bytes().splitlines(keepends=True)
    assert sum(b'"bad_line"' in x for x in lines) == 3
    for cut in range(1, len(lines) - 1):  # the last line ends the game: nothing to resume
        journal = tmp_path / f"cut-{cut}.jsonl"
        journal.write_bytes(b"".join(lines[:cut]))
        history, _ = read_journal(journal)
        source = StreamSource.open(str(stream))
        source.first_start()
        source.skip_through(history[-1].t, history)
        session = Session.resume(history, JournalWriter(journal), lambda t: FakeClock(100.0),
                                 sources=[source])  # fmt: skip
        session.run()
        events, _ = read_journal(journal)
        notes = [e.detail for e in events if isinstance(e, Sensor) and e.status == "bad_line"]
        assert len(notes) == 3 and len(set(notes)) == 3, (cut, notes)
        assert pgn(session, tmp_path) == clean_pgn, cut


def test_the_source_sends_a_bad_line_as_it_reads_it(tmp_path: Path) -> None:
    """The note comes before the next good line's event, dated at the line before's `t`."""
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(stream_bytes([BAD_LINES["wrong type"][0]], after=2))
    source = StreamSource.open(str(stream))
    assert isinstance(source.first_start(), Start)
    got: list = []
    source.start(got.append, FakeClock(100.0))
    deadline = time.monotonic() + 5
    while not any(isinstance(x, SourceDone) for x in got) and time.monotonic() < deadline:
        time.sleep(0.01)
    kinds = [type(x).__name__ for x in got]
    assert kinds[:3] == ["Lift", "BadLine", "Place"] and kinds[-1] == "SourceDone"
    note = got[1]
    assert isinstance(note, BadLine) and note.event.t == 1.0 and note.event.status == "bad_line"


def _moves(pgn_text: str) -> str:
    return " ".join(line for line in pgn_text.splitlines() if line and not line.startswith("["))


def test_after_a_bad_line_and_the_streams_end_the_other_inputs_go_on(tmp_path: Path) -> None:
    """The stream breaks off after e4 with a bad line and ends; Black's moves and White's
    resignation come from another input (here a second scripted source standing for the
    board and the buttons): the session takes them, as it would a board's."""
    from rules.events import Lift, Place, Press, Resign

    stream = tmp_path / "s.jsonl"
    lines = stream_bytes([]).split(b"\n")[:4]  # start, 1. e4 lifted, placed, pressed
    stream.write_bytes(b"\n".join([*lines, BAD_LINES["deep nesting"][0]]) + b"\n")
    board = StreamSource(
        [
            Lift(t=2.0, square="e7", piece="p"),
            Place(t=2.2, square="e5", piece="p"),
            Press(t=2.4, side="black"),
            Resign(t=3.0, side="white"),
        ],
        name="events:board",
    )
    source = StreamSource.open(str(stream))
    start = source.first_start()
    assert start is not None
    out = io.StringIO()
    clock = FakeClock(1.5)  # the board's events wait until the stream has ended
    session = Session.new(start, JournalWriter(tmp_path / "j.jsonl"), clock,
                          sources=[source, board], display=Display(out, tty=False))  # fmt: skip
    running = threading.Thread(target=session.run, daemon=True)
    running.start()
    deadline = time.monotonic() + 10
    while source.name not in session.done and time.monotonic() < deadline:
        time.sleep(0.01)
    assert source.name in session.done, "the stream did not come to its end"
    clock.set(100.0)
    running.join(10)
    assert not running.is_alive()
    assert session.game.result == "0-1" and len(session.game.records) == 2
    assert "line 5: not valid JSON (nested too deeply): the line is skipped" in out.getvalue()
    events, _ = read_journal(tmp_path / "j.jsonl")
    assert [e.type for e in events].count("sensor") == 1 and events[-1].type == "resign"
