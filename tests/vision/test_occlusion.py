"""A hand or an arm over the board: seen, named by square, and never passed to the rules.

Real hands first: the video's frames with a hand in them, held still (each repeated for
several seconds, longer than any patience), then a synthetic arm (a skin-coloured band from
the picture's edge) laid over clean start-position frames.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rules.events import Snapshot
from vision.occlusion import occlusion, ringed
from vision.placement import to_sensed
from vision.registration import REF_WIDTH, decode
from vision.tracker import SnapshotTracker

FPS = 20.0


def _arm(frame: Any, cal: Any) -> Any:
    """The frame with a skin-coloured arm from the bottom edge of the picture to the board's
    middle (blurred edges, shaded like a forearm)."""
    import cv2

    out = frame.copy()
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = cal.corners
    cx, cy = (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4
    h, w = frame.shape[:2]
    band = np.zeros((h, w), np.float32)
    width = max(8, int(0.12 * abs(x1 - x0)))
    cv2.line(band, (int(cx + 30), h + 20), (int(cx), int(cy)), 1.0, width)
    cv2.circle(band, (int(cx), int(cy)), int(width * 0.8), 1.0, -1)
    band = cv2.GaussianBlur(band, (0, 0), 3)[..., None]
    skin = np.array([120, 150, 205], np.float32)  # BGR
    shade = 0.8 + 0.2 * np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    return (out * (1 - band) + skin * shade * band).astype(np.uint8)


def _snapshots(tracker: SnapshotTracker, frames: list[Any], t0: float = 0.0) -> list[Snapshot]:
    out = []
    for k, frame in enumerate(frames):
        out += [e for e in tracker.feed(frame, t0 + k / FPS) if isinstance(e, Snapshot)]
    return out


def test_the_video_hands_are_seen_and_clean_frames_are_not(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    cal = video_cal
    ref = ringed(decode(cal.reference), cal.corners, cal.white_at, scale=REF_WIDTH / 640)
    hand_frames = {12: 8, 40: 5, 170: 5, 244: 20}  # frame: at least this many squares hidden
    for k, least in hand_frames.items():
        seen = occlusion(ref, ringed(frames[k], cal.corners, cal.white_at))
        assert len(seen.squares) >= least, (k, seen)
    for seg in video["segments"]:
        if seg["clean"]:
            for k in range(seg["from_frame"], seg["to_frame"] + 1, 3):
                assert not occlusion(ref, ringed(frames[k], cal.corners, cal.white_at)), k


def test_an_arm_held_still_over_the_board_yields_no_snapshot(
    frames: list[Any], video_cal: Any
) -> None:
    """From the first frame on and for 5 s (longer than every patience of the tracker)."""
    armed = _arm(frames[3], video_cal)
    assert _snapshots(SnapshotTracker(video_cal), [armed] * int(5 * FPS)) == []
    # the same frames without the arm do give the start position
    plain = _snapshots(SnapshotTracker(video_cal), [frames[3]] * int(FPS))
    assert [s.board for s in plain] == ["xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX"]


def test_a_real_hand_held_still_yields_no_snapshot_then_the_scene_does(
    frames: list[Any], video: dict[str, Any], video_cal: Any
) -> None:
    """Frame 244 (a hand over the board during 4.Qxf7), held 5 s; then the clean frame after
    it: exactly one snapshot, the clean position, after the hand is gone."""
    before = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR"  # frames 207-216
    tracker = SnapshotTracker(video_cal, known=before)
    held = [frames[244]] * int(5 * FPS)
    assert _snapshots(tracker, held) == []
    after = _snapshots(tracker, [frames[300]] * int(FPS), t0=5.0)
    seg = next(s for s in video["segments"] if s["from_frame"] <= 300 <= s["to_frame"])
    assert [s.board for s in after] == [to_sensed(seg["fen"])]


def test_pieces_taken_off_the_edge_are_no_arm(
    frames: list[Any], vision_data: Any, video_cal: Any
) -> None:
    """The same camera's empty board against the start position: the pieces' tops no longer
    lean over the edge, a change across it that does not come from outside (before: an arm
    over 7.8 squares); the painted arm over the same empty board still is one."""
    from vision.sources import video_frames

    cal = video_cal
    ref = ringed(decode(cal.reference), cal.corners, cal.white_at, scale=REF_WIDTH / 640)
    empty = [f for _, f in video_frames(str(vision_data / "pcwawc" / "emptyBoard001.avi"))][30]
    assert not occlusion(ref, ringed(empty, cal.corners, cal.white_at))
    assert occlusion(ref, ringed(_arm(empty, cal), cal.corners, cal.white_at))
