"""Change evidence between two still scenes: which squares changed their look, and what that says.

The classifier (`vision.classify`) judges each still scene on its own. Between two accepted
still scenes there is more evidence: a square whose look did not change did not change its
state, and a square reported with the same colour before and after although its look
changed strongly cannot, in one or two plies, have had one own piece replaced by another
own piece (a capture takes an opponent's piece), so its state must be one of the other two.
Why it matters: a square that held a piece at calibration and carries a printed logo (the
`uschess` board's h1) is taken for a piece whenever it is empty; after castling the rules
core would find no move explaining the snapshot, and every later snapshot repeats the error.

`square_changes` measures the change of each square between two canonical (top-down) board
images: CIE Lab, blurred and halved (a little misregistration or JPEG noise is no change),
each channel of the second image matched to the first's level distribution (a global change
of exposure, gamma or white balance is no change), and per square the least mean absolute
difference over small shifts of its central part, after taking out the part's mean
difference (a soft shadow that darkens a square evenly is no change; a piece that arrives
or leaves changes the pattern). `revise` combines these scores with the classifier's
posteriors and the previous placement.

Thresholds, measured on the `uschess` photo sequences (hand-held phone photos, the camera
moved a little between photos, each rectified with its own corners; `bench/vision_sequence.py`):
squares whose state changed scored at least 7.4 (2 % below 8.2, median 25); squares whose
state stayed scored a median 1.3 (95 % below 12.6), with a tail up to ~74 from squares behind
a tall piece that moved (covered by it in an angled view) and from the photographer's
shadow. On the video (fixed camera), between consecutive clean still scenes: unchanged
squares a median 1.75, 99 % below 15.7, at most 28 (occlusion again); changed 20.7 to 64.

Result (`python bench/vision_sequence.py`): it does NOT help, so the tracker does not use it.
Along the two games (70 photos) the classifier alone is wrong on 91 squares, with `revise`
(defaults) on 138, and on at least 91 for every threshold pair swept. Why:
- the logo square is not read as a white piece when empty but as a *black* one (posterior
  ~1 for black in every such photo), so castling short shows h1 going from white to black,
  a change of state that the change evidence (the look changed strongly) supports; neither
  rule applies, and a rule that would (no black piece may appear without one leaving) is
  move logic, the rules core's job;
- unchanged squares behind moved pieces (covered by them in an angled view), under the
  photographer's moving shadow and tall pieces seen from a moved camera overlap the state
  changes, so any flip threshold below ~60 flips right squares;
- the keep rule also keeps the previous photo's errors (the shadowed f1, an occluded b8),
  which the classifier alone would not repeat.
Kept as a measured tool, not in use; `square_changes` takes ~14 ms CPU per pair of boards.
"""

from __future__ import annotations

from typing import Any

from vision.cvload import cv2, np
from vision.errors import VisionError
from vision.geometry import SIZE, SQ
from vision.motion import matched
from vision.placement import STATES, from_grid, to_grid

SCALE = 2  #: the boards are compared at half size (20 px per square)
BLUR = 2.0  #: Gaussian blur (canonical px) before halving: noise and fine texture out
SHIFT = 2  #: each square is compared over shifts of up to this many half-size px (0.2 sq)
CORE = 0.6  #: side of a square's compared central part, in squares
#: a square scoring at most this is unchanged: it keeps its previous state. Below the least
#: score of any state change measured (7.4), with a margin.
KEEP_BELOW = 5.0
#: a square scoring at least this changed: the same state before and after is impossible.
#: Above the state changes' median (25) is too late for the logo square (14-27); below it,
#: the shadow and occlusion tail of unchanged squares; see the module docstring.
FLIP_ABOVE = 20.0


def _prepared(board: Any) -> Any:
    """The board in Lab (float32), blurred and halved."""
    c = cv2()
    if board.ndim != 3 or board.shape[:2] != (SIZE, SIZE):
        raise VisionError(f"a canonical board image ({SIZE}x{SIZE}x3) is needed, not {board.shape}")
    lab = c.cvtColor(board, c.COLOR_BGR2LAB).astype("float32")
    lab = c.GaussianBlur(lab, (0, 0), BLUR)
    return c.resize(lab, (SIZE // SCALE, SIZE // SCALE), interpolation=c.INTER_AREA)


def square_changes(before: Any, after: Any) -> Any:
    """(64,) change score of each square (a8 first, FEN order) between two canonical boards.

    The score is a mean absolute difference in Lab levels (summed over L, a, b) of the
    square's central part, after light matching, the least over small shifts, with the
    part's mean difference taken out (see the module docstring). 0: the same look.

    Raises:
        VisionError: an image is not a canonical board (`geometry.warp` of a frame).
    """
    n = np()
    a, b = _prepared(before), _prepared(after)
    whole = n.ones(a.shape[:2], dtype=bool)
    b = n.stack([matched(a[..., ch], b[..., ch], whole) for ch in range(3)], axis=-1)
    sq = SQ // SCALE
    side = round(sq * CORE)
    lo = (sq - side) // 2
    padded = n.pad(a, ((SHIFT, SHIFT), (SHIFT, SHIFT), (0, 0)), mode="edge")
    h, w = a.shape[:2]
    best = n.full(64, n.inf)
    for dy in range(-SHIFT, SHIFT + 1):
        for dx in range(-SHIFT, SHIFT + 1):
            moved = padded[SHIFT + dy : SHIFT + dy + h, SHIFT + dx : SHIFT + dx + w]
            d = (moved - b).reshape(8, sq, 8, sq, 3)[:, lo : lo + side, :, lo : lo + side, :]
            d = d - d.mean(axis=(1, 3), keepdims=True)
            best = n.minimum(best, n.abs(d).sum(axis=-1).mean(axis=(1, 3)).reshape(64))
    return best


def revise(
    post: Any,
    prev_placement: str,
    changes: Any,
    *,
    keep_below: float = KEEP_BELOW,
    flip_above: float = FLIP_ABOVE,
) -> str:
    """The placement (X/x) the change evidence makes of the classifier's posteriors.

    `post` is `classify_board`'s (64, 3) posteriors in the order of `placement.STATES`;
    `prev_placement` the placement of the previous accepted still scene; `changes` its
    `square_changes` to this one. Per square: unchanged (score <= `keep_below`) keeps its
    previous state; changed strongly (score >= `flip_above`) but classified as its previous
    state takes the best-scoring other state; otherwise the classifier's state stands.

    Raises:
        VisionError: shapes that do not fit (64 squares, 3 states) or a bad placement.
    """
    n = np()
    post = n.asarray(post, dtype="float64")
    changes = n.asarray(changes, dtype="float64")
    if post.shape != (64, len(STATES)) or changes.shape != (64,):
        raise VisionError(
            f"need (64, 3) posteriors and 64 changes, not {post.shape} and {changes.shape}"
        )
    prev = [STATES.index(s) for row in to_grid(prev_placement) for s in row]
    out = []
    for sq in range(64):
        best = int(post[sq].argmax())
        if changes[sq] <= keep_below:
            best = prev[sq]
        elif changes[sq] >= flip_above and best == prev[sq]:
            others = post[sq].copy()
            others[prev[sq]] = -1.0
            best = int(others.argmax())
        out.append(STATES[best])
    return from_grid([out[r * 8 : r * 8 + 8] for r in range(8)])
