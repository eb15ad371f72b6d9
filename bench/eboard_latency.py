"""Benchmark: an e-board move through `arbiter play`, from the board's last byte to the ruling.

A virtual DGT board (`firmware_bridge.virtual`) behind a pty is read by a real `arbiter play
--board dgt:PTY --set auto_press=true --display plain` subprocess. This script moves the
pieces of real games itself (lift, then place, `HAND_S` apart) and, for every ply, measures
from the moment the board wrote the field update of the move's last placement (`last_write`,
just before `os.write` of its 5 bytes) to

* **journal**: that placement's `place` event written to the journal (each event is fsynced
  before the rules see it): the transport, codec and session's journaling;
* **ruling**: the `move` line on the program's display (plain lines, flushed per write): the
  whole path, the rules included. The journal holds events, not rulings; with `slide_s` > 0
  the move is decided by the `tick` journaled `slide_s` after the placement.

Run with the board's own settings (DGT: `slide_s` 0.3, so the ruling comes `slide_s` after
the placement, 4.7) and with `--set slide_s=0` (released at once). The figures "net" are the
ruling latency less `slide_s`: what the program adds.

    .venv/bin/python bench/eboard_latency.py [--games 3] [--plies 60] [--slide 0.3 0]
"""

from __future__ import annotations

import argparse
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import chess
import chess.pgn

from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.events import Place

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT.parent / "shared" / "data" / "games" / "real-games.pgn"
#: real seconds between a lift and the next piece event of the same move
HAND_S = 0.05
#: real seconds after a ruling before the next move begins (beyond every board's noise_s)
PAUSE_S = 0.35
#: real seconds a ply may take to be ruled before the run is called off
TIMEOUT_S = 5.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def long_games(count: int, plies: int) -> list[list[chess.Move]]:
    """The first `count` real games with at least `plies` plies, cut to `plies`."""
    out: list[list[chess.Move]] = []
    with GAMES.open(encoding="utf-8") as handle:
        while len(out) < count and (game := chess.pgn.read_game(handle)) is not None:
            moves = list(game.mainline_moves())
            if len(moves) >= plies:
                out.append(moves[:plies])
    return out


def _lines(stream: object, out: queue.Queue[tuple[float, str]]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        out.put((time.monotonic(), line))


def _journal_lines(path: Path, out: queue.Queue[tuple[float, str]], stop: threading.Event) -> None:
    """Tail the journal: every new line, stamped when it was seen (polled every 0.5 ms)."""
    seen = 0
    buffer = ""
    while not stop.is_set():
        try:
            with path.open(encoding="utf-8") as handle:
                handle.seek(seen)
                chunk = handle.read()
        except FileNotFoundError:
            chunk = ""
        if chunk:
            now = time.monotonic()
            seen += len(chunk.encode("utf-8"))
            buffer += chunk
            *done, buffer = buffer.split("\n")
            for line in done:
                out.put((now, line))
        else:
            time.sleep(0.0005)


def _wait(lines: queue.Queue[tuple[float, str]], want: str, deadline: float) -> float:
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no line with {want!r} within {TIMEOUT_S} s")
        try:
            at, line = lines.get(timeout=left)
        except queue.Empty:
            continue
        if want in line:
            return at


def run_game(moves: list[chess.Move], slide: float) -> tuple[list[float], list[float]]:
    """Play `moves` on a virtual DGT board read by `arbiter play`; per ply, the seconds from
    the last placement's bytes to its journal line and to its move ruling."""
    to_journal: list[float] = []
    to_ruling: list[float] = []
    with tempfile.TemporaryDirectory(prefix="eboard-latency-") as tmp:
        journal = Path(tmp) / "game.jsonl"
        board = VirtualBoard("dgt")
        args = [
            sys.executable, "-m", "arbiter.cli", "play", "--board", f"dgt:{board.path}",
            "--journal", str(journal), "--no-keyboard", "--display", "plain",
            "--set", "auto_press=true", "--set", f"slide_s={slide}",
        ]  # fmt: skip
        process = subprocess.Popen(
            args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1,
        )  # fmt: skip
        rulings: queue.Queue[tuple[float, str]] = queue.Queue()
        written: queue.Queue[tuple[float, str]] = queue.Queue()
        stop = threading.Event()
        threading.Thread(target=_lines, args=(process.stdout, rulings), daemon=True).start()
        threading.Thread(target=_journal_lines, args=(journal, written, stop), daemon=True).start()
        try:
            board.start()
            _wait(written, '"snapshot"', time.monotonic() + 10)  # the start-up's board dump
            time.sleep(PAUSE_S)
            position = chess.Board()
            for move in moves:
                san = position.san(move)
                events = moves_to_events([move], board=position, first_t=0.0)
                for event in events:
                    board.act(event)
                    if event is not events[-1]:
                        time.sleep(HAND_S)
                assert board.last_write is not None and isinstance(events[-1], Place)
                sent = board.last_write[0]
                placed = f'"type": "place", "square": "{events[-1].square}"'
                deadline = time.monotonic() + TIMEOUT_S
                to_journal.append(_wait(written, placed, deadline) - sent)
                to_ruling.append(_wait(rulings, f"played {san}", deadline) - sent)
                position.push(move)
                time.sleep(PAUSE_S)
        finally:
            stop.set()
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
            board.close()
    return to_journal, to_ruling


def report(label: str, seconds: list[float], less: float = 0.0) -> str:
    ms = [1000 * (s - less) for s in seconds]
    return (
        f"{label}: median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 99):.1f} ms,"
        f" max {max(ms):.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="real games played (default 3)")
    parser.add_argument("--plies", type=int, default=60, help="plies of each (default 60)")
    parser.add_argument(
        "--slide", type=float, nargs="+", default=[0.3, 0.0],
        help="slide_s values to run (default: 0.3, the DGT board's own, and 0)",
    )  # fmt: skip
    args = parser.parse_args()
    games = long_games(args.games, args.plies)
    for slide in args.slide:
        journal: list[float] = []
        ruling: list[float] = []
        began = time.monotonic()
        for moves in games:
            j, r = run_game(moves, slide)
            journal += j
            ruling += r
        print(
            f"slide_s {slide:g} ({len(ruling)} plies of {len(games)} games,"
            f" {time.monotonic() - began:.0f} s):"
        )
        print("  " + report("placement -> journal line", journal))
        print("  " + report("placement -> move ruling", ruling))
        if slide:
            print("  " + report(f"placement -> move ruling, less slide_s {slide:g}", ruling, slide))
    return 0


if __name__ == "__main__":
    sys.exit(main())
