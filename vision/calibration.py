"""Calibration: where the board is in the picture, where a1 is, and what its squares look like.

`calibrate` learns it all from one frame of a known position (by default the initial one);
`Calibration` saves and loads it as JSON so a session can start without re-calibrating.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.library_reasons import reason_of
from vision import geometry
from vision import messages as said
from vision.columns import SHORTEST, front_squares, pawn_reach
from vision.cvload import np
from vision.errors import CalibrationError
from vision.features import (
    REF,
    WINDOW,
    empty_levels,
    rough_normalised,
    square_features,
    window_origins,
)
from vision.marks import marked_boards
from vision.model import SquareModel, fit
from vision.outline import empty_outline
from vision.placement import INITIAL, UNKNOWN, Grid, to_grid
from vision.registration import encode, reference_image
from vision.square_colours import colours_swapped

FORMAT = "otb-arbiter-vision-calibration"
VERSION = 3  #: 2: Lflat and per-square empty looks; 3: seven features, a printed look
AUGMENT = (-2, 0, 2)  #: window offsets (px) used to multiply the training examples

#: errors a user sees, as templates of `ArbiterError.of`: the `arbiter` command says them in
#: the user's language (its catalogue marks the same English: arbiter/i18n.py VISION_ERRORS)
NOT_A_CALIBRATION = "{where}: not an OTB Arbiter vision calibration"
OLD_CALIBRATION = (
    "{where}: calibration version {version!r}, this one reads {reads}: recalibrate"
    " (arbiter calibrate)"
)
CALIBRATION_LACKS = "{where}: the calibration lacks {field}"
CALIBRATION_NOT_JSON = "{path}: not valid JSON ({reason})"
CALIBRATION_BAD_FIELD = "{where}: the calibration's {field!r} cannot be read"


@dataclass
class Calibration:
    """Everything the classifier and tracker need about one camera set-up."""

    corners: geometry.Corners
    white_at: str
    model: SquareModel
    placement: str = INITIAL
    frame_size: tuple[int, int] = (0, 0)  #: (width, height) of the calibration frame
    reference: str | None = None  #: grey reference frame, base64 PNG (for re-registration)
    levels: list[list[float]] | None = None  #: empty light / dark square colour at calibration
    rough: SquareModel | None = None  #: the model of the first (rough-light) pass
    #: outline score of empty squares at calibration (`vision.outline.empty_outline`)
    outline: dict[str, Any] | None = None
    #: how far the set's own pawns' tops fall, as a share of the shortest piece's
    #: (`columns.pawn_reach`); None where not measured
    pawn_reach: float | None = None
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    # -- derived geometry (cached; recomputed when the corners change) --
    def homography(self) -> Any:
        key = ("h", tuple(self.corners), self.white_at)
        if self._cache.get("h_key") != key:
            self._cache.clear()
            self._cache["h_key"] = key
            self._cache["h"] = geometry.homography(self.corners, self.white_at)
        return self._cache["h"]

    def toward(self) -> Any:
        """(8, 8, 2) way toward the camera per square (`geometry.toward_camera`)."""
        h = self.homography()
        if "toward" not in self._cache:
            self._cache["toward"] = geometry.toward_camera(h, self.frame_size)
        return self._cache["toward"]

    def origins(self) -> Any:
        """Sample-window origins of the 64 squares under the current homography."""
        if "origins" not in self._cache:
            self._cache["origins"] = window_origins(self.toward())
        return self._cache["origins"]

    def fronts(self) -> Any:
        """(64,) the square in front of each (`columns.front_squares`), or None for a
        camera nearly above the board (`geometry.tilted`), where pieces lean over nothing."""
        h = self.homography()
        if "fronts" not in self._cache:
            tilted = geometry.tilted(h, self.frame_size)
            self._cache["fronts"] = front_squares(self.toward()) if tilted else None
        return self._cache["fronts"]

    def leans(self) -> Any:
        """((64, 2) unit way away from the camera per square, (64,) how far, in canonical
        pixels, the top of the shortest piece (`columns.SHORTEST`) standing on each square's
        centre falls beyond it on the top-down board), or None where the camera is nearly
        above the board (`fronts`) or its place is unknown (`geometry.column_tops`).

        The way is the picture's own "up" (`toward`, reversed: pieces rise up the picture as
        its taker held it); the distance comes from the camera's place and height."""
        if "leans" not in self._cache:
            out = None
            if self.fronts() is not None:
                n = np()
                centres = (n.stack(n.divmod(n.arange(64), 8)[::-1], axis=1) + 0.5) * geometry.SQ
                tops = geometry.column_tops(
                    self.homography(), self.frame_size, centres, SHORTEST * geometry.SQ
                )
                if tops is not None:
                    away = -self.toward().reshape(64, 2)
                    out = (away, n.linalg.norm(tops - centres, axis=1))
            self._cache["leans"] = out
        return self._cache["leans"]

    def with_corners(
        self, corners: geometry.Corners, frame_size: tuple[int, int] | None = None
    ) -> Calibration:
        """The same calibration for a picture where the board's corners are elsewhere (and,
        with `frame_size`, a picture of another size: another camera or a cropped photo)."""
        return Calibration(
            corners=geometry.check_corners(corners),
            white_at=self.white_at,
            model=self.model,
            placement=self.placement,
            frame_size=frame_size or self.frame_size,
            reference=self.reference,
            levels=self.levels,
            rough=self.rough,
            outline=self.outline,
            pawn_reach=self.pawn_reach,
        )

    # -- persistence --
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "corners": [list(p) for p in self.corners],
            "corners_order": "image top-left, top-right, bottom-right, bottom-left",
            "white_at": self.white_at,
            "placement": self.placement,
            "frame_size": list(self.frame_size),
            "model": self.model.to_dict(),
            "reference": self.reference,
            "levels": self.levels,
            "rough_model": self.rough.to_dict() if self.rough else None,
            "outline": self.outline,
            "pawn_reach": self.pawn_reach,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any], where: str = "calibration") -> Calibration:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise CalibrationError.of(NOT_A_CALIBRATION, where=where)
        if d.get("version") != VERSION:
            raise CalibrationError.of(
                OLD_CALIBRATION, where=where, version=d.get("version"), reads=VERSION
            )
        _check_fields(d, where)
        try:
            return cls(
                corners=geometry.check_corners(d["corners"]),
                white_at=d["white_at"],
                model=SquareModel.from_dict(d["model"]),
                placement=d.get("placement", INITIAL),
                frame_size=tuple(d.get("frame_size", (0, 0))),  # type: ignore[arg-type]
                reference=d.get("reference"),
                levels=d.get("levels"),
                rough=SquareModel.from_dict(d["rough_model"]) if d.get("rough_model") else None,
                outline=d.get("outline"),
                pawn_reach=d.get("pawn_reach"),
            )
        except KeyError as exc:
            raise CalibrationError.of(CALIBRATION_LACKS, where=where, field=exc) from None
        except (TypeError, ValueError, IndexError):  # corners that are no [x, y] pairs
            raise CalibrationError.of(CALIBRATION_BAD_FIELD, where=where, field="corners") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CalibrationError.of(CALIBRATION_NOT_JSON, path=p, reason=reason_of(exc)) from None
        return cls.from_dict(data, where=str(p))


def _check_fields(d: dict[str, Any], where: str) -> None:
    """Refuse a calibration file whose fields are not of their kind (a file edited by hand):
    read later, they would fail with Python's errors in the middle of a game."""

    def numbers(value: object, count: int) -> bool:
        return (
            isinstance(value, list)
            and len(value) == count
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        )

    checks = {
        "corners": lambda v: isinstance(v, list),
        "white_at": lambda v: isinstance(v, str),
        "placement": lambda v: isinstance(v, str),
        "frame_size": lambda v: numbers(v, 2) and all(n >= 0 for n in v),
        "reference": lambda v: v is None or isinstance(v, str),
        "levels": lambda v: v is None or (isinstance(v, list) and len(v) == 2
                                          and all(numbers(row, 3) for row in v)),
        "outline": lambda v: v is None or _outline_fits(v, numbers),
        "pawn_reach": lambda v: v is None or (isinstance(v, int | float)
                                              and not isinstance(v, bool) and v > 0),
    }  # fmt: skip
    for name, fits in checks.items():
        if name in d and not fits(d[name]):
            raise CalibrationError.of(CALIBRATION_BAD_FIELD, where=where, field=name)
    if isinstance(d.get("white_at"), str) and d["white_at"] not in geometry.SIDES:
        raise CalibrationError.of(CALIBRATION_BAD_FIELD, where=where, field="white_at")


def _outline_fits(value: object, numbers: Any) -> bool:
    """Whether a calibration file's `outline` (`vision.outline.empty_outline`) is of its
    kind: the two square colours' levels, and per square its own score and its centre's
    contrast (three numbers), each None where a piece stood."""
    if not isinstance(value, dict):
        return False

    def per_square(key: str, fits: Any) -> bool:
        row = value.get(key)
        return row is None or (
            isinstance(row, list) and len(row) == 64 and all(v is None or fits(v) for v in row)
        )

    def one(v: object) -> bool:
        return numbers([v], 1)

    return (
        ("empty" not in value or numbers(value["empty"], 2))
        and per_square("own", one)
        and per_square("contrast", lambda v: numbers(v, 3))
    )


def _rotations(grid: Grid) -> list[Grid]:
    """The grid seen from White at bottom, right, top, left (same order as geometry.SIDES)."""
    out, g = [], [row[:] for row in grid]
    for _ in range(4):
        out.append(g)
        g = [list(row) for row in zip(*g[::-1], strict=True)]
    return out


def _training(
    frame: Any, corners: geometry.Corners, white_at: str, grid: Grid
) -> tuple[Any, Any, list[list[float]]]:
    """(rough board, exact board, empty-square levels) of the calibration frame."""
    h = geometry.homography(corners, white_at)
    board = geometry.warp(frame, h)
    empty = [s == "." for row in grid for s in row]
    levels = empty_levels(board, empty)
    if np().isnan(levels).any():
        raise CalibrationError.of(said.NO_EMPTY_BOTH_COLOURS)
    return rough_normalised(board), board, levels.tolist()


def _fit_for(
    frame: Any, corners: geometry.Corners, white_at: str, grid: Grid
) -> tuple[SquareModel, SquareModel, list[list[float]]]:
    """(exact model, rough model, levels) learned from the calibration frame.

    The exact model sees the frame as it is (later frames are mapped to its light); the rough
    one sees it scaled by its upper quartiles, as the first pass sees every frame.
    """
    h = geometry.homography(corners, white_at)
    rough, exact, levels = _training(frame, corners, white_at, grid)
    origins = window_origins(geometry.toward_camera(h, _size(frame)))
    labels = [s for row in grid for s in row]
    exact_samples, rough_samples = [], []
    printed = marked_boards(exact, grid, levels)
    for dx in AUGMENT:
        for dy in AUGMENT:
            o = np().clip(origins + np().array([dx, dy]), 0, geometry.SIZE - WINDOW)
            exact_samples.append((square_features(exact, o, REF), labels))
            rough_samples.append((square_features(rough, o), labels))
    # the prints vary enough by themselves: the unshifted windows suffice (and keep it fast)
    marks = [square_features(b, origins, REF) for b in printed]
    return fit(exact_samples, marks), fit(rough_samples), levels


def _fit_score(frame: Any, corners: geometry.Corners, white_at: str, grid: Grid) -> float:
    """How well a model fitted with this orientation explains its own labels (log posterior)."""
    n = np()
    _, model, _ = _fit_for(frame, corners, white_at, grid)
    h = geometry.homography(corners, white_at)
    board = rough_normalised(geometry.warp(frame, h))
    feats = square_features(board, window_origins(geometry.toward_camera(h, _size(frame))))
    ll = model.log_likelihood(feats)
    ll = ll - ll.max(axis=1, keepdims=True)
    post = ll - n.log(n.exp(ll).sum(axis=1, keepdims=True))
    labels = [(".Xx").index(s) for row in grid for s in row]
    return float(post[n.arange(64), labels].sum())


def find_orientation(frame: Any, corners: geometry.Corners, placement: str) -> str:
    """Which image edge White is at, from a picture of a known, not symmetric, position.

    Why: corners alone do not say where a1 is, and printed coordinates cannot be trusted.

    Raises:
        CalibrationError: the position looks the same from several sides (say --white-at).
    """
    grid = to_grid(placement)
    rots = _rotations(grid)
    # a side whose rotated position equals the position itself cannot be told apart
    distinct = [s for i, s in enumerate(geometry.SIDES) if i == 0 or rots[i] != grid]
    if len(distinct) < 4:
        raise CalibrationError.of(said.SYMMETRIC_POSITION, placement=placement)
    scores = {s: _fit_score(frame, corners, s, grid) for s in geometry.SIDES}
    # A fitted model explains a colour-swapped labelling as well as the right one, so the
    # fit separates quarter turns only; of two opposite sides, White's pieces are the lighter.
    best = max(scores, key=lambda s: scores[s])
    opposite = geometry.SIDES[(geometry.SIDES.index(best) + 2) % 4]
    return best if white_lighter(frame, corners, best, grid) else opposite


def white_lighter(frame: Any, corners: geometry.Corners, white_at: str, grid: Grid) -> bool:
    """Whether, with this orientation, the squares labelled white are lighter than black's."""
    n = np()
    h = geometry.homography(corners, white_at)
    board = rough_normalised(geometry.warp(frame, h))
    feats = square_features(board, window_origins(geometry.toward_camera(h, _size(frame))))
    labels = n.array([s for row in grid for s in row])
    return bool(feats[labels == "X", 0].mean() > feats[labels == "x", 0].mean())


def calibrate(
    frame: Any,
    corners: geometry.Corners | None = None,
    white_at: str | None = None,
    placement: str = INITIAL,
) -> Calibration:
    """Learn a calibration from one frame showing `placement` (default the initial position).

    Without `corners` the board is looked for (`vision.detect`: found on plain boards, often
    not on crowded or oblique views, where the error asks for them); without `white_at` the
    orientation is taken from the position (the side where the white pieces stand).

    Raises:
        CalibrationError: the board cannot be found, the corners are bad, the orientation
            is ambiguous, or the position lacks a state to learn from.
    """
    if frame is None or getattr(frame, "ndim", 0) != 3:
        raise CalibrationError.of(said.NOT_COLOUR)
    if corners is None:
        from vision.detect import find_corners

        corners = find_corners(frame)
    corners = geometry.check_corners(corners)
    geometry.check_in_frame(corners, *_size(frame))
    grid = to_grid(placement)
    if any(s == UNKNOWN for row in grid for s in row):
        raise CalibrationError.of(said.POSITION_UNKNOWN_SQUARE)
    given = white_at is not None
    if white_at is None:
        white_at = find_orientation(frame, corners, placement)
    elif white_at not in geometry.SIDES:
        raise CalibrationError.of(
            said.WHITE_AT_UNKNOWN, sides=", ".join(geometry.SIDES), white_at=white_at
        )
    _check_square_colours(frame, corners, white_at, given)
    both = {s for row in grid for s in row} >= {"X", "x"}
    if given and both and not white_lighter(frame, corners, white_at, grid):
        opposite = geometry.SIDES[(geometry.SIDES.index(white_at) + 2) % 4]
        raise CalibrationError.of(said.WHITE_LOOKS_DARKER, white_at=white_at, opposite=opposite)
    model, rough, levels = _fit_for(frame, corners, white_at, grid)
    board = geometry.warp(frame, geometry.homography(corners, white_at))
    cal = Calibration(
        corners=corners,
        white_at=white_at,
        model=model,
        placement=placement,
        frame_size=(int(frame.shape[1]), int(frame.shape[0])),
        reference=encode(reference_image(frame)),
        levels=levels,
        rough=rough,
        outline=empty_outline(
            rough_normalised(board), [s == "." for row in grid for s in row], board
        ),
    )
    cal.pawn_reach = pawn_reach(frame, cal, placement)
    return cal


def _check_square_colours(
    frame: Any, corners: geometry.Corners, white_at: str, given: bool
) -> None:
    """Refuse a grid whose a8 and h1 are dark squares (FIDE Art. 2.1 has them light).

    With `--white-at` given, that is a quarter turn between the corners and White's side;
    found from the pieces, the board itself stands turned a quarter.
    """
    if not colours_swapped(geometry.warp(frame, geometry.homography(corners, white_at))):
        return
    i = geometry.SIDES.index(white_at)
    if given:
        raise CalibrationError.of(
            said.QUARTER_TURN_GIVEN,
            white_at=white_at,
            one=geometry.SIDES[(i + 1) % 4],
            other=geometry.SIDES[(i + 3) % 4],
        )
    raise CalibrationError.of(said.BOARD_QUARTER_TURN)


def _size(frame: Any) -> tuple[int, int]:
    """(width, height) of a frame."""
    return int(frame.shape[1]), int(frame.shape[0])
