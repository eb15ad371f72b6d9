"""Per-square state (empty / white / black) of one frame, with the calibration's model."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from vision import geometry
from vision.calibration import AUGMENT, Calibration
from vision.columns import hidden_behind, kinds, mixed_behind, short_tops
from vision.cvload import np
from vision.errors import CalibrationError, VisionError
from vision.features import (
    REF,
    WINDOW,
    empty_levels,
    gradients,
    levels_normalised,
    rough_normalised,
    square_features,
)
from vision.outline import (
    DISC_OUTLINE,
    DISC_RADIAL,
    FLAT_DOUBT,
    FLAT_PIECE,
    NOVEL,
    SHADOW_DOUBT,
    SHADOW_SIDE,
    centre_contrast,
    disc_evidence,
    distances,
    flat_change,
    learned_outline,
    outline_scores,
    outline_threshold,
    piece_colour,
)
from vision.placement import EMPTY, STATES, from_grid, square_name, to_grid
from vision.shade import unshaded

SURE_EMPTY = 0.8  #: first-pass probability above which a square measures the empty look
MARGIN = 2  #: pixels around a window measured again (`shade_judged`): its gradients exact


def _posterior(ll: Any) -> Any:
    n = np()
    ll = ll - ll.max(axis=1, keepdims=True)
    p = n.exp(ll)
    return p / p.sum(axis=1, keepdims=True)


def _light_mapped(board: Any, cal: Calibration) -> tuple[Any, Any, Any, Any]:
    """(first-pass posteriors, the board mapped to the calibration's light or None, the
    outline scores (`vision.outline`) of the roughly scaled board, or None, and that board
    with its `gradients`)."""
    n = np()
    assert cal.rough is not None and cal.levels is not None
    rough = rough_normalised(board)
    grads = gradients(rough)
    first = _posterior(cal.rough.log_likelihood(square_features(rough, cal.origins(), None, grads)))
    sure = first[:, 0] >= SURE_EMPTY
    outline = None
    if cal.outline is not None:
        outline = outline_scores(rough, grads)
        # a piece seen from above that the rough model takes for empty (a white pawn's head
        # on a light square) must not set the empty squares' light
        sure &= outline < outline_threshold(cal.outline)
    measured = empty_levels(board, sure)
    if n.isnan(measured).any():
        measured = empty_levels(board, first.argmax(axis=1) == 0)
    if n.isnan(measured).any():
        return first, None, None, (rough, grads)
    mapped = levels_normalised(board, measured, n.asarray(cal.levels))
    return first, mapped, outline, (rough, grads)


def posteriors(
    board: Any,
    cal: Calibration,
    known: str | None = None,
    *,
    fill_hidden: bool = False,
    frame: Any = None,
) -> Any:
    """(64, 3) probabilities of empty / white / black for a canonical board image.

    `known`: the position the rules hold (a FEN placement with piece letters), when there
    is one: a square a tall piece in front hides is then unreadable (`hidden_judged`), or,
    with `fill_hidden`, taken as the position has it where that is empty.

    First pass: light scaled roughly (upper quartiles), rough model; it finds the squares
    that are surely empty. Second pass: the frame's light mapped so that those squares look
    like the calibration's empty squares, exact model. Why: the rough scaling depends on how
    many pieces are on the board; the empty squares' look does not.
    """
    origins = cal.origins()
    if cal.rough is None or cal.levels is None:
        return _posterior(cal.model.log_likelihood(square_features(board, origins, REF)))
    first, mapped, outline, seen = _light_mapped(board, cal)
    if mapped is None:
        return first
    brightened = unshaded(mapped, cal.levels)
    feats = square_features(brightened, origins, REF)
    post = _posterior(cal.model.log_likelihood(feats))
    if outline is not None:
        post = unlike_known(post, feats, outline, cal, seen, mapped)
    if brightened is not mapped:
        post = shade_judged(post, feats, mapped, brightened, cal)
    post = hidden_judged(behind_judged(post, feats, cal), cal, known, fill=fill_hidden)
    return top_judged(post, brightened, cal, known, fill=fill_hidden, frame=frame)


def top_judged(
    post: Any,
    board: Any,
    cal: Calibration,
    known: str | None = None,
    *,
    fill: bool = False,
    frame: Any = None,
) -> Any:
    """The posteriors, with a square read as a piece behind a piece of the same colour made
    unreadable (`?`) where what its window shows ends short of where the top of any piece
    standing there would fall: the top of the piece in front (`vision.columns.short_tops`,
    from the camera's pose; the king on f6 over an empty f7). With `fill` (the tracker's
    reading) and the rules' position `known` having that square empty, it is read empty: the
    picture says no piece stands there, and the position agrees.

    Run after `hidden_judged`, so that a square the position already explains is left as
    that made it.
    """
    tops = short_tops(post, board, cal, frame)
    if not tops.any():
        return post
    post = post.copy()
    post[tops] = 1.0 / 3.0
    if fill and known is not None:
        empty = tops & (np().asarray(kinds(known)) == EMPTY)
        post[empty] = (1.0, 0.0, 0.0)
    return post


def hidden_judged(post: Any, cal: Calibration, known: str | None, *, fill: bool = False) -> Any:
    """The posteriors, with a square a tall piece in front hides made unreadable (`?`),
    by the rules' position `known` (piece letters) and the reading itself
    (`vision.columns.hidden_behind`): from one picture the top of a king in front and a
    piece standing behind it look alike, but the position says which kind stands in front
    and whether the square behind held a piece. Nothing changes without a position or for
    a camera nearly above the board.

    With `fill` (the tracker's reading for the rules), a hidden square that the position has
    empty is read empty instead: the camera cannot see it, and its look is explained by the
    piece in front while the count of pieces shows no arrival (`hidden_behind`), so it is
    what a careful arbiter takes it for. Without that, every scene would be held back (a
    `?` of unknown occupancy is never reported) for as long as a king stood in front of an
    empty square, and the player's moves elsewhere would go unseen. A hidden square that the
    position has holding a piece of the other colour stays `?`.

    Raises:
        VisionError: `known` is not a valid placement.
    """
    front = cal.fronts()
    if known is None or front is None:
        return post
    letters = kinds(known)
    hidden = hidden_behind(post, front, letters)
    if not hidden.any():
        return post
    post = post.copy()
    post[hidden] = 1.0 / 3.0
    if fill:
        empty = hidden & (np().asarray(letters) == EMPTY)
        post[empty] = (1.0, 0.0, 0.0)
    return post


def shade_judged(post: Any, feats: Any, mapped: Any, brightened: Any, cal: Calibration) -> Any:
    """The posteriors, with a light square brightened out of shade (`vision.shade`) made
    unreadable (`?`) where it reads as empty once brightened but as a white piece as it
    was seen: a white piece in shade on a light square, whose own shading the light field
    took for the shadow's, is flattened into its square by the brightening (on the
    `uschess` photos, the white pawn on g2 in the photographer's shadow).

    `feats` are the brightened board's features; only the candidate squares' windows are
    measured again on the board as seen (each with a `MARGIN` for the gradients), so
    that a frame with a shadow costs a few windows, not a second board.
    """
    n = np()
    origins = cal.origins()
    idx = n.arange(64)
    light = (idx // 8 + idx % 8) % 2 == 0
    candidates = []
    for i in n.flatnonzero((post.argmax(axis=1) == 0) & light):
        x, y = (int(v) for v in origins[i])
        window = (slice(y, y + WINDOW), slice(x, x + WINDOW))
        if (brightened[window] != mapped[window]).any():
            candidates.append(i)
    if not candidates:
        return post
    # the candidates' windows, each with a margin, side by side in one strip
    side = WINDOW + 2 * MARGIN
    strip = n.zeros((side, side * len(candidates), 3), dtype=mapped.dtype)
    at = n.zeros((64, 2), dtype="int64")
    for j, i in enumerate(candidates):
        x, y = (int(v) for v in origins[i])
        x0 = min(max(x - MARGIN, 0), geometry.SIZE - side)
        y0 = min(max(y - MARGIN, 0), geometry.SIZE - side)
        strip[:, j * side : (j + 1) * side] = mapped[y0 : y0 + side, x0 : x0 + side]
        at[j] = (j * side + x - x0, y - y0)
    at[len(candidates) :] = at[0]
    seen = feats.copy()
    seen[candidates] = square_features(strip, at, REF)[: len(candidates)]
    as_seen = _posterior(cal.model.log_likelihood(seen))
    doubt = [i for i in candidates if as_seen[i].argmax() == 1]
    if not doubt:
        return post
    post = post.copy()
    post[doubt] = 1.0 / 3.0
    return post


def behind_judged(post: Any, feats: Any, cal: Calibration) -> Any:
    """The posteriors, with a square read as a piece behind a piece made unreadable (`?`)
    where its look is a mix the calibration never showed (`vision.columns`): the top of the
    tall piece in front over an empty square."""
    front = cal.fronts()
    if front is None:
        return post
    mixed = mixed_behind(post, distances(feats, cal.model.looks()), front)
    if not mixed.any():
        return post
    post = post.copy()
    post[mixed] = 1.0 / 3.0
    return post


def unlike_known(
    post: Any,
    feats: Any,
    outline: Any,
    cal: Calibration,
    seen: tuple[Any, Any] | None = None,
    mapped: Any = None,
) -> Any:
    """The posteriors, with squares unlike every look the model knows judged apart.

    The model gives a look it never saw to the least unlike class, sure of it: a white
    plastic pawn seen from above on a light square reads as empty when the calibration's
    white pieces were wooden bodies (issue 16). Such a square (its distance to every known
    look beyond `NOVEL`, `vision.outline.distances`) is a piece when a closed outline
    surrounds its centre (`outline`: `outline_scores` of the roughly scaled board), of the
    colour its lightness says (`piece_colour`, `?` when between white and black), and so is
    one the model reads as a piece; read as empty and without an outline, it is unreadable
    (`?`, even odds). A square read as empty is a piece too when it has an outline, unless
    a print explains it better than its colour's empty look (`vision.outline`).

    `seen`: the roughly scaled board and its `gradients`, where `outline` was measured.
    With it, a square read as empty whose outline reaches `DISC_OUTLINE` of the threshold
    is a piece when its rim is round and it casts a one-sided shadow
    (`outline.seen_from_above`): on a square never seen empty the printed look (whose
    prints include discs and rings) explained a white pawn's head from above better than
    the empty look, so it read empty, silently. A round rim with a weaker one-sided shadow
    (`SHADOW_DOUBT` to `SHADOW_SIDE`: a head in softer light, or a round print beside a
    neighbour's shadow) is unreadable (`?`): neither empty nor a piece can be said.
    """
    n = np()
    dist = distances(feats, cal.model.looks())
    novel = n.min(n.stack(list(dist.values())), axis=0) > NOVEL
    printed = dist.get("printed", n.full(64, n.inf)) < dist["empty"]
    plain_empty = (post.argmax(axis=1) == 0) & ~printed
    threshold = outline_threshold(cal.outline)
    above = n.zeros(64, dtype=bool)
    doubt = n.zeros(64, dtype=bool)
    if seen is not None:
        asked = n.flatnonzero((post.argmax(axis=1) == 0) & (outline >= DISC_OUTLINE * threshold))
        radial, side = disc_evidence(seen[0], seen[1], asked)
        round_rim = radial >= DISC_RADIAL
        above[asked] = round_rim & (side >= SHADOW_SIDE)
        doubt[asked] = round_rim & (side >= SHADOW_DOUBT) & (side < SHADOW_SIDE)
    if mapped is not None and cal.fronts() is None:
        # a camera nearly above: a flat disc changes the square's centre against its border
        read_empty = post.argmax(axis=1) == 0
        change = flat_change(cal.outline, mapped, n.flatnonzero(read_empty))
        above |= read_empty & (change >= FLAT_PIECE)
        doubt |= read_empty & (change >= FLAT_DOUBT) & (change < FLAT_PIECE)
    suspect = novel | plain_empty
    if not (suspect.any() or above.any() or doubt.any()):
        return post
    outlined = outline >= threshold
    # a novel square the model takes for a piece is one (a tall piece seen from the side has
    # no closed outline); only its colour is judged again
    piece = (suspect & outlined) | (novel & (post.argmax(axis=1) != 0)) | above
    doubt &= ~piece
    if not (novel.any() or piece.any() or doubt.any()):
        return post
    post = post.copy()
    mu, _ = cal.model.arrays()
    idx = n.arange(64)
    par = (idx // 8 + idx % 8) % 2
    colour = piece_colour(feats[:, 0], mu[par, 1, 0], mu[par, 2, 0])
    post[(novel & ~piece) | doubt] = 1.0 / 3.0
    post[piece, 0] = 0.0
    post[piece, 1:] = colour[piece]
    return post


def learn_position(
    frame: Any, cal: Calibration, placement: str, weight: float = 0.5
) -> Calibration:
    """The calibration, having also seen `frame` show the known `placement`.

    Each square empty in `placement` keeps (or refreshes, by `weight`) its own empty look
    and its own outline level (`vision.outline`: a logo seen empty is no piece's outline),
    measured as `posteriors` measures frames (same light mapping, same shifted windows as at
    calibration). For the live path: once the rules core has confirmed a position, the
    squares that held pieces at calibration (a printed logo, an odd grain) get a look of
    their own. Only what a known position shows is learned; piece classes are unchanged.
    Give it a still frame without hands (the frame of a snapshot the rules core accepted):
    whatever covers a square said to be empty becomes part of that square's empty look.

    Raises:
        VisionError: `placement` is not a valid placement, or `weight` is not in (0, 1].
        CalibrationError: the calibration has no two-pass models (made by an old version).
    """
    n = np()
    if not 0.0 < weight <= 1.0:
        raise VisionError(f"weight must be in (0, 1], not {weight!r}")
    if cal.rough is None or cal.levels is None:
        raise CalibrationError("this calibration cannot learn positions: recalibrate")
    empty = [s == "." for row in to_grid(placement) for s in row]
    board = geometry.warp(frame, cal.homography())
    _, mapped, _, (rough, _) = _light_mapped(board, cal)
    exact_f, rough_f = [], []
    for dx in AUGMENT:
        for dy in AUGMENT:
            o = n.clip(cal.origins() + n.array([dx, dy]), 0, geometry.SIZE - WINDOW)
            rough_f.append(square_features(rough, o))
            if mapped is not None:
                exact_f.append(square_features(mapped, o, REF))
    model = cal.model.with_empty_looks(exact_f, empty, weight) if exact_f else cal.model
    outline = cal.outline
    if outline is not None and mapped is not None:
        outline = learned_outline(
            outline, outline_scores(rough), empty, weight, centre_contrast(mapped)
        )
    return replace(
        cal,
        model=model,
        rough=cal.rough.with_empty_looks(rough_f, empty, weight),
        outline=outline,
        _cache={},
    )


def placement_of(post: Any) -> str:
    """The most probable state of each square, as a FEN placement with X and x."""
    idx = post.argmax(axis=1)
    return from_grid([[STATES[idx[r * 8 + c]] for c in range(8)] for r in range(8)])


SURE_PIECE = 0.95  #: a square is surely occupied when white and black together are this likely


@dataclass(frozen=True)
class Reading:
    """A frame's squares as far as they can be read.

    `placement` has X/x where a piece's colour is sure, `?` where a piece surely stands but
    its colour is doubtful (the contract's "piece of unknown colour"), and also `?` where
    not even whether a piece stands there is sure (those squares are in `unreadable`: a
    snapshot with them must not reach the rules, as `?` would assert a piece).
    """

    placement: str
    confidence: float  #: the least sure square's probability of its most likely state
    unsure_colour: tuple[str, ...]  #: squares shown as `?`: a piece, colour unknown
    unreadable: tuple[str, ...]  #: squares shown as `?`: not even occupancy is sure

    @property
    def complete(self) -> bool:
        """Whether every square's occupancy is known (a snapshot may then be emitted)."""
        return not self.unreadable


def reading(post: Any, min_confidence: float) -> Reading:
    """What the posteriors (64 x 3, grid order) allow to say, with `?` where they do not."""
    idx = post.argmax(axis=1)
    best = post.max(axis=1)
    grid: list[list[str]] = []
    unsure_colour: list[str] = []
    unreadable: list[str] = []
    for r in range(8):
        row = []
        for c in range(8):
            i = r * 8 + c
            if best[i] >= min_confidence:
                row.append(STATES[idx[i]])
                continue
            row.append("?")
            if post[i, 1] + post[i, 2] >= SURE_PIECE:
                unsure_colour.append(square_name(r, c))
            else:
                unreadable.append(square_name(r, c))
        grid.append(row)
    return Reading(from_grid(grid), float(best.min()), tuple(unsure_colour), tuple(unreadable))


def classify_board(
    board: Any,
    cal: Calibration,
    known: str | None = None,
    *,
    fill_hidden: bool = False,
    frame: Any = None,
) -> tuple[str, float, Any]:
    """Placement, confidence (the least sure square's probability) and the posteriors;
    `known`, `fill_hidden` and `frame` as for `posteriors`."""
    post = posteriors(board, cal, known, fill_hidden=fill_hidden, frame=frame)
    return placement_of(post), float(post.max(axis=1).min()), post


def classify(frame: Any, cal: Calibration) -> tuple[str, float]:
    """The placement a frame shows (X/x for white/black pieces) and its confidence in [0, 1].

    The confidence is the probability of the least certain square: one doubtful square makes
    the whole snapshot doubtful.
    """
    board = geometry.warp(frame, cal.homography())
    placement, conf, _ = classify_board(board, cal, frame=frame)
    return placement, conf
