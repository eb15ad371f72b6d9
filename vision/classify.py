"""Per-square state (empty / white / black) of one frame, with the calibration's model."""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.calibration import Calibration
from vision.cvload import np
from vision.features import (
    REF,
    empty_levels,
    levels_normalised,
    rough_normalised,
    square_features,
)
from vision.placement import STATES, from_grid

SURE_EMPTY = 0.8  #: first-pass probability above which a square measures the empty look


def _posterior(ll: Any) -> Any:
    n = np()
    ll = ll - ll.max(axis=1, keepdims=True)
    p = n.exp(ll)
    return p / p.sum(axis=1, keepdims=True)


def posteriors(board: Any, cal: Calibration) -> Any:
    """(64, 3) probabilities of empty / white / black for a canonical board image.

    First pass: light scaled roughly (upper quartiles), rough model; it finds the squares
    that are surely empty. Second pass: the frame's light mapped so that those squares look
    like the calibration's empty squares, exact model. Why: the rough scaling depends on how
    many pieces are on the board; the empty squares' look does not.
    """
    n = np()
    origins = cal.origins()
    if cal.rough is None or cal.levels is None:
        return _posterior(cal.model.log_likelihood(square_features(board, origins, REF)))
    first = _posterior(cal.rough.log_likelihood(square_features(rough_normalised(board), origins)))
    measured = empty_levels(board, first[:, 0] >= SURE_EMPTY)
    if n.isnan(measured).any():
        measured = empty_levels(board, first.argmax(axis=1) == 0)
    if n.isnan(measured).any():
        return first
    mapped = levels_normalised(board, measured, n.asarray(cal.levels))
    return _posterior(cal.model.log_likelihood(square_features(mapped, origins, REF)))


def placement_of(post: Any) -> str:
    """The most probable state of each square, as a FEN placement with X and x."""
    idx = post.argmax(axis=1)
    return from_grid([[STATES[idx[r * 8 + c]] for c in range(8)] for r in range(8)])


def classify_board(board: Any, cal: Calibration) -> tuple[str, float, Any]:
    """Placement, confidence (the least sure square's probability) and the posteriors."""
    post = posteriors(board, cal)
    return placement_of(post), float(post.max(axis=1).min()), post


def classify(frame: Any, cal: Calibration) -> tuple[str, float]:
    """The placement a frame shows (X/x for white/black pieces) and its confidence in [0, 1].

    The confidence is the probability of the least certain square: one doubtful square makes
    the whole snapshot doubtful.
    """
    board = geometry.warp(frame, cal.homography())
    placement, conf, _ = classify_board(board, cal)
    return placement, conf
