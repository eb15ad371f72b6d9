"""Certabo calibration: which RFID tag is which piece (`eboard-protocols.md` 3.2).

A Certabo board reports, per square, the 5-number identifier of the tag under the piece, never
the piece itself. A calibration maps identifiers to FEN letters. It is built from records of
the initial position (optionally with a spare queen of each colour on d6 and d3): per square
the identifier seen most often in at least 7 records, then the letters the squares of the
initial position carry. It is stored per board as JSON; the vendor's pickled `calibration.bin`
is never loaded (unpickling runs code).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from firmware_bridge.errors import CalibrationError
from rules.library_reasons import reason_of

Ident = tuple[int, int, int, int, int]
EMPTY: Ident = (0, 0, 0, 0, 0)
FORMAT = "otb-arbiter/certabo-calibration"

#: errors a user sees (`arbiter decode --calibration`, a Certabo board's `--board` option), as
#: templates of `ArbiterError.of`: the `arbiter` command says them in the user's language (its
#: catalogue marks the same English: arbiter/i18n.py DEVICE_ERRORS)
NOT_JSON = "a calibration file must be JSON ({reason})"
NOT_ONE = 'not a calibration file (no "format": "{format}")'
UNKNOWN_VERSION = "unknown calibration version {version!r}"
NO_PIECES = 'a calibration file needs a "pieces" object'
LETTER_NOT_TEXT = "{key!r}: the letter must be a string"
NO_FILE = "{path}: cannot read the calibration: no such file"
CANNOT_READ = "{path}: cannot read the calibration ({reason})"
IN_FILE = "{path}: {error}"
NOT_AN_IDENT = "{key!r} is not an identifier (five numbers from 0 to 255)"
EMPTY_READING = "{ident} is an empty-square reading"
NOT_A_LETTER = "{letter!r} is not a FEN piece letter"

MIN_RECORDS = 7
#: reads that must agree on a square's tag in a calibration (`square_tag`)
MIN_AGREEING = 3
PIECE_LETTERS = frozenset("PNBRQKpnbrqk")
#: index (a8 = 0 ... h1 = 63, normal frame) -> letter of the initial position (3.2 step 3)
INITIAL_LETTERS: dict[int, str] = {
    **{i: ch for i, ch in enumerate("rnbqkbnr")},
    **{8 + i: "p" for i in range(8)},
    **{48 + i: "P" for i in range(8)},
    **{56 + i: ch for i, ch in enumerate("RNBQKBNR")},
}
#: the optional spare queens picochess wants: d6 (19) black, d3 (43) white
SPARE_LETTERS: dict[int, str] = {19: "q", 43: "Q"}



def normalise(ident: Sequence[int]) -> Ident:
    """An identifier with three or more zeros is an empty square (the vendor's rule, 3.1)."""
    if len(ident) != 5:
        raise CalibrationError(f"an identifier has 5 numbers, not {len(ident)}")
    if sum(1 for n in ident if n == 0) >= 3:
        return EMPTY
    return (ident[0], ident[1], ident[2], ident[3], ident[4])


def majority(values: Sequence[Ident]) -> Ident:
    """The value seen most often; among equally frequent values, the most recent (last)."""
    counts = Counter(values)
    best = max(counts.values())
    for value in reversed(values):
        if counts[value] == best:
            return value
    raise CalibrationError("no values to take a majority of")


def square_tag(reads: Sequence[Sequence[int]]) -> Ident | None:
    """The identifier a square showed over `reads` (its raw 5-number groups), or None.

    A weak read (three or more zeros but not all: some byte of a tag came through) is no
    evidence either way and is set aside. Among the other reads, one identifier (or
    empty) must be seen in more than half of them and at least `MIN_AGREEING` times;
    otherwise the square read unsteadily and None says so.

    Why (figures from `bench/certabo_threshold.py`, 7 records, 20,000 squares per row):
    picochess's rule, a tag in more than half of *all* records, counts weak reads against
    the tag and refuses 20 % of squares at 30 % weak reads; plurality refuses 16 % there and
    picks a stray tag for 2.5 % of squares when 30 % of reads are strays (a silent error in
    every later game). This rule refuses 5.7 % at 30 % weak reads (0.6 % over 10 records)
    and picked a wrong tag for at most 0.025 % of squares, only when 30 % of reads were
    strays. The read rates are a model, not measured on a board.
    """
    strong = [normalise(r) for r in reads if not (normalise(r) == EMPTY and any(r))]
    if not strong:
        return None
    top, count = Counter(strong).most_common(1)[0]
    return top if count * 2 > len(strong) and count >= MIN_AGREEING else None


def ident_key(ident: Ident) -> str:
    """The JSON key of an identifier: its five numbers separated by spaces."""
    return " ".join(str(n) for n in ident)


def parse_ident_key(key: str) -> Ident:
    parts = key.split()
    if len(parts) != 5 or not all(p.isdigit() and int(p) <= 255 for p in parts):
        raise CalibrationError.of(NOT_AN_IDENT, key=key)
    return normalise([int(p) for p in parts])


@dataclass(frozen=True)
class CertaboCalibration:
    """Identifier -> FEN letter. Identifiers it does not know decode as '?' (3.2)."""

    pieces: Mapping[Ident, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", MappingProxyType(dict(self.pieces)))
        for ident, letter in self.pieces.items():
            if normalise(ident) != ident or ident == EMPTY:
                raise CalibrationError.of(EMPTY_READING, ident=ident_key(ident))
            if letter not in PIECE_LETTERS:
                raise CalibrationError.of(NOT_A_LETTER, letter=letter)

    def letter(self, ident: Ident) -> str:
        """The FEN letter of a normalised identifier: '.' for empty, '?' for an unknown tag."""
        if ident == EMPTY:
            return "."
        return self.pieces.get(ident, "?")

    @classmethod
    def from_records(
        cls,
        records: Iterable[Sequence[Sequence[int]]],
        *,
        rotated: bool = False,
        min_records: int = MIN_RECORDS,
    ) -> CertaboCalibration:
        """Build a calibration from records of the initial position (3.2 steps 2-3).

        `records` are the board's records, 64 identifiers each in its own order (a8 ... h1 of
        the normal frame); `rotated` says the board was seated the other way round while they
        were read (occupancy cannot tell, and tags say nothing about colour, so it must be
        given). Spare queens on d6 and d3 are taken when present.

        Raises:
            CalibrationError: fewer than `min_records` records, a square of the initial
                position that read empty, a piece where the initial position has none, or
                one tag read on two squares of different letters.
        """
        rows = [list(rec) for rec in records]
        if len(rows) < min_records:
            raise CalibrationError(
                f"a calibration needs at least {min_records} records, not {len(rows)}"
            )
        if any(len(r) != 64 for r in rows):
            raise CalibrationError("every record must hold 64 identifiers")
        seen: list[Ident] = []
        unsteady: list[int] = []
        for physical in range(64):
            tag = square_tag([r[physical] for r in rows])
            if tag is None:
                unsteady.append(63 - physical if rotated else physical)
                tag = EMPTY
            seen.append(tag)
        if unsteady:
            names = ", ".join(_name(i) for i in sorted(unsteady))
            raise CalibrationError(
                f"the tags on {names} read unsteadily (no tag in more than half the reads): "
                "check those pieces sit squarely and calibrate again"
            )
        if rotated:
            seen.reverse()
        wanted = {**INITIAL_LETTERS, **SPARE_LETTERS}
        missing = [_name(i) for i in INITIAL_LETTERS if seen[i] == EMPTY]
        stray = [_name(i) for i in range(64) if i not in wanted and seen[i] != EMPTY]
        if missing or stray:
            parts = []
            if missing:
                parts.append(f"no piece read on {', '.join(missing)}")
            if stray:
                parts.append(f"pieces outside the initial position on {', '.join(stray)}")
            raise CalibrationError("set up the initial position: " + "; ".join(parts))
        pieces: dict[Ident, str] = {}
        for index, letter in wanted.items():
            ident = seen[index]
            if ident == EMPTY:
                continue  # a spare queen that was not set up
            if pieces.get(ident, letter) != letter:
                raise CalibrationError(
                    f"tag {ident_key(ident)} read as both {pieces[ident]!r} and {letter!r}"
                )
            pieces[ident] = letter
        return cls(pieces=pieces)

    # ---- JSON ---------------------------------------------------------------------------

    def to_json(self) -> str:
        """The calibration as a JSON document (keys: identifiers as five numbers)."""
        body = {ident_key(i): letter for i, letter in sorted(self.pieces.items())}
        return json.dumps({"format": FORMAT, "version": 1, "pieces": body}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> CertaboCalibration:
        """Read a calibration written by `to_json`.

        Raises:
            CalibrationError: the text is not such a document.
        """
        try:
            doc = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise CalibrationError.of(NOT_JSON, reason=reason_of(exc)) from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise CalibrationError.of(NOT_ONE, format=FORMAT)
        if doc.get("version") != 1:
            raise CalibrationError.of(UNKNOWN_VERSION, version=doc.get("version"))
        body = doc.get("pieces")
        if not isinstance(body, dict):
            raise CalibrationError.of(NO_PIECES)
        pieces: dict[Ident, str] = {}
        for key, letter in body.items():
            if not isinstance(letter, str):
                raise CalibrationError.of(LETTER_NOT_TEXT, key=key)
            pieces[parse_ident_key(key)] = letter
        return cls(pieces=pieces)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the calibration to `path` as JSON, replacing the file in one step."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        os.replace(tmp, target)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CertaboCalibration:
        """Read a calibration saved by `save`.

        Raises:
            CalibrationError: the file cannot be read or is not a calibration (its path named).
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError.of(NO_FILE, path=path) from None
        except OSError as exc:
            raise CalibrationError.of(CANNOT_READ, path=path, reason=reason_of(exc)) from None
        except UnicodeDecodeError as exc:
            raise CalibrationError.of(CANNOT_READ, path=path, reason=reason_of(exc)) from None
        try:
            return cls.from_json(text)
        except CalibrationError as exc:
            raise CalibrationError.of(IN_FILE, path=path, error=exc) from None


def _name(index: int) -> str:
    return "abcdefgh"[index % 8] + str(8 - index // 8)


__all__ = [
    "EMPTY",
    "MIN_RECORDS",
    "CalibrationError",
    "CertaboCalibration",
    "Ident",
    "majority",
    "normalise",
    "square_tag",
]
