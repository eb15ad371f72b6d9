"""A round's pairings in (TRF-16, as Swiss-Manager, Vega and JaVaFo write it, or a CSV), so
that each board's PGN gets the players, event, round and board tags; the round's results
out again (TRF-16 and CSV) for the pairing program.

TRF-16 (FIDE's Tournament Report File): a player is a `001` line, with the name in columns
15-47, the FIDE id in 58-68, points in 81-84, and one 10-column block a round from column
92: opponent's starting rank (4 columns), colour (`w`, `b`, `-`), result. TRF has no board
numbers: boards are ordered as FIDE's C.04.2 orders them, by the higher score of the two
players before the round, then the sum of their scores, then the better starting rank.

CSV: a header line, then one board a line: `board,white,black` and optionally
`white_fide_id,black_fide_id` (`;` or a tab may stand for the commas).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from arbiter.hall.errors import PairingsError
from arbiter.i18n import Localized, gettext
from rules.i18n import N_
from rules.library_reasons import reason_of

#: what a header named when it named nothing
NOTHING = N_("nothing")

NAME = slice(14, 47)
FIDE_ID = slice(57, 68)
POINTS = slice(80, 84)
FIRST_ROUND_COL = 91
BLOCK = 10
#: TRF result letters: what each counts for the player (forfeits and byes included)
SCORE = {
    "1": 1.0,
    "0": 0.0,
    "=": 0.5,
    "+": 1.0,
    "-": 0.0,
    "W": 1.0,
    "L": 0.0,
    "D": 0.5,
    "H": 0.5,
    "F": 1.0,
    "U": 1.0,
    "Z": 0.0,
    " ": 0.0,
}
#: the PGN result of a game -> the TRF letters for white and black
TRF_RESULT = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}


@dataclass(frozen=True)
class Pairing:
    """One board of a round."""

    board: int
    white: str
    black: str
    white_id: str = ""
    black_id: str = ""
    white_rank: int = 0  # starting rank in the TRF (0: from a CSV)
    black_rank: int = 0


@dataclass
class Round:
    """A round's pairings, with the tournament's name and the round's number."""

    number: int
    pairings: list[Pairing]
    event: str = ""
    source: Path | None = None
    trf_lines: list[str] | None = None
    #: the file's encoding, which the results written back keep (older programs: Latin-1)
    encoding: str = "utf-8"

    def by_board(self) -> dict[str, Pairing]:
        return {str(p.board): p for p in self.pairings}


def read_pairings(path: Path, round_number: int | None = None) -> Round:
    """The pairings of `path`: a CSV (by its `.csv` name) or a TRF-16 file (round
    `round_number`, else the last round that has pairings)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PairingsError.of(
            N_("pairings {path}: cannot be read ({reason})"), path=path, reason=reason_of(exc)
        ) from None
    try:
        text, encoding = raw.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = raw.decode("latin-1"), "latin-1"  # older pairing programs
    if path.suffix.lower() == ".csv":
        rnd = read_csv(text, path, round_number or 1)
    else:
        rnd = read_trf(text, path, round_number)
    rnd.encoding = encoding
    return rnd


def read_csv(text: str, path: Path, round_number: int) -> Round:
    """A CSV of pairings; `,`, `;` (a spreadsheet in a European locale) or a tab between
    fields, as the header line shows."""
    header = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=header.count)
    rows = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    fields = {f.strip().lower() for f in rows.fieldnames or []}
    needed = {"board", "white", "black"}
    if not needed <= fields:
        raise PairingsError.of(
            N_("pairings {path}: the header must name board, white and black (found {found})"),
            path=path,
            found=", ".join(sorted(fields)) or Localized(lambda lang: gettext(NOTHING, lang)),
        )
    pairings = []
    for line, row in enumerate(rows, start=2):
        row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        if not any(row.values()):
            continue
        try:
            board = int(row["board"])
        except ValueError:
            raise PairingsError.of(
                N_("pairings {path}: line {line}: board {board!r} is not a number"),
                path=path,
                line=line,
                board=row["board"],
            ) from None
        pairings.append(
            Pairing(
                board,
                row["white"],
                row["black"],
                row.get("white_fide_id", ""),
                row.get("black_fide_id", ""),
            )
        )
    boards = [p.board for p in pairings]
    if len(set(boards)) != len(boards):
        raise PairingsError.of(N_("pairings {path}: a board number is given twice"), path=path)
    return Round(round_number, pairings, source=path)


def _block(line: str, rnd: int) -> tuple[int, str, str] | None:
    start = FIRST_ROUND_COL + (rnd - 1) * BLOCK
    chunk = line[start : start + 8].ljust(8)
    if not chunk.strip():
        return None
    opp = chunk[0:4].strip()
    return (int(opp) if opp.isdigit() else 0), chunk[5], chunk[7]


def read_trf(text: str, path: Path, round_number: int | None) -> Round:
    lines = text.splitlines()
    players: dict[int, str] = {}
    event = ""
    for n, line in enumerate(lines, start=1):
        if line.startswith("012 "):
            event = line[4:].strip()
        if not line.startswith("001"):
            continue
        rank = line[4:8].strip()
        if not rank.isdigit():
            raise PairingsError.of(
                N_("pairings {path}: line {line}: no starting rank in columns 5-8"),
                path=path,
                line=n,
            )
        players[int(rank)] = line
    if not players:
        raise PairingsError.of(
            N_("pairings {path}: no player ('001' line): is it a TRF-16 file?"), path=path
        )
    if round_number is None:
        rounds = [r for r in range(1, 100) if any(_block(p, r) for p in players.values())]
        if not rounds:
            raise PairingsError.of(N_("pairings {path}: no round is paired"), path=path)
        round_number = rounds[-1]
    scores = {
        rank: sum(
            SCORE.get(b[2], 0.0)
            for r in range(1, round_number)
            if (b := _block(line, r)) is not None
        )
        for rank, line in players.items()
    }
    pairs: list[tuple[int, int]] = []
    for pos, line in players.items():
        block = _block(line, round_number)
        if block is None or block[1] != "w" or block[0] == 0:
            continue
        if block[0] not in players:
            raise PairingsError.of(
                N_(
                    "pairings {path}: player {player}'s opponent {opponent} in round {round}"
                    " is not in the file"
                ),
                path=path,
                player=pos,
                opponent=block[0],
                round=round_number,
            )
        pairs.append((pos, block[0]))
    if not pairs:
        raise PairingsError.of(
            N_("pairings {path}: round {round} has no pairings"), path=path, round=round_number
        )
    pairs.sort(
        key=lambda wb: (
            -max(scores[wb[0]], scores[wb[1]]),
            -(scores[wb[0]] + scores[wb[1]]),
            min(wb),
        )
    )
    pairings = [
        Pairing(
            board,
            players[w][NAME].strip(),
            players[b][NAME].strip(),
            players[w][FIDE_ID].strip(),
            players[b][FIDE_ID].strip(),
            w,
            b,
        )
        for board, (w, b) in enumerate(pairs, start=1)
    ]
    return Round(round_number, pairings, event, path, lines)


def results_csv(rnd: Round, results: dict[str, str]) -> str:
    """The round's results as CSV: `board,white,black,result` (`*`: not finished)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["board", "white", "black", "white_fide_id", "black_fide_id", "result"])
    for p in rnd.pairings:
        writer.writerow(
            [p.board, p.white, p.black, p.white_id, p.black_id, results.get(str(p.board), "*")]
        )
    return out.getvalue()


def results_trf(rnd: Round, results: dict[str, str]) -> str:
    """The TRF-16 file read, with the round's results written into its blocks and the
    points updated (a game not finished keeps its block as it was).

    Raises:
        PairingsError: the pairings did not come from a TRF file.
    """
    if rnd.trf_lines is None:
        raise PairingsError.of(N_("TRF results need TRF pairings (the pairings came from a CSV)"))
    letters: dict[int, str] = {}
    for p in rnd.pairings:
        pair = TRF_RESULT.get(results.get(str(p.board), ""))
        if pair is not None:
            letters[p.white_rank], letters[p.black_rank] = pair
    col = FIRST_ROUND_COL + (rnd.number - 1) * BLOCK + 7
    out = []
    for line in rnd.trf_lines:
        rank = line[4:8].strip() if line.startswith("001") else ""
        if rank.isdigit() and int(rank) in letters:
            line = line.ljust(col + 1)
            line = line[:col] + letters[int(rank)] + line[col + 1 :]
            points = sum(
                SCORE.get(b[2], 0.0) for r in range(1, 100) if (b := _block(line, r)) is not None
            )
            line = line[: POINTS.start] + f"{points:4.1f}" + line[POINTS.stop :]
        out.append(line.rstrip())
    return "\n".join(out) + "\n"
