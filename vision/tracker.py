"""Still scenes to snapshots: the live path from camera frames to `snapshot` events.

Per frame (cheap): compare a small grey copy with the previous frame; anything moving over
the playing area resets the "still since" time. Once the scene has been still for `still_s`,
the snapshot path runs (at most every `recheck_s` until the scene is settled): re-register
the grid against the calibration frame, wait while a changed region crosses the board's edge
(an arm holding still, a shadow across it), classify the 64 squares, and emit one `Snapshot`
of a placement different from the last one, confidently seen and not changing suspiciously
many squares (unless that lasts). Its `seen_at` is the first frame of the still scene.
Vision reports what it sees: it never bends a placement toward a legal move.

Learning as the game goes: the tracker keeps the frames of its last few snapshots. When the
rules core confirms a position (`confirm`, with the position after a move that stands) and a
kept snapshot shows exactly that position's colours, each empty square of it learns its own
empty look from that frame (`classify.learn_position`). A square that held a piece at
calibration (a printed logo, an odd grain of wood) is thus known empty once the game first
empties it. A position the rules did not accept teaches nothing.

The rules as a second opinion (`expect`, a `vision.expectations.Expectation`): a square no
legal continuation touches, read otherwise than the rules' position, holds the snapshot back
until it has been read so for `odd_patience_s` (a noisy reading is re-read meanwhile); then
it is reported as seen, and the rules make it a mismatch, not a move.

A hand or an arm over the board (`vision.occlusion`, against the last hand-free scene) holds
every snapshot back while it hides more squares than a move changes; a square whose
occupancy is in doubt does too. A piece whose colour alone is in doubt is reported as `?`.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

from rules.events import Event, Sensor, Snapshot
from vision import geometry
from vision import messages as said
from vision.calibration import Calibration
from vision.classify import classify_board, learn_position, reading
from vision.detect import find_corners
from vision.errors import CalibrationError, VisionError
from vision.expectations import Expectation
from vision.follow import locate
from vision.motion import Masks, arm_across_edge, changed_fraction, normalise, small_grey
from vision.occlusion import occlusion, ringed
from vision.placement import differences, to_sensed
from vision.registration import (
    REF_WIDTH,
    Registrar,
    board_mask,
    decode,
    move_points,
    reference_image,
)

REGISTER_MARGIN = 0.15  #: the registration looks this far (share of the board) around it
KEPT_SNAPSHOTS = 4  #: frames of this many recent snapshots are kept for `confirm`


def _max_move(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> float:
    """Largest distance between corresponding corners, in pixels."""
    return max(math.hypot(p[0] - q[0], p[1] - q[1]) for p, q in zip(a, b, strict=True))


@dataclass(frozen=True)
class TrackerSettings:
    """Thresholds of the tracker; the defaults suit a 15-30 fps webcam above the board."""

    still_s: float = 0.15  #: the scene must not change for this long (4 frames at 20 fps)
    recheck_s: float = 0.1  #: how often a still scene that was not yet accepted is re-examined
    motion_threshold: int = 14  #: grey levels a pixel must change by to count as moving
    motion_fraction: float = 0.01  #: share of board pixels that may change in a still frame
    arm_fraction: float = 0.007  #: a changed region crossing the board's edge this big
    #: (share of the board's area; compared with the last still scene) is an arm: wait ...
    arm_patience_s: float = 2.0  #: ... unless it stays still this long (then it is an object)
    odd_patience_s: float = 1.5  #: a square no legal continuation touches (`expect`), read
    #: otherwise than the rules' position, is reported only once read so this long
    max_hidden: int = 4  #: something over more squares than a move changes is a hand: never
    #: a snapshot while it is there, however long it stays
    min_confidence: float = 0.6  #: least square probability for a snapshot
    max_changed: int = 6  #: more changed squares than this is suspect (an arm, a shadow) ...
    patience_s: float = 1.0  #: ... unless the scene stays so for this long (also: a piece
    #: of doubtful colour is re-read this long before it is reported as `?`)
    min_shift_sq: float = 0.04  #: a corner move (in squares) below this is noise
    moved_sq: float = 0.1  #: a move above this is reported as `camera_moved`
    max_shift_sq: float = 1.0  #: a move above this is followed only with a sure fit ...
    sure_correlation: float = 0.85  #: ... this good (a clean 75 px shift fits at ~0.9)
    min_correlation: float = 0.6  #: weakest registration fit trusted (an emptied board: ~0.78)
    relocate_changes: int = 0  #: a board found again by detection must show the last report
    relocate_every_s: float = 5.0  #: detection (up to ~1 s of CPU) is tried this seldom


class SnapshotTracker:
    """Feed frames with their times; get `Snapshot` and `Sensor` events back.

    `known` is the placement already reported (e.g. the calibration position, piece letters
    or X/x); a still scene equal to it is not emitted again. Without it the first still scene
    is emitted.
    """

    def __init__(
        self,
        cal: Calibration,
        *,
        known: str | None = None,
        settings: TrackerSettings | None = None,
    ) -> None:
        self.base = cal
        self.cal = cal
        self.s = settings or TrackerSettings()
        self.last_board = to_sensed(known) if known else None
        self.registrar = Registrar(decode(cal.reference)) if cal.reference else None
        self._reg_mask: Any = None
        self._next_relocate = 0.0
        self.moved = False
        self._masks: Masks | None = None
        self._prev: Any = None
        self._prev_t: float | None = None
        self._still_since: float | None = None
        self._run_done = False
        self._next_check = 0.0
        self._edge_refs: list[Any] = []
        self._run_start: Any = None
        #: the board (with a ring of table) as last seen without hands: the calibration frame,
        #: then each accepted still scene (`occlusion`)
        self._scene_ref: Any = (
            ringed(
                decode(cal.reference),
                cal.corners,
                cal.white_at,
                scale=REF_WIDTH / max(cal.frame_size[0], 1),
            )
            if cal.reference
            else None
        )
        self._expected: Expectation | None = None
        self._odd_since: dict[str, float] = {}  #: odd square -> first time read so
        #: (placement, frame, calibration then) of the last snapshots, for `confirm`
        self._emitted: deque[tuple[str, Any, Calibration]] = deque(maxlen=KEPT_SNAPSHOTS)

    def expect(self, expectation: Expectation | None) -> None:
        """The rules' position and the squares a legal continuation can touch (or None:
        no opinion). See `vision.expectations`."""
        self._expected = expectation
        self._odd_since = {}

    def _odd_squares_waiting(self, placement: str, t: float) -> bool:
        """Whether `placement` shows squares the rules say cannot have changed, not yet read
        so for `odd_patience_s` (then it is reported as seen: a mismatch for the rules)."""
        exp = self._expected
        if exp is None:
            return False
        odd = [sq for sq in differences(placement, exp.placement) if sq not in exp.can_change]
        self._odd_since = {sq: self._odd_since.get(sq, t) for sq in odd}
        return any(t - since < self.s.odd_patience_s - 1e-9 for since in self._odd_since.values())

    def confirm(self, placement: str) -> bool:
        """The rules core confirmed `placement` (piece letters or X/x): learn from it.

        If one of the last snapshots showed exactly this placement's colours, each square
        empty in it learns its own empty look from that snapshot's frame, measured under the
        grid of that moment; the learned looks are kept when the grid is re-registered
        later. Returns whether anything was learned.
        """
        sensed = to_sensed(placement)
        for seen, frame, cal in reversed(self._emitted):
            if seen != sensed:
                continue
            try:
                learned = learn_position(frame, cal, sensed)
            except (VisionError, CalibrationError):
                return False  # an old calibration without two-pass models learns nothing
            self.base = replace(self.base, model=learned.model, rough=learned.rough, _cache={})
            self.cal = replace(self.cal, model=learned.model, rough=learned.rough, _cache={})
            self._emitted.clear()  # older frames show positions before this one
            return True
        return False

    @property
    def still_since(self) -> float | None:
        """Time of the first frame of the current still scene (None while things move)."""
        return self._still_since

    def feed(self, frame: Any, t: float) -> list[Event]:
        """Take one frame seen at time `t` (seconds, from the source); return new events."""
        if self._masks is None:
            self._check_size(frame)
        small, scale = small_grey(frame)
        if self._masks is None or self._masks.board.shape != small.shape:
            self._masks = Masks.build(self.cal.corners, scale, small.shape)
        small = normalise(small, self._masks.board)
        prev, prev_t = self._prev, self._prev_t
        self._prev, self._prev_t = small, t
        if prev is None or prev.shape != small.shape:
            return []
        moving = (
            changed_fraction(prev, small, self._masks.board, self.s.motion_threshold)
            > self.s.motion_fraction
        )
        if moving:
            self._still_since = None
            self._run_done = False
            return []
        if self._still_since is None:
            self._still_since = prev_t if prev_t is not None else t
            self._run_start = prev  # the first frame of this still scene
            self._next_check = t
        if self._run_done or t - self._still_since < self.s.still_s - 1e-9:
            return []
        if t < self._next_check - 1e-9:
            return []
        self._next_check = t + self.s.recheck_s
        return self._examine(frame, small, scale, t)

    def _check_size(self, frame: Any) -> None:
        """Corners are in pixels: frames of another size than the calibration's (the camera
        set to another size, a cropped stream) get the board found again (`follow.locate`:
        registered at the calibration's size if only resized, else found by its squares
        and checked to look like the calibration's board)."""
        size = (int(frame.shape[1]), int(frame.shape[0]))
        if not self.base.frame_size[0] or size == tuple(self.base.frame_size):
            return
        w, h = self.base.frame_size
        try:
            found, how, _ = locate(frame, self.base)
        except CalibrationError as exc:
            raise VisionError.of(
                said.FRAMES_OTHER_SIZE,
                width=size[0],
                height=size[1],
                cal_width=w,
                cal_height=h,
                error=exc,
            ) from None
        self.base = self.cal = found
        if how.startswith("found"):  # another framing: this frame is the new reference
            self.registrar = Registrar(reference_image(frame))
        self._reg_mask = None

    # -- the snapshot path --
    def _square_px(self) -> float:
        return geometry.board_side_px(self.cal.corners) / 8

    def _register(self, frame: Any, scale: float, t: float) -> tuple[list[Event], bool]:
        """Check the grid against the calibration frame and follow small moves.

        Returns (events, usable): `recalibrated` when the grid was moved to follow the
        board, `camera_moved` first when the move was more than noise, and usable False
        (with `camera_moved` once) when the board cannot be found again reliably.
        """
        if self.registrar is None:
            return [], True
        if self._reg_mask is None:
            self._reg_mask = board_mask(
                self.base.corners, self.base.frame_size[0], self.registrar.shape, REGISTER_MARGIN
            )
        found = self.registrar.align(frame, self._reg_mask)
        sq = self._square_px()
        corners = move_points(found[0], self.base.corners) if found else None
        total = _max_move(corners, self.base.corners) / sq if corners else math.inf
        trusted = found is not None and (
            found[1] >= self.s.sure_correlation
            or (found[1] >= self.s.min_correlation and total <= self.s.max_shift_sq)
        )
        if not trusted:
            events: list[Event] = []
            if not self.moved:
                cc = f"{found[1]:.2f}" if found else "none"
                events.append(
                    Sensor(
                        t=t,
                        status="camera_moved",
                        detail=(
                            f"the board moved by about {total:.1f} squares (fit {cc}); "
                            "no snapshots until it is found again or recalibrated"
                        ),
                    )
                )
            self.moved = True
            self._run_done = True
            if t >= self._next_relocate and self._relocate(frame, scale):
                events.append(
                    Sensor(
                        t=t,
                        status="recalibrated",
                        detail="board found again by its squares; the grid follows it from here",
                    )
                )
                self.moved = False
                return events, True
            self._next_relocate = max(self._next_relocate, t + self.s.relocate_every_s)
            return events, False
        assert corners is not None and found is not None
        change = _max_move(corners, self.cal.corners) / sq
        events = []
        if change >= self.s.min_shift_sq or self.moved:
            if change >= self.s.moved_sq and not self.moved:
                events.append(
                    Sensor(
                        t=t,
                        status="camera_moved",
                        detail=f"the board moved by {change * sq:.1f} px at its corners",
                    )
                )
            self.cal = self.base.with_corners(corners)
            self._masks = Masks.build(self.cal.corners, scale, self._prev.shape)
            self._edge_refs = []
            events.append(
                Sensor(
                    t=t,
                    status="recalibrated",
                    detail=(
                        f"grid re-registered: corners {total * sq:.1f} px from the calibration "
                        f"(fit {found[1]:.2f})"
                    ),
                )
            )
        self.moved = False
        return events, True

    def _relocate(self, frame: Any, scale: float) -> bool:
        """After a large move: find the board again (`detect`) and check it by the squares.

        Of the four ways to name the found corners, the one whose classification differs
        least from the last reported placement is taken, and only if it differs by at most
        `relocate_changes` squares (by default it must show exactly the last report: a grid
        found again is trusted only when it sees what was there). The frame becomes the new
        registration reference. Without a reported placement nothing can be checked.
        """
        if self.last_board is None:
            return False
        try:
            corners = find_corners(frame)
        except CalibrationError:
            return False
        best: tuple[int, Calibration] | None = None
        for k in range(4):
            cal = self.base.with_corners(corners[k:] + corners[:k])
            placement, confidence, _ = classify_board(geometry.warp(frame, cal.homography()), cal)
            changed = len(differences(placement, self.last_board))
            if confidence >= self.s.min_confidence and (best is None or changed < best[0]):
                best = (changed, cal)
        if best is None or best[0] > self.s.relocate_changes:
            return False
        self.base = best[1]
        self.cal = best[1]
        self.registrar = Registrar(reference_image(frame))
        self._scene_ref = ringed(frame, self.cal.corners, self.cal.white_at)
        self._reg_mask = None
        self._masks = Masks.build(self.cal.corners, scale, self._prev.shape)
        self._edge_refs = []
        self._run_done = False
        return True

    def _examine(self, frame: Any, small: Any, scale: float, t: float) -> list[Event]:
        assert self._still_since is not None and self._masks is not None
        events, usable = self._register(frame, scale, t)
        if not usable:
            return events
        still_for = t - self._still_since
        # an arm reaching over the board's edge (or a shadow across it), holding still;
        # compared with the first and the last frame of the previous still scene, as a hand
        # may have been leaving or arriving at the edge in one of them
        if self._edge_refs and still_for < self.s.arm_patience_s:
            arm = min(
                arm_across_edge(ref, small, self._masks, self.s.motion_threshold)
                for ref in self._edge_refs
            )
            if arm > self.s.arm_fraction * int(self._masks.board.sum()):
                return events
        hidden = (
            occlusion(self._scene_ref, ringed(frame, self.cal.corners, self.cal.white_at))
            if self._scene_ref is not None
            else None
        )
        if hidden and (
            len(hidden.squares) > self.s.max_hidden or still_for < self.s.arm_patience_s
        ):
            return events  # a hand or an arm lies over the board: nothing to report
        board = geometry.warp(frame, self.cal.homography())
        # with the rules' position, a square a tall piece in front hides is not the tall
        # piece's top read as a piece: it is taken as the position has it where that is empty
        # (`classify.hidden_judged`), or `?` (the scene is held back)
        known = self._expected.pieces if self._expected is not None else None
        _, _, post = classify_board(board, self.cal, known, fill_hidden=True, frame=frame)
        seen = reading(post, self.s.min_confidence)
        if not seen.complete:
            return events  # a square that may or may not hold a piece: wait
        if seen.unsure_colour and still_for < self.s.patience_s:
            return events  # re-read a while before reporting a piece of unknown colour
        placement = seen.placement
        if self._odd_squares_waiting(placement, t):
            return events  # re-read at the next check: one noisy scene is not a change
        if placement == self.last_board:
            self._accept(small, frame)
            return events
        if (
            self.last_board is not None
            and len(differences(placement, self.last_board)) > self.s.max_changed
            and still_for < self.s.patience_s
        ):
            return events
        events.append(Snapshot(t=t, board=placement, seen_at=self._still_since))
        self.last_board = placement
        self._emitted.append((placement, frame.copy(), self.cal))
        self._accept(small, frame)
        return events

    def _accept(self, small: Any, frame: Any) -> None:
        """This still scene is settled; later ones are compared with its first and last frame
        (an arm crossing the edge) and with its look (what lies over the board)."""
        self._run_done = True
        self._edge_refs = [self._run_start, small]
        self._scene_ref = ringed(frame, self.cal.corners, self.cal.white_at)
