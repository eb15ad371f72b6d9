"""End to end: the real video through the camera path and the rules core gives the game.

The camera reports only what it sees (X/x snapshots of still scenes); the rules recognise
1.e4 e5 from one report (no still frame between the plies), Qxf7 from f7 turning from black
to white, and the mate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.events import Start
from rules.replay import replay
from vision.calibration import calibrate
from vision.sources import open_source
from vision.stream import CAMERA_SETTINGS, camera_events


def test_scholars_mate_from_the_camera(vision_data: Path, video: dict[str, Any]) -> None:
    frames = list(open_source(video=str(vision_data / video["file"])))
    cal = calibrate(frames[3][1], [tuple(p) for p in video["corners"]])
    events = [Start(t=0.0, **CAMERA_SETTINGS), *camera_events(frames, cal)]  # type: ignore[arg-type]
    rulings = [r.to_dict() for r in replay(events)]
    moves = [r["san"] for r in rulings if r["type"] == "move"]
    assert moves == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert not [r for r in rulings if r["type"] in ("mismatch", "illegal")]
    over = [r for r in rulings if r["type"] == "game_over"]
    assert over and over[0]["result"] == "1-0" and over[0]["reason"] == "checkmate"
