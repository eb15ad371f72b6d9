"""One picture read with a calibration, saying what it cannot read (`arbiter snapshot`).

Where the board is: given corners (checked for a quarter turn: the players' right-hand
corner squares must be light, FIDE Art. 2.1), else found from the calibration
(`follow.locate`: a bumped camera, a resized or a cropped picture). What is on it: the
classifier's reading with `?` where a square cannot be read: a piece of doubtful colour, a
doubtful occupancy, or a square under a hand or arm (`occlusion`, against the calibration's
own frame, so only when the picture comes from the calibration's camera position: found by
`locate`, or given corners where `follow.same_view` finds the board). A hand over more squares
than a move changes is no position at all: refused (`HandOverBoard`), as the tracker never
passes such a frame to the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision import geometry
from vision import messages as said
from vision.calibration import Calibration
from vision.classify import classify_board, reading
from vision.errors import CalibrationError, HandOverBoard
from vision.follow import locate, same_view
from vision.occlusion import occlusion, ringed
from vision.placement import UNKNOWN, from_grid, to_grid
from vision.registration import REF_WIDTH, decode

MIN_CONFIDENCE = 0.6  #: least probability of a square's state to report it (as the tracker)
MAX_HIDDEN = 4  #: hidden squares beyond what a move changes: a hand, no position (as the tracker)


@dataclass(frozen=True)
class PictureReading:
    """The board a picture shows, `?` where it cannot be read, and why."""

    board: str
    confidence: float
    hidden: tuple[str, ...]  #: squares under a hand or arm
    unreadable: tuple[str, ...]  #: squares of doubtful occupancy
    unsure_colour: tuple[str, ...]  #: pieces of doubtful colour
    located: str | None  #: how the board was found (None: corners given)
    moved_px: float | None  #: the corners' move since the calibration, same-size pictures

    @property
    def complete(self) -> bool:
        return not (self.hidden or self.unreadable or self.unsure_colour)


def read_picture(
    frame: Any, cal: Calibration, corners: geometry.Corners | None = None
) -> PictureReading:
    """Read `frame` with `cal`; `corners` are the board's corners in it, if known.

    Raises:
        CalibrationError: the corners are off the picture or a quarter turn off, or the
            board cannot be found (another board, or moved too far).
        HandOverBoard: a hand or arm hides more than `MAX_HIDDEN` squares (fewer are `?`).
    """
    how: str | None = None
    moved: float | None = None
    if corners is not None:
        geometry.check_in_frame(corners, frame.shape[1], frame.shape[0])
        here = cal.with_corners(corners, (frame.shape[1], frame.shape[0]))
        from vision.square_colours import colours_swapped

        if colours_swapped(geometry.warp(frame, here.homography())):
            raise CalibrationError.of(said.CORNERS_QUARTER_TURN)
    else:
        here, how, moved = locate(frame, cal)
    _, _, post = classify_board(geometry.warp(frame, here.homography()), here, frame=frame)
    seen = reading(post, MIN_CONFIDENCE)
    hidden: tuple[str, ...] = ()
    view = (here.corners, here.white_at) if corners is None else None
    if corners is not None and (followed := same_view(frame, cal, corners)) is not None:
        view = (followed, cal.white_at)
    if cal.reference and view is not None:
        ref = ringed(
            decode(cal.reference),
            cal.corners,
            cal.white_at,
            scale=REF_WIDTH / max(cal.frame_size[0], 1),
        )
        hidden = occlusion(ref, ringed(frame, *view)).squares
        if len(hidden) > MAX_HIDDEN:
            raise HandOverBoard(hidden)
    grid = to_grid(seen.placement)
    for sq in hidden:
        grid[8 - int(sq[1])]["abcdefgh".index(sq[0])] = UNKNOWN
    return PictureReading(
        board=from_grid(grid),
        confidence=seen.confidence,
        hidden=hidden,
        unreadable=seen.unreadable,
        unsure_colour=seen.unsure_colour,
        located=how,
        moved_px=moved,
    )
