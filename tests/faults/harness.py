"""The fault suite's tools: `arbiter` run as a user runs it, killed, restarted, starved of disk;
players moving pieces on a virtual board by hand, and an arbiter who puts the pieces back
when the program says the board differs from the game.

Everything goes through the real programs (`python -m arbiter.cli ...` subprocesses) and the
real board path (a `VirtualBoard` behind a pseudo-terminal, read by pyserial). The players
follow the game as the journal says it stands, never as the test wishes: after a restart or a
pulled cable they read the journal (the program's single source of truth, replayed with the
rules exactly as the program ruled it) and go on from its position. A wrong ruling therefore
shows up as a different record at the end, not as a test that papers over it.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from arbiter.live.session import rebuild
from arbiter.records.journal import read_journal
from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.errors import ArbiterError
from rules.events import Event, Lift, Place, Restart, Sensor, Snapshot
from rules.game import Game
from rules.rulings import Ruling

#: the checkout whose programs are run: this one, or another given by OTB_FAULTS_ROOT (to
#: show that the suite fails on an older version: `OTB_FAULTS_ROOT=../old pytest -m faults`)
ROOT = Path(os.environ.get("OTB_FAULTS_ROOT") or Path(__file__).resolve().parents[2])
ARBITER = [sys.executable, "-m", "arbiter.cli"]
#: real seconds between a hand's piece events, and from a move's last piece to the next move
#: (above every board's `slide_s`, with room for a loaded machine)
HAND_S = 0.1
GAP_S = 0.5
#: real seconds the program may take to do what the test waits for
WAIT_S = 30.0
#: the default `max_plies` of the contract (events.md)
MAX_PLIES = 2


def arbiter(
    args: Sequence[str],
    *,
    limit_bytes: int | None = None,
    stdin: int | None = subprocess.DEVNULL,
) -> subprocess.Popen[str]:
    """Start `arbiter ARGS` from the checkout; with `limit_bytes`, no file it writes may grow
    beyond that (RLIMIT_FSIZE: a full disk where no small file system can be mounted)."""

    def limit() -> None:
        assert limit_bytes is not None
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return subprocess.Popen(
        [*ARBITER, *args], cwd=ROOT, stdin=stdin, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=limit if limit_bytes else None,
    )  # fmt: skip


def finish(process: subprocess.Popen[str], timeout: float = WAIT_S) -> tuple[int, str, str]:
    """Wait for `process` to end by itself; its status, standard output and error."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise ProgramStuck(f"the program did not end in {timeout} s", out, err) from None
    return process.returncode, out, err


class ProgramStuck(AssertionError):
    """The program did not end when it should have; its whole output is kept for the report."""

    def __init__(self, what: str, out: str, err: str) -> None:
        super().__init__(f"{what}:\n{out[-3000:]}{err}")
        self.out = out
        self.err = err


def keep_evidence(folder: Path, story: str) -> Path:
    """Copy a failed run's folder (journal, PGN, records) with `story` (the test's account
    and the program's output) to a fresh folder under the system's temporary folder, which
    no later run reuses or cleans, and return where: a rare failure stays there to be read."""
    kept = Path(tempfile.mkdtemp(prefix=f"otb-fault-{folder.name}-"))
    shutil.copytree(folder, kept / folder.name, dirs_exist_ok=True)
    (kept / "story.txt").write_text(story, encoding="utf-8")
    return kept


def kill(process: subprocess.Popen[str]) -> None:
    """SIGKILL: no handler runs, nothing is flushed but what was already written."""
    process.kill()
    process.communicate()


def wait_for(what: str, ready: Callable[[], bool], process: subprocess.Popen[str] | None) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready():
        if process is not None and process.poll() is not None:
            out, err = process.communicate()
            raise AssertionError(f"the program ended while waiting for {what}:\n{out}{err}")
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


def journal_events(path: Path) -> list[Event]:
    """The journal's events (a torn last line left out, as the program reads it)."""
    try:
        events, _ = read_journal(path)
    except (ArbiterError, OSError):
        return []
    return events


def journal_game(path: Path) -> tuple[Game, list[Ruling], list[Event]]:
    """The game as the journal stands: its events ruled on again, as `arbiter resume` does."""
    events = journal_events(path)
    game, rulings = rebuild(events)
    return game, rulings, events


def tear_last_line(path: Path, rng: random.Random) -> int:
    """Cut the journal inside its last line, as a crash during the write leaves it; returns
    the bytes cut."""
    data = path.read_bytes()
    body = data.rstrip(b"\n")
    last = body.rfind(b"\n") + 1
    length = len(body) - last
    cut = rng.randint(1, max(1, length - 1))
    with path.open("r+b") as handle:
        handle.truncate(len(body) - cut)
    return cut


def pgn_moves(text: str) -> tuple[list[str], str]:
    """The moves (UCI) and the result of a PGN text."""
    import io

    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, (text, game and game.errors)
    return [m.uci() for m in game.mainline_moves()], game.headers["Result"]


@dataclass
class Fault:
    """One fault of a board run, before ply `ply` of the game.

    `kind`: `kill` (SIGKILL, then a restart), `cable` (the board's cable pulled, plugged back).
    `step`: how many piece events of that ply are made before it (0: between two moves).
    `fraction`: where in the wait after that step it strikes.
    `down_plies`: full plies the players make while it lasts (after finishing the move under
    way). `torn`: the journal's last line is cut, as a crash during its write leaves it.
    `restart`: `resume` (`arbiter resume JOURNAL`) or `play` (`arbiter play --journal`).
    """

    ply: int
    kind: str = "kill"
    step: int = 0
    fraction: float = 0.5
    down_plies: int = 0
    torn: bool = False
    restart: str = "resume"


@dataclass
class BoardRun:
    """What a board run left: the program's last output, the files, what happened."""

    status: int
    out: str
    err: str
    journal: Path
    pgn: Path
    log: list[str] = field(default_factory=list)
    mismatches: int = 0
    outcomes: list[tuple[int, bool]] = field(default_factory=list)


class Players:
    """Two players and an arbiter at a virtual board, read by `arbiter play`; see the module
    docstring. `faults` strike at their plies; the game is played to its end."""

    def __init__(
        self,
        protocol: str,
        moves: Sequence[chess.Move],
        folder: Path,
        faults: Sequence[Fault] = (),
        *,
        players: tuple[str, str] = ("White", "Black"),
        rng: random.Random | None = None,
    ) -> None:
        self.protocol = protocol
        self.moves = list(moves)
        self.folder = folder
        self.faults = {f.ply: f for f in faults}
        self.players = players
        self.rng = rng or random.Random(0)
        self.journal = folder / "game.jsonl"
        self.pgn = folder / "game.pgn"
        self.board = VirtualBoard(protocol)
        self.position = chess.Board()
        self.log: list[str] = []
        self.mismatches = 0
        #: per fault: (plies beyond the journal's position when it ended, pieces put back)
        self.outcomes: list[tuple[int, bool]] = []
        self.process: subprocess.Popen[str] | None = None

    # -- the programs ---------------------------------------------------------------------

    def board_args(self) -> list[str]:
        return ["--board", f"{self.protocol}:{self.board.path}", "--pgn", str(self.pgn),
                "--no-keyboard", "--display", "plain"]  # fmt: skip

    def start_play(self) -> None:
        args = ["play", "--journal", str(self.journal), *self.board_args(),
                "--set", "auto_press=true", "--tc", "600+5",
                "--white", self.players[0], "--black", self.players[1]]  # fmt: skip
        self.process = arbiter(args)
        wait_for("the journal's start", lambda: bool(journal_events(self.journal)), self.process)

    def restart(self, how: str) -> None:
        if how == "resume":
            args = ["resume", str(self.journal), "--pgn", str(self.pgn),
                    "--no-keyboard", "--display", "plain"]  # fmt: skip
        else:
            args = ["play", "--journal", str(self.journal), *self.board_args()]
        self.process = arbiter(args)

    # -- the hands ------------------------------------------------------------------------

    def steps(self, move: chess.Move) -> list[Event]:
        return moves_to_events([move], first_t=0.0, hand_s=HAND_S, board=self.position)

    def make(self, move: chess.Move, first: int = 0) -> None:
        """Make `move` on the board from its step `first`, in real time."""
        for event in self.steps(move)[first:]:
            self.board.act(event)
            time.sleep(HAND_S)
        self.position.push(move)
        time.sleep(GAP_S - HAND_S)

    def play(self) -> BoardRun:
        self.board.start()
        try:
            self.start_play()
            time.sleep(1.0)  # the program opens the port and reads the start-up report
            while self.position.ply() < len(self.moves):
                ply = self.position.ply()
                fault = self.faults.pop(ply, None)
                move = self.moves[ply]
                if fault is None:
                    self.make(move)
                    continue
                steps = self.steps(move)
                for event in steps[: fault.step]:
                    self.board.act(event)
                    time.sleep(HAND_S)
                time.sleep(fault.fraction * (HAND_S if fault.step else GAP_S))
                self.strike(fault, move, fault.step)
            assert self.process is not None
            status, out, err = finish(self.process)
        except AssertionError as exc:
            tail = "\n".join(e.to_json() for e in journal_events(self.journal)[-12:])
            story = "\n".join(self.log)
            output = ""
            if isinstance(exc, ProgramStuck):
                output = f"{exc.out}\n--- stderr ---\n{exc.err}"
            elif self.process is not None and self.process.poll() is None:
                self.process.kill()  # still running (waited for in vain): keep what it said
                out, err = self.process.communicate()
                output = f"{out}\n--- stderr ---\n{err}"
            kept = keep_evidence(self.folder, f"{self.protocol}: {exc}\n{story}\n{output}")
            message = f"{self.protocol}: {exc}\n{story}\njournal ends:\n{tail}\nkept in {kept}"
            raise AssertionError(message) from None
        finally:
            if self.process is not None and self.process.poll() is None:
                kill(self.process)
            self.board.close()
        return BoardRun(
            status, out, err, self.journal, self.pgn, self.log, self.mismatches, self.outcomes
        )

    # -- the faults -----------------------------------------------------------------------

    def strike(self, fault: Fault, move: chess.Move, done_steps: int) -> None:
        """`fault` strikes with `done_steps` of `move` made; the players go on meanwhile."""
        assert self.process is not None
        at = self.position.ply()
        history = journal_events(self.journal)
        restarts = sum(isinstance(e, Restart) for e in history)
        reconnects = sum(_reconnected(e) for e in history)
        if fault.kind == "kill":
            kill(self.process)
            if fault.torn:
                cut = tear_last_line(self.journal, self.rng)
                self.log.append(f"ply {move}: torn last line ({cut} bytes cut)")
        else:
            self.board.disconnect()
        ruled = journal_game(self.journal)[0].board.ply()
        if done_steps:
            self.make(move, first=done_steps)  # the move under way is finished
        for _ in range(fault.down_plies):
            if self.position.ply() < len(self.moves):
                self.make(self.moves[self.position.ply()])
        down = self.position.ply() - ruled
        self.log.append(
            f"{fault.kind} before ply {at} step {done_steps}: the journal "
            f"had {ruled} plies, {down} more made while down"
        )
        if fault.kind == "kill":
            self.restart(fault.restart)
            self.await_report(lambda e: isinstance(e, Restart), restarts)
        else:
            self.board.reconnect()
            self.await_report(_reconnected, reconnects)
        put_back = self.follow_the_journal()
        self.outcomes.append((down, put_back))

    def await_report(self, is_marker: Callable[[Event], bool], before: int) -> None:
        """Wait until the program journaled a marker more than the `before` it had (a
        `restart`, a `reconnected`) and the board's first full report after it."""

        def reported() -> bool:
            events = journal_events(self.journal)
            marks = [i for i, e in enumerate(events) if is_marker(e)]
            return len(marks) > before and any(
                isinstance(e, Snapshot) for e in events[marks[-1] :]
            )

        wait_for("the board's first report after the fault", reported, self.process)
        time.sleep(0.3)  # and ruled on it

    def follow_the_journal(self) -> bool:
        """Go on from the position the program holds; if the board differs (a `mismatch`),
        the arbiter first puts the pieces back as it says (all wrong pieces off, then the
        right ones on); returns whether it had to."""
        game, rulings, _ = journal_game(self.journal)
        want = game.board
        assert [m.uci() for m in want.move_stack] == [
            m.uci() for m in self.moves[: want.ply()]
        ], f"the program's record left the game: {want.move_stack}"
        have = chess.BaseBoard(self.board.placement())
        if have.board_fen() != want.board_fen():
            assert rulings and any(r.type == "mismatch" for r in rulings[-6:]), (
                f"the board differs from the game and no mismatch says so: {rulings[-6:]}"
            )
            self.mismatches += 1
            self.put_back(have, want)
            self.log.append(f"mismatch: pieces put back to ply {want.ply()}")
        self.position = want.copy()
        return have.board_fen() != want.board_fen()

    def put_back(self, have: chess.BaseBoard, want: chess.BaseBoard) -> None:
        differ = [sq for sq in chess.SQUARES if have.piece_at(sq) != want.piece_at(sq)]
        for sq in differ:
            piece = have.piece_at(sq)
            if piece is not None:
                self.board.act(Lift(t=0.0, square=chess.square_name(sq), piece=piece.symbol()))
                time.sleep(HAND_S)
        for sq in differ:
            piece = want.piece_at(sq)
            if piece is not None:
                self.board.act(Place(t=0.0, square=chess.square_name(sq), piece=piece.symbol()))
                time.sleep(HAND_S)
        time.sleep(GAP_S)
        wait_for(
            "the program to see the board put back",
            lambda: _sensed(journal_events(self.journal)).board_fen() == want.board_fen(),
            self.process,
        )


def _reconnected(event: Event) -> bool:
    return isinstance(event, Sensor) and event.status == "reconnected"


def _sensed(events: Sequence[Event]) -> chess.BaseBoard:
    """The board as the journal's reports show it."""
    board = chess.BaseBoard()
    for event in events:
        if isinstance(event, Snapshot):
            board = chess.BaseBoard(event.board)
        elif isinstance(event, Lift):
            board.remove_piece_at(chess.parse_square(event.square))
        elif isinstance(event, Place) and event.piece:
            piece = chess.Piece.from_symbol(event.piece)
            board.set_piece_at(chess.parse_square(event.square), piece)
    return board


def pgn_of(path: Path) -> str:
    done = subprocess.run(
        [*ARBITER, "pgn", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


def without_date(pgn: str) -> str:
    return "\n".join(line for line in pgn.splitlines() if not line.startswith("[Date "))
