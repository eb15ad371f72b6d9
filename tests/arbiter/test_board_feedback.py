"""Board feedback (FIDE 12.6, events.md Supervision) and the DGT 3000 as our clock's display.

A virtual Millennium board behind a pty, read through the real serial path: in strict mode
its LEDs show the touched square and the last move; in the default mode nothing is sent.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from pathlib import Path

import chess

from arbiter.clock import MonotonicClock
from arbiter.inputs.board import BoardAdapter
from arbiter.live.session import Session
from arbiter.outputs.display import Display
from firmware_bridge.capture import read_capture
from firmware_bridge.codecs.dgt import DgtCodec, RevelationCodec
from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.events import Start
from rules.rulings import ClockState, MoveStands, Obligation

E4 = MoveStands(
    t=1.0, side="white", ply=1, move=chess.Move.from_uci("e2e4"), san="e4", fen="", made_at=1.0
)

MOVES = ["e2e4", "e7e5", "g1f3"]


def _led_frames(capture: Path) -> int:
    """How many `L` (LED) commands were written to the board (7 data bits, parity dropped;
    no other command the host sends holds an `L`, and LED codes are hex digits)."""
    count = 0
    with capture.open(encoding="utf-8") as handle:
        chunks = [c for c in read_capture(handle) if not hasattr(c, "link")]
    for chunk in chunks:
        if getattr(chunk, "direction", None) == "tx":
            count += bytes(b & 0x7F for b in chunk.data).decode("ascii").count("L")
    return count


def _play(tmp_path: Path, *, strict: bool) -> tuple[Session, BoardAdapter, VirtualBoard, Path]:
    events = moves_to_events([chess.Move.from_uci(u) for u in MOVES])
    virtual = VirtualBoard("millennium", events)
    capture = tmp_path / f"capture-{strict}.jsonl"
    try:
        clock = MonotonicClock()
        board = BoardAdapter(
            f"millennium:{virtual.path}", clock, capture=str(capture), feedback=strict
        )
        settings = board.start_settings()
        start = Start(
            t=0.0, time_control="60", auto_press=True, strict=strict, sources=[board.name],
            **settings,
        )  # fmt: skip
        out = io.StringIO()
        session = Session.new(start, None, clock, sources=[board], display=Display(out, tty=False))
        virtual.start()
        runner = threading.Thread(target=session.run)
        runner.start()
        assert virtual.wait_done(20)
        deadline = time.monotonic() + 5
        while session.game.ply < len(MOVES) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the last LED command reaches the board
        session.stop()
        runner.join(5)
    finally:
        virtual.close()
    assert [r.uci for r in session.rulings if isinstance(r, MoveStands)] == MOVES
    return session, board, virtual, capture


def test_strict_mode_lights_the_touched_square_and_the_last_move(tmp_path: Path) -> None:
    session, board, virtual, capture = _play(tmp_path, strict=True)
    frames = _led_frames(capture)
    assert frames > 0 and frames == len(board.sent)
    # the board's own LEDs, as the virtual board was left: the last move's squares, g1 and f3
    from firmware_bridge.codecs.millennium import led_positions

    lit = virtual.model.lit_corners()
    assert lit == set(led_positions("g1")) | set(led_positions("f3"))
    obligations = [r for r in session.rulings if isinstance(r, Obligation) and r.square is not None]
    assert obligations  # each lift of a piece to move is a touch-move duty (4.3.1)


def test_the_default_mode_sends_the_board_nothing(tmp_path: Path) -> None:
    _, board, virtual, capture = _play(tmp_path, strict=False)
    assert board.sent == []
    assert _led_frames(capture) == 0
    assert virtual.model.lit_corners() == set()


def test_feedback_mode_leaves_a_dgt_board_without_leds_dark() -> None:
    """A DGT board not identified as a Revelation II has no LEDs to drive; one named as a
    Revelation II (`revelation:DEVICE`, or a `dgt:` path saying PCS-REVII, which the
    registry opens with `RevelationCodec`) has."""
    sent: list[bytes] = []
    adapter = BoardAdapter.__new__(BoardAdapter)
    adapter.feedback = True
    adapter.sent = []
    adapter.board = _FakeBoard(DgtCodec(), sent)  # type: ignore[assignment]
    adapter.follow([E4], 1.0)
    assert sent == []
    adapter.board = _FakeBoard(RevelationCodec(), sent)  # type: ignore[assignment]
    adapter.follow([E4], 1.0)
    assert sent == [RevelationCodec().encode_leds(["e2", "e4"])]


def test_a_dgt_3000_on_the_board_shows_our_clock_times() -> None:
    sent: list[bytes] = []
    adapter = BoardAdapter.__new__(BoardAdapter)
    adapter.feedback = False
    adapter.sent = []
    codec = DgtCodec(clock_white="right")
    adapter.board = _FakeBoard(codec, sent)  # type: ignore[assignment]
    clock = ClockState(t=2.0, white=59.5, black=60.0, running="black", paused=False)
    adapter.follow([clock], 2.0)
    assert sent == []  # no DGT 3000 seen on the board: nothing to show
    codec.clock_present = True
    adapter.follow([clock], 2.0)
    assert sent == [DgtCodec(clock_white="right").encode_clock_times(59.5, 60.0, "black")]
    assert sent[0] != DgtCodec(clock_white="left").encode_clock_times(59.5, 60.0, "black")


class _FakeBoard:
    """A BoardSource stand-in: its codec, and `send` recording what was sent."""

    def __init__(self, codec: DgtCodec, sent: list[bytes]) -> None:
        self.codec = codec
        self._sent = sent

    def send_encoded(self, make: Callable[[DgtCodec], bytes]) -> None:
        data = make(self.codec)
        if data:
            self._sent.append(data)


def test_the_dgt_3000_on_a_virtual_dgt_board_shows_the_session_clock() -> None:
    """End to end over a pty: the clock answered the start-up, so our times go to it, with
    White's on the side `clock_white` names."""
    events = moves_to_events([chess.Move.from_uci(u) for u in MOVES])
    virtual = VirtualBoard("dgt", events)
    try:
        clock = MonotonicClock()
        board = BoardAdapter(f"dgt:{virtual.path}", clock, clock_white="right")
        start = Start(
            t=0.0, time_control="60", auto_press=True, sources=[board.name],
            **board.start_settings(),
        )  # fmt: skip
        session = Session.new(
            start, None, clock, sources=[board], display=Display(io.StringIO(), tty=False)
        )
        virtual.start()
        runner = threading.Thread(target=session.run)
        runner.start()
        assert virtual.wait_done(20)
        deadline = time.monotonic() + 5
        while session.game.ply < len(MOVES) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the last SETNRUN and its acknowledgement
        session.stop()
        runner.join(5)
    finally:
        virtual.close()
    assert board.sent  # SETNRUN commands went out
    last = [r for r in session.rulings if isinstance(r, ClockState)][-1]
    assert last.running == "black"
    assert virtual.model.clock_set == (int(last.black), int(last.white), "left")
