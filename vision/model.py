"""The per-square model: what empty squares and white and black pieces look like here.

A small Gaussian classifier (diagonal covariance) per square colour (light, dark) and state
(empty, white, black), fitted on one picture of a known position. Why so simple: the arbiter
needs only three states per square and the legal moves do the rest; a model fitted on the
user's own board, pieces and light beats a generic one, and it costs microseconds per square.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from vision import messages as said
from vision.cvload import np
from vision.errors import CalibrationError
from vision.placement import STATES

#: dark squares are those with (row + col) odd (a8 = (0, 0) is light)
PARITY = [[(r + c) % 2 for c in range(8)] for r in range(8)]
VAR_FLOOR = 0.2  #: share of the pooled variance every class variance is floored at
MIN_VAR = 1e-5
MARK_PRIOR = 1e-4  #: weight of the "empty, printed" look within the empty state


@dataclass
class SquareModel:
    """Means and variances, indexed [parity][state] -> feature vector (lists, JSON-ready).

    `empty_means` (grid order, None where unknown) is each square's own empty look, where a
    picture of the square empty was seen: a square with a printed mark or a grain of its own
    is then compared with itself, not with the other squares of its colour. `mark_means` and
    `mark_variances` ([parity] -> features, or None) are the look of an empty square with
    a print on it (`vision.marks`), for squares whose own look is unknown.
    """

    means: list[list[list[float]]]
    variances: list[list[list[float]]]
    empty_means: list[list[float] | None] | None = None
    mark_means: list[list[float]] | None = None
    mark_variances: list[list[float]] | None = None
    _looks: Any = field(default=None, init=False, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "means": self.means,
            "variances": self.variances,
            "empty_means": self.empty_means,
            "mark_means": self.mark_means,
            "mark_variances": self.mark_variances,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SquareModel:
        try:
            return cls(
                means=d["means"],
                variances=d["variances"],
                empty_means=d.get("empty_means"),
                mark_means=d.get("mark_means"),
                mark_variances=d.get("mark_variances"),
            )
        except KeyError as exc:
            raise CalibrationError.of(said.MODEL_LACKS, field=exc) from None
        except TypeError:
            raise CalibrationError.of(said.MODEL_UNREADABLE) from None

    def arrays(self) -> tuple[Any, Any]:
        """(means, variances) as arrays of shape (2, 3, n_features)."""
        n = np()
        return n.asarray(self.means, dtype="float64"), n.asarray(self.variances, dtype="float64")

    def log_likelihood(self, feats: Any) -> Any:
        """(64, 3) log-likelihood of each state for each square's features (64 x F).

        Where a square's own empty look is known, "empty" is an equal mixture of the empty
        squares of its colour and that look (same variances): a square with a logo or an odd
        grain counts as empty when it looks like itself empty, and a square that looks like
        any empty square of its colour still does; the piece states are unchanged.

        Where it is not known (the square held a piece in every picture seen), "empty" also
        admits the printed look, with a small prior (`MARK_PRIOR`): a print is rare, so it
        wins only where it explains the square far better than any piece does, as a logo
        does; a piece that merely looks odd stays a piece.
        """
        n = np()
        mu, var = self.arrays()
        par = n.asarray(PARITY).reshape(64)
        m = mu[par]  # (64, 3, F)
        v = var[par]
        d = feats[:, None, :] - m
        ll = -0.5 * n.sum(d * d / v + n.log(v), axis=2)
        if self.mark_means is not None and self.mark_variances is not None:
            mm = n.asarray(self.mark_means, dtype="float64")[par]
            mv = n.asarray(self.mark_variances, dtype="float64")[par]
            dm = feats - mm
            ll_mark = -0.5 * n.sum(dm * dm / mv + n.log(mv), axis=1)
            unseen = n.asarray([own is None for own in self.empty_means or [None] * 64])
            mixed = n.logaddexp(ll[:, 0] + n.log(1 - MARK_PRIOR), ll_mark + n.log(MARK_PRIOR))
            ll[unseen, 0] = mixed[unseen]
        if self.empty_means is not None:
            known = [i for i, own in enumerate(self.empty_means) if own is not None]
            if known:
                own = n.asarray([self.empty_means[i] for i in known], dtype="float64")
                d0 = feats[known] - own
                v0 = v[known, 0]
                ll_own = -0.5 * n.sum(d0 * d0 / v0 + n.log(v0), axis=1)
                ll[known, 0] = n.logaddexp(ll[known, 0], ll_own) - n.log(2.0)
        return ll

    def looks(self) -> list[tuple[str, Any, Any]]:
        """Every look this model knows, as (name, means, variances), arrays (64, F) in grid
        order: "empty", "white" and "black" of each square's colour, "printed" where it
        applies (squares never seen empty), and "own", each square's own empty look (NaN
        where unknown). Built once per model."""
        if self._looks is not None:
            return self._looks  # type: ignore[no-any-return]
        n = np()
        mu, var = self.arrays()
        par = n.asarray(PARITY).reshape(64)
        names = ("empty", "white", "black")
        out = [(name, mu[par, k], var[par, k]) for k, name in enumerate(names)]
        own = self.empty_means or [None] * 64
        if self.mark_means is not None and self.mark_variances is not None:
            unseen = n.asarray([o is None for o in own])[:, None]
            mm = n.asarray(self.mark_means, dtype="float64")[par]
            mv = n.asarray(self.mark_variances, dtype="float64")[par]
            out.append(("printed", n.where(unseen, mm, n.nan), mv))
        if any(o is not None for o in own):
            nf = mu.shape[2]
            means = n.asarray([o if o is not None else [n.nan] * nf for o in own], dtype="float64")
            out.append(("own", means, var[par, 0]))
        self._looks = out
        return out

    def with_empty_looks(self, feats: list[Any], empty: list[bool], weight: float) -> SquareModel:
        """A copy that has also seen the squares `empty` (grid order) empty in a picture.

        `feats` are that picture's feature matrices (64 x F, e.g. the shifted windows); a
        square's look is their mean, blended into a look already known with `weight` (1:
        the new look replaces it). Why: a square that held a piece at calibration has no
        look of its own until the game empties it; a known position (the one the rules core
        confirmed) says which squares are empty.
        """
        n = np()
        new = n.mean(n.stack([n.asarray(f, dtype="float64") for f in feats]), axis=0)
        old = self.empty_means or [None] * 64
        own: list[list[float] | None] = []
        for i in range(64):
            if not empty[i]:
                own.append(old[i])
            elif old[i] is None:
                own.append(new[i].tolist())
            else:
                own.append(((1 - weight) * n.asarray(old[i]) + weight * new[i]).tolist())
        return replace(self, empty_means=own)


def _mark_look(
    marks: list[Any], states: list[str], pooled: Any
) -> tuple[list[list[float]] | None, list[list[float]] | None]:
    """(means, variances) per square colour of the empty squares of the printed pictures."""
    n = np()
    feats = n.concatenate([n.asarray(m, dtype="float64") for m in marks])
    empty = n.asarray([s == "." for s in states] * len(marks))
    par = n.asarray([PARITY[i // 8][i % 8] for i in range(64)] * len(marks))
    means, variances = [], []
    for p in range(2):
        sel = feats[empty & (par == p)]
        if len(sel) < 2:
            return None, None
        means.append(sel.mean(axis=0).tolist())
        variances.append(n.maximum(sel.var(axis=0), VAR_FLOOR * pooled).tolist())
    return means, variances


def fit(samples: list[tuple[Any, list[str]]], marks: list[Any] | None = None) -> SquareModel:
    """Fit the model on (feature matrix 64 x F, 64 states in grid order) pairs.

    A parity/state pair without examples (e.g. no white piece on a dark square in the
    calibration position) borrows the other parity's statistics for that state. A square that
    is empty in every sample also keeps its own mean look (`empty_means`); a square that holds
    a piece has none and is judged by its colour's empty squares only. `marks` are feature
    matrices of the same picture with prints painted on its empty squares (`vision.marks`):
    their empty squares give the "empty, printed" look of each square colour.

    Raises:
        CalibrationError: a state has no example at all (a position needs white pieces,
            black pieces and empty squares to learn from).
    """
    n = np()
    feats = n.concatenate([f for f, _ in samples]).astype("float64")
    states = [s for _, labels in samples for s in labels]
    par = n.asarray([PARITY[i // 8][i % 8] for _ in samples for i in range(64)])
    lab = n.asarray([STATES.index(s) for s in states])
    nf = feats.shape[1]
    pooled = feats.var(axis=0) + MIN_VAR
    means = n.zeros((2, 3, nf))
    variances = n.zeros((2, 3, nf))
    have = n.zeros((2, 3), dtype=bool)
    for p in range(2):
        for k in range(3):
            sel = feats[(par == p) & (lab == k)]
            if len(sel) >= 2:
                means[p, k] = sel.mean(axis=0)
                variances[p, k] = n.maximum(sel.var(axis=0), VAR_FLOOR * pooled)
                have[p, k] = True
    for k in range(3):
        if not have[:, k].any():
            raise CalibrationError.of(said.NOTHING_TO_LEARN[k])
        for p in range(2):
            if not have[p, k]:
                means[p, k] = means[1 - p, k]
                variances[p, k] = variances[1 - p, k]
    per_square = feats.reshape(len(samples), 64, nf)
    empty = lab.reshape(len(samples), 64) == STATES.index(".")
    own: list[list[float] | None] = [
        per_square[:, i].mean(axis=0).tolist() if empty[:, i].all() else None for i in range(64)
    ]
    mark_means, mark_variances = _mark_look(marks, samples[0][1], pooled) if marks else (None, None)
    return SquareModel(
        means=means.tolist(),
        variances=variances.tolist(),
        empty_means=own,
        mark_means=mark_means,
        mark_variances=mark_variances,
    )
