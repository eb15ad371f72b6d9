"""Per-square state (empty / white / black) of one frame, with the calibration's model."""

from __future__ import annotations

from typing import Any

from vision import geometry
from vision.calibration import Calibration
from vision.cvload import np
from vision.features import square_features
from vision.placement import STATES, from_grid


def posteriors(board: Any, cal: Calibration) -> Any:
    """(64, 3) probabilities of empty / white / black for a canonical board image."""
    n = np()
    ll = cal.model.log_likelihood(square_features(board, cal.origins(), cal.levels))
    ll = ll - ll.max(axis=1, keepdims=True)
    p = n.exp(ll)
    return p / p.sum(axis=1, keepdims=True)


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
