"""`arbiter teach --video FILE --calibration FILE`: drills under a camera (issue 15 item 3).

The video is made here from a real webcam frame of ../shared/data/vision (the start position
of pcwawc's scholarsmate.avi) with `vision.render`: one still scene for each placement the
drills need, held long enough for the tracker (a still scene differing from the last one is
reported as a snapshot; one changing more than 6 squares needs a second of patience). It is
written to tmp_path with OpenCV and read by the same source class as the CLI's
(`CameraSource`), on a clock running 8 times real time. The pupil's press is a typed line,
given when the drill asks for the move and the camera has shown the scene a moment (under a
video, a typed press is placed at the moment of the video the camera has shown).
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import chess
import pytest

from arbiter.clock import MonotonicClock
from arbiter.teach.drills import DRILLS, save_summary
from arbiter.teach.on_camera import run_camera_drills

pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")

ROOT = Path(__file__).resolve().parents[2]
CORNERS = [(140, 10), (507, 10), (507, 377), (140, 377)]  # labels.json: scholarsmate.avi
FPS = 5
SPEED = 8.0
START = chess.STARTING_BOARD_FEN
ASKED = "Make your move on the board, then press the clock"


def _after(placement: str, *moves: str) -> str:
    board = chess.BaseBoard(placement)
    for uci in moves:
        move = chess.Move.from_uci(uci)
        piece = board.remove_piece_at(move.from_square)
        assert piece is not None
        board.set_piece_at(move.to_square, piece)
    return board.board_fen()


def _without(placement: str, square: str) -> str:
    board = chess.BaseBoard(placement)
    board.remove_piece_at(chess.parse_square(square))
    return board.board_fen()


CHECK = "4k3/8/8/8/8/8/4r3/4K3"  # the illegal-move drill: Black's rook gives check
#: (placement, seconds on the camera, press typed this long after the scene began)
SCENES: list[tuple[str, float, float | None]] = [
    # drill 1, touch own piece (4.3.1): first set up wrongly (no knight on g1, a pawn on e4)
    (_after(START, "g1e4"), 3.0, None),  # longer than the camera's first look (2 s)
    (START, 1.6, None),
    (_without(START, "g1"), 1.6, None),  # the knight on g1 lifted off: the camera's touch
    (START, 1.6, None),  # ... and put back
    (_after(START, "g1f3"), 3.6, 1.2),  # the answer: the touched knight moves
    # drill 2, the pawn let go on e3 (4.7): set up, then the situation, then only a press
    (START, 1.6, None),
    (_after(START, "e2e3"), 3.6, 1.6),
    # drill 3, the king in check (7.5.1): set up, then an illegal move (the king to d2)
    (CHECK, 2.6, None),
    (_after(CHECK, "e1d2"), 3.6, 1.2),
]


def _video(shared: Path, tmp: Path) -> tuple[Path, Path, list[float]]:
    """The drills' video, its calibration, and the stream times of the presses."""
    from vision.calibration import calibrate
    from vision.cvload import cv2
    from vision.placement import INITIAL
    from vision.render import render
    from vision.sources import video_frames

    real = shared / "data" / "vision" / "pcwawc" / "scholarsmate.avi"
    frame = next(f for i, (_, f) in enumerate(video_frames(str(real))) if i == 3)
    calibration = tmp / "cal.json"
    cal = calibrate(frame, CORNERS)
    cal.save(calibration)
    path = tmp / "drills.avi"
    c = cv2()
    writer = c.VideoWriter(
        str(path), c.VideoWriter_fourcc(*"MJPG"), FPS, (frame.shape[1], frame.shape[0])
    )
    presses: list[float] = []
    t = 0.0
    for placement, seconds, press in SCENES:
        image = render(frame, cal, INITIAL, placement)
        for _ in range(round(seconds * FPS)):
            writer.write(image)
        if press is not None:
            presses.append(t + press)
        t += seconds
    writer.release()
    return path, calibration, presses


def test_drills_under_a_camera_are_set_up_read_and_judged(shared: Path, tmp_path: Path) -> None:
    from arbiter.inputs.camera import CameraSource

    video, calibration, presses = _video(shared, tmp_path)
    clock = MonotonicClock(speed=SPEED)
    source = CameraSource(str(calibration), video=str(video))
    out = io.StringIO()
    given = [0]  # presses typed so far

    def read() -> str | None:
        """The pupil presses once asked for the move, when the camera has shown the scene
        for a moment (`at`, in the video's time)."""
        if given[0] == len(presses):
            return None  # the last press's window still waits for the camera
        at, asked = presses[given[0]], given[0]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            out.getvalue().count(ASKED) <= asked or source.seen_until < at
        ):
            time.sleep(0.01)
        given[0] += 1
        return "press"

    drills = tuple(d for d in DRILLS if d.name in ("touch_own", "released", "illegal_move"))
    session = run_camera_drills(source, "Ana", "en", read, out, clock=clock, drills=drills)
    text = out.getvalue()
    assert [(r.drill, r.passed) for r in session.results] == [
        ("touch_own", True), ("released", True), ("illegal_move", False),
    ], text  # fmt: skip
    # the wrong set-up is described square by square (colours: the camera's view)
    assert "put the white knight on g1" in text and "take the white piece off e4" in text, text
    assert "The camera sees only where the white and the black pieces stand" in text
    assert "lift the piece on g1 off the board" in text
    assert "not what was asked" not in text  # the wrong set-up was seen before the drill
    stands = text.index("The position stands on the board.")
    assert text.index("take the white piece off e4") < stands
    assert "White played Nf3." in text and "White played e3." in text
    assert "leaves your king in check" in text or "illegal" in text
    assert session.results[0].answer == "lift g1, place f3"
    saved = save_summary(session, tmp_path / "summary.jsonl", date="2026-12-03 20:00")
    assert saved[-1]["drills"] == {"touch_own": True, "released": True, "illegal_move": False}
    assert saved[-1]["score"] == 2 and saved[-1]["total"] == 3


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--video", "drills.avi"], "need --calibration FILE"),
        (["--video", "x.avi", "--calibration", "c.json", "--board", "dgt-sim"], "not both"),
        (["--video", "any.avi", "--calibration", "CAL"], "not an OTB Arbiter vision calibration"),
    ],
)
def test_the_camera_options_are_checked_in_one_line(
    options: list[str], said: str, tmp_path: Path
) -> None:
    import json
    import subprocess
    import sys

    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps({}), encoding="utf-8")
    options = [str(cal) if o == "CAL" else o for o in options]
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "teach", *options, "--summary",
         str(tmp_path / "s.jsonl")],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode != 0
    assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
