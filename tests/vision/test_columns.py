"""`vision.columns`: which square is in front (from the camera's way), and a square read as a
piece behind a piece is `?` only where its look is unlike its class's."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from vision.columns import MIXED, front_squares, hidden_behind, kinds, mixed_behind
from vision.errors import VisionError


def _photo(
    vision_data: Path, images: dict[str, Any], name: str
) -> tuple[Any, list[tuple[float, float]], str]:
    """The uschess photo `name`: its image, its labelled corners and its position."""
    from vision.sources import read_image

    label = images[f"uschess/{name}.jpg"]
    img = read_image(str(vision_data / label["file"]))
    return img, [(float(x), float(y)) for x, y in label["corners"]], str(label["fen"])


def _toward(dx: float, dy: float) -> np.ndarray:
    v = np.array([dx, dy], dtype=float)
    return np.broadcast_to(v / np.linalg.norm(v), (8, 8, 2)).copy()


def test_the_square_in_front_is_toward_the_camera() -> None:
    down = front_squares(_toward(0.0, 1.0))  # camera at White's side: the next rank down
    assert down[4 * 8 + 4] == 5 * 8 + 4  # e4 -> e3
    assert down[7 * 8 + 0] == -1  # a1 has nothing in front
    across = front_squares(_toward(1.0, 1.0))  # camera beyond h1's corner: diagonal
    assert across[4 * 8 + 4] == 5 * 8 + 5  # e4 -> f3
    side = front_squares(_toward(-1.0, 0.1))  # camera at the a-file
    assert side[3 * 8 + 3] == 3 * 8 + 2  # d5 -> c5


def _post(states: dict[int, int]) -> np.ndarray:
    post = np.tile([0.98, 0.01, 0.01], (64, 1))
    for i, s in states.items():
        post[i] = [0.01, 0.01, 0.01]
        post[i, s] = 0.98
    return post


def test_only_a_piece_behind_a_piece_with_a_mixed_look_is_marked() -> None:
    front = front_squares(_toward(0.0, 1.0))
    e8, e7, d8, c8 = 4, 12, 3, 2
    post = _post({e8: 2, e7: 2, d8: 2, c8: 2})  # c8 has nothing in front (c7 empty)
    dist = {"white": np.full(64, 50.0), "black": np.full(64, 2.0)}
    dist["black"][[e8, c8]] = MIXED + 5  # e8: a king's crown over the board; c8 likewise
    dist["black"][d8] = MIXED - 1
    marked = mixed_behind(post, dist, front)
    assert list(np.flatnonzero(marked)) == [e8]


def test_a_camera_nearly_above_marks_nothing(video_cal: object) -> None:
    assert video_cal.fronts() is None  # type: ignore[attr-defined]


def _sq(name: str) -> int:
    return (8 - int(name[1])) * 8 + "abcdefgh".index(name[0])


def _read(placement: str) -> np.ndarray:
    """Posteriors that read `placement` (letters or X/x) surely."""
    post = np.tile([0.98, 0.01, 0.01], (64, 1))
    for i, k in enumerate(kinds(placement)):
        if k != ".":
            post[i] = [0.01, 0.98, 0.01] if k.isupper() else [0.01, 0.01, 0.98]
    return post


def _hidden(read: str, known: str) -> list[str]:
    front = front_squares(_toward(0.0, 1.0))  # camera at White's side
    out = hidden_behind(_read(read), front, kinds(known))
    return ["abcdefgh"[i % 8] + str(8 - i // 8) for i in np.flatnonzero(out)]


def test_the_top_of_a_king_in_front_is_hidden_not_a_piece() -> None:
    known = "8/4k3/8/8/8/8/8/4K3"  # the black king on e7, e8 empty
    assert _hidden("4x3/4x3/8/8/8/8/8/4X3", known) == ["e8"]
    # the king just came from d7 to e7: both squares newly black, one square left empty
    assert _hidden("4x3/4x3/8/8/8/8/8/4X3", "8/3k4/8/8/8/8/8/4K3") == ["e8"]


def test_what_agrees_with_the_position_or_reads_empty_is_kept() -> None:
    assert _hidden("3xx3/4x3/8/8/8/8/8/4X3", "3rr3/4k3/8/8/8/8/8/4K3") == []  # a rook on e8
    assert _hidden("8/4x3/8/8/8/8/8/4X3", "8/4k3/8/8/8/8/8/4K3") == []  # e8 read empty
    # a bishop is not tall enough (none hid a square on the uschess photos)
    assert _hidden("4x3/4x3/8/8/8/8/8/4X3", "8/4b3/8/8/8/8/8/4K3") == []


def test_a_piece_that_arrived_behind_a_queen_from_a_square_now_empty_is_kept() -> None:
    """Nbd2 with the queen on d1: the knight left b1, which reads empty."""
    known = "4k3/8/8/8/8/8/8/1N1QK3"
    assert _hidden("4x3/8/8/8/8/8/3X4/3XX3", known) == []
    # the same reading without b1 emptied: one more white piece than a move gives
    assert _hidden("4x3/8/8/8/8/8/3X4/1X1XX3", known) == ["d2"]


def test_kinds_reads_piece_letters_and_refuses_a_bad_placement() -> None:
    assert kinds("8/4k3/8/8/8/8/8/4K3")[_sq("e7")] == "k"
    assert kinds("8/4k3/8/8/8/8/8/4K3")[_sq("e8")] == "."
    with pytest.raises(VisionError):
        kinds("8/8/8")


def test_on_a_photo_the_square_behind_the_king_is_unreadable_with_the_position(
    vision_data: Path, images: dict[str, Any]
) -> None:
    """IMG_4788: the black king on e7, e8 empty; read with the IMG_4755 calibration, e8 is a
    black piece (the king's top) without the position, `?` with the one before (IMG_4786)."""
    pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")
    from vision import geometry
    from vision.calibration import calibrate
    from vision.classify import posteriors, reading
    from vision.placement import to_grid
    from vision.tracker import TrackerSettings

    def pic(name: str) -> tuple[Any, list[tuple[float, float]], str]:
        return _photo(vision_data, images, name)

    img, corners, fen = pic("IMG_4755")
    cal = calibrate(img, corners, None, fen)
    shot, shot_corners, truth = pic("IMG_4788")
    here = cal.with_corners(shot_corners, (shot.shape[1], shot.shape[0]))
    board = geometry.warp(shot, here.homography())
    least = TrackerSettings().min_confidence
    blind = reading(posteriors(board, here), least)
    seen = reading(posteriors(board, here, pic("IMG_4786")[2]), least)
    assert to_grid(truth)[0][4] == "." and to_grid(blind.placement)[0][4] == "x"
    assert "e8" in seen.unreadable
    # nothing else changes: only e8 went from a piece to `?`
    before, after = to_grid(blind.placement), to_grid(seen.placement)
    changed = [(r, c) for r in range(8) for c in range(8) if before[r][c] != after[r][c]]
    assert changed == [(0, 4)]
    # the tracker's reading for the rules: the hidden square as the position has it (empty),
    # so that the scene is not held back while the king stands in front
    filled = reading(posteriors(board, here, pic("IMG_4786")[2], fill_hidden=True), least)
    assert "e8" not in filled.unreadable and to_grid(filled.placement)[0][4] == "."
    after = to_grid(filled.placement)
    changed = [(r, c) for r in range(8) for c in range(8) if before[r][c] != after[r][c]]
    assert changed == [(0, 4)]


def test_the_tracker_reads_with_the_rules_position(
    frames: list[Any], video_cal: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tracker hands the expectation's piece letters to the classifier (which kinds
    stand in front), and nothing without an expectation."""
    import vision.tracker as tracker_module
    from vision.expectations import Expectation
    from vision.placement import INITIAL

    seen: list[str | None] = []
    real = tracker_module.classify_board

    def spy(board: Any, cal: Any, known: str | None = None, **kw: Any) -> Any:
        seen.append(known)
        return real(board, cal, known, **kw)

    monkeypatch.setattr(tracker_module, "classify_board", spy)
    tracker = tracker_module.SnapshotTracker(video_cal)
    for k in range(8):
        tracker.feed(frames[3], k / 20.0)
    tracker.expect(Expectation.after(INITIAL + " w KQkq - 0 1"))
    scene = [frames[12]] * 3 + [frames[3]] * 20  # a hand passes, then the next still scene
    for k, frame in enumerate(scene, start=8):
        tracker.feed(frame, k / 20.0)
    assert seen and seen[0] is None
    assert INITIAL in seen


def test_a_piece_that_could_not_have_come_there_is_hidden_behind_the_king() -> None:
    """IMG_4789 -> IMG_4791: ...fxe5 (the pawn left f6, took on e5) while the king stood on
    e7; e8 read as a black piece (the king's top). One black square emptied and one newly
    black, so the count shows no extra piece, but the pawn on f6 could not go to e8."""
    known = "2b5/2p1k1p1/5p1p/1pN1n1Bn/4RPP1/2P2B1P/rP1K4/8"
    read = "2x1x3/2x1x1x1/7x/1xX1x1Xx/4X1X1/2X2X1X/xX1X4/8"
    assert _hidden(read, known) == ["e8"]
    # a knight that jumped from f6 to e8 could have come: the reading is kept
    assert _hidden(read, "2b5/2p1k1p1/5n1p/1pN1n1Bn/4RPP1/2P2B1P/rP1K4/8") == []


def test_could_arrive_follows_each_piece_s_way_of_moving() -> None:
    from vision.columns import could_arrive

    board = kinds("4k3/8/8/8/8/8/4P3/R3K2N")
    assert could_arrive(board, _sq("a1"), _sq("a8"))  # a rook along the file
    assert not could_arrive(board, _sq("a1"), _sq("b2"))  # not diagonally
    assert could_arrive(board, _sq("e2"), _sq("e4"))  # a pawn's double step
    assert not could_arrive(board, _sq("e2"), _sq("e1"))  # never backwards
    assert could_arrive(board, _sq("h1"), _sq("g3"))  # a knight's jump
    assert could_arrive(board, _sq("e1"), _sq("g1"))  # castling's king step
    blocked = kinds("4k3/8/8/8/8/8/P7/R3K3")
    assert not could_arrive(blocked, _sq("a1"), _sq("a8"))  # its own pawn on a2 blocks
    assert could_arrive(blocked, _sq("a1"), _sq("a8"), {_sq("a2")})  # the pawn has moved


class _StubModel:
    """The classifier's means as `short_tops` asks them: lightness (L / 100) of empty, white
    and black on light and on dark squares, as on `uschess`."""

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        mu = np.zeros((2, 3, 7))
        mu[:, :, 0] = [[2.0, 2.0, 0.6], [0.6, 1.7, 0.2]]
        return mu, np.ones_like(mu)


class _StubCal:
    """A calibration as `short_tops` asks it: camera at White's side (the square in front is
    the next rank down), the top of the shortest piece falling 0.6 square up the board; the
    picture is the canonical board with `MARGIN` pixels around it."""

    levels: ClassVar[list[list[float]]] = [[200.0, 220.0, 230.0], [60.0, 120.0, 40.0]]  # BGR
    model = _StubModel()
    pawn_reach: float | None = None
    MARGIN = 60

    def fronts(self) -> np.ndarray:
        return front_squares(_toward(0.0, 1.0))

    def leans(self) -> tuple[np.ndarray, np.ndarray]:
        return np.tile([0.0, -1.0], (64, 1)), np.full(64, 0.6 * 40)

    def homography(self) -> np.ndarray:
        return np.array([[1.0, 0.0, -self.MARGIN], [0.0, 1.0, -self.MARGIN], [0.0, 0.0, 1.0]])


def _board() -> np.ndarray:
    img = np.zeros((320, 320, 3), dtype=np.uint8)
    for r in range(8):
        for c in range(8):
            img[r * 40 : (r + 1) * 40, c * 40 : (c + 1) * 40] = _StubCal.levels[(r + c) % 2]
    return img


def _column(img: np.ndarray, square: str, up: float, half: int = 7) -> None:
    """A black piece on `square`: from its base (0.2 square below the centre) up the board by
    `up` squares from the centre, `half` pixels either side."""
    col, row = "abcdefgh".index(square[0]), 8 - int(square[1])
    x, y = col * 40 + 20, row * 40 + 20
    img[int(y - up * 40) : y + 8, x - half : x + half + 1] = (25, 25, 25)


def test_the_top_of_a_tall_piece_in_front_is_not_a_piece_behind_it() -> None:
    """The king on f6 (1.3 squares up the board) over an empty f7: f7's window shows the
    king's top, which ends short of where even a pawn standing on f7 would reach (0.6 square
    beyond f7's centre): f7 is `?`. With a pawn on f7 the blob reaches on: kept."""
    from vision.columns import short_tops

    post = _post({_sq("f7"): 2, _sq("f6"): 2})
    img = _board()
    _column(img, "f6", 1.3)
    assert list(np.flatnonzero(short_tops(post, img, _StubCal()))) == [_sq("f7")]
    _column(img, "f7", 0.65, half=5)
    assert not short_tops(post, img, _StubCal()).any()
    # a short piece in front that does not reach the window: the window's piece is its own
    img = _board()
    _column(img, "f6", 0.5)
    _column(img, "f7", 0.65)
    assert not short_tops(post, img, _StubCal()).any()
    # on the back rank the top of a piece would fall off the board: without the picture
    # around the board nothing is said
    post = _post({_sq("e8"): 2, _sq("e7"): 2})
    img = _board()
    _column(img, "e7", 1.3)
    assert not short_tops(post, img, _StubCal()).any()


BORDER = (190.0, 215.0, 225.0)  #: a board's cream border, a little off its light squares (BGR)


def _framed(img: np.ndarray, mark: tuple[int, int] | None = None) -> np.ndarray:
    """The picture of the canonical board `img` with `_StubCal.MARGIN` pixels of border
    around it; `mark`: a dark printed letter at that canonical (x, y)."""
    m = _StubCal.MARGIN
    out = np.zeros((320 + 2 * m, 320 + 2 * m, 3), dtype=np.uint8)
    out[:] = BORDER
    if mark is not None:
        x, y = mark[0] + m, mark[1] + m
        out[y - 4 : y + 4, x - 3 : x + 4] = (60, 60, 60)
    out[m:-m, m:-m] = img
    return out


def _column_beyond(frame: np.ndarray, square: str, up: float, half: int = 7) -> None:
    """As `_column`, on the framed picture, where the top may rise beyond the board."""
    m = _StubCal.MARGIN
    col, row = "abcdefgh".index(square[0]), 8 - int(square[1])
    x, y = col * 40 + 20 + m, row * 40 + 20 + m
    frame[int(y - up * 40) : y + 8, x - half : x + half + 1] = (25, 25, 25)


def test_beyond_the_far_edge_the_top_of_a_king_is_told_from_a_piece_behind_it() -> None:
    """The king on e7 (1.3 squares up) over an empty e8: its top ends 0.3 square beyond e8's
    centre, short of where a piece on e8 would reach (0.6), which lies beyond the board's
    far edge: with the picture around the board, e8 is `?`. A piece on e8 whose top rises
    beyond the edge is kept, and so is one when a printed letter lies beside the edge."""
    from vision.columns import short_tops

    post = _post({_sq("e8"): 2, _sq("e7"): 2})
    frame = _framed(_board())
    _column_beyond(frame, "e7", 1.3)
    m = _StubCal.MARGIN
    board = frame[m:-m, m:-m].copy()
    assert list(np.flatnonzero(short_tops(post, board, _StubCal(), frame))) == [_sq("e8")]
    _column_beyond(frame, "e8", 0.7, half=5)
    board = frame[m:-m, m:-m].copy()
    assert not short_tops(post, board, _StubCal(), frame).any()
    # a letter printed on the border beyond e8, clear of the king's top: still `?`
    frame = _framed(_board(), mark=(4 * 40 + 20, -10))
    _column_beyond(frame, "e7", 1.3)
    board = frame[m:-m, m:-m].copy()
    assert list(np.flatnonzero(short_tops(post, board, _StubCal(), frame))) == [_sq("e8")]


def test_the_set_s_own_pawn_sets_how_far_a_piece_beyond_the_edge_must_reach() -> None:
    """The king's top 0.55 square beyond e8's centre: short of a pawn of this set measured at
    calibration as reaching 1.3 times the shortest piece's 0.6 square (`pawn_reach`), not
    of the shortest piece's own reach."""
    from vision.columns import short_tops

    post = _post({_sq("e8"): 2, _sq("e7"): 2})
    frame = _framed(_board())
    _column_beyond(frame, "e7", 1.55)
    m = _StubCal.MARGIN
    board = frame[m:-m, m:-m].copy()
    cal = _StubCal()
    assert not short_tops(post, board, cal, frame).any()
    cal.pawn_reach = 1.3
    assert list(np.flatnonzero(short_tops(post, board, cal, frame))) == [_sq("e8")]


class _IdentityCal(_StubCal):
    """`_StubCal` whose picture is the canonical board itself."""

    MARGIN = 0


def test_pawn_reach_measures_the_calibration_s_pawns() -> None:
    """Pawns on c3 and e3 (dark squares, empty squares behind them) whose tops rise 0.8
    square beyond their centres: 0.8 / 0.6 of where the shortest piece's top would fall."""
    from vision.columns import pawn_reach

    img = _board()
    for sq in ("c3", "e3"):
        _column(img, sq, 0.8, half=5)
    got = pawn_reach(img, _IdentityCal(), "8/8/8/8/8/2P1P3/8/8")
    assert got is not None and abs(got - 0.8 / 0.6) < 0.08
    assert pawn_reach(img, _IdentityCal(), "8/8/8/8/2n5/2P1P3/8/8") == pytest.approx(got)  # c4
    assert pawn_reach(_board(), _IdentityCal(), "8/8/8/8/8/8/8/8") is None


def test_on_a_photo_the_square_behind_the_king_is_unreadable_without_the_position(
    vision_data: Path, images: dict[str, Any]
) -> None:
    """IMG_4795: the black king on f6, f7 empty; read with the IMG_4755 calibration and no
    position, f7 was a black piece (the king's top); now `?`. IMG_4806 (a start
    position less a few pieces): every piece behind a piece is still read right."""
    pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")
    from vision import geometry
    from vision.calibration import calibrate
    from vision.classify import posteriors, reading
    from vision.placement import to_grid
    from vision.tracker import TrackerSettings

    def pic(name: str) -> tuple[Any, list[tuple[float, float]], str]:
        return _photo(vision_data, images, name)

    img, corners, fen = pic("IMG_4755")
    cal = calibrate(img, corners, None, fen)
    least = TrackerSettings().min_confidence

    def read(name: str) -> tuple[list[list[str]], list[list[str]]]:
        shot, shot_corners, truth = pic(name)
        here = cal.with_corners(shot_corners, (shot.shape[1], shot.shape[0]))
        board = geometry.warp(shot, here.homography())
        return to_grid(truth), to_grid(reading(posteriors(board, here), least).placement)

    truth, seen = read("IMG_4795")
    assert truth[1][5] == "." and truth[2][5] == "x"  # the king on f6
    assert seen[1][5] == "?"
    truth, seen = read("IMG_4806")
    behind = [(r, c) for r in range(7) for c in range(8) if truth[r][c] != "." != truth[r + 1][c]]
    assert behind
    for r, c in behind:
        want = "X" if truth[r][c].isupper() else "x"
        assert seen[r][c] == want, (r, c)


def test_on_photos_the_square_behind_the_king_on_the_far_rank_is_unreadable(
    vision_data: Path, images: dict[str, Any]
) -> None:
    """IMG_4791 and IMG_4788: the black king on e7, e8 empty; read with the IMG_4755
    calibration, no position, and the picture around the board (`frame`), e8 is `?`: the
    king's top ends short of where a piece on e8 would rise beyond the board's far edge
    (in IMG_4788 only just: short of this set's pawn, measured at calibration). Without the
    picture around the board nothing can be said there and e8 reads as a black piece.
    IMG_4806 and IMG_4809 (start positions less a few pieces): every piece behind a piece,
    the back rank's among them, is still read right."""
    pytest.importorskip("cv2", reason="the camera extra (opencv-python-headless) is missing")
    from vision import geometry
    from vision.calibration import calibrate
    from vision.classify import posteriors, reading
    from vision.placement import to_grid
    from vision.tracker import TrackerSettings

    img, corners, fen = _photo(vision_data, images, "IMG_4755")
    cal = calibrate(img, corners, None, fen)
    assert cal.pawn_reach is not None and cal.pawn_reach > 1.0
    least = TrackerSettings().min_confidence

    def read(name: str, with_frame: bool = True) -> tuple[list[list[str]], list[list[str]]]:
        shot, shot_corners, truth = _photo(vision_data, images, name)
        here = cal.with_corners(shot_corners, (shot.shape[1], shot.shape[0]))
        board = geometry.warp(shot, here.homography())
        post = posteriors(board, here, frame=shot if with_frame else None)
        return to_grid(truth), to_grid(reading(post, least).placement)

    for name in ("IMG_4791", "IMG_4788"):
        truth, seen = read(name)
        assert truth[0][4] == "." and truth[1][4] == "x", name  # the king on e7
        assert seen[0][4] == "?", name
        _, blind = read(name, with_frame=False)
        assert blind[0][4] == "x", name
        changed = [(r, c) for r in range(8) for c in range(8) if seen[r][c] != blind[r][c]]
        assert changed == [(0, 4)], name
    for name in ("IMG_4806", "IMG_4809"):
        truth, seen = read(name)
        behind = [
            (r, c) for r in range(7) for c in range(8) if truth[r][c] != "." != truth[r + 1][c]
        ]
        assert any(r == 0 for r, _ in behind)
        for r, c in behind:
            want = "X" if truth[r][c].isupper() else "x"
            assert seen[r][c] == want, (name, r, c)
