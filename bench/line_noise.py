"""Journal growth under line noise (issue 17, D8): `arbiter play` on a virtual board while the
board's line carries 3 KB/s of garbage for 20 s.

A loose connector or a wrong baud rate can make a board's line talk nonsense for hours; each
garbled read must not become a fsynced journal line. The script starts a virtual board (DGT
by default), runs `arbiter play --board PROTOCOL:PTY` on it (from `--root`, default this
checkout, so an older checkout can be measured the same way), lets the game start, then
writes noise bytes into the board's side of the pseudo-terminal: bytes 0x00-0x7F for DGT
(never a message start) and printable bytes without the Millennium message letters for
Millennium, in 20 ms bursts (a continuous line is read in small pieces). It prints the
journal lines and bytes written during the noise, per second and as MB per hour, by kind.

Measured (2 loaded cores, 20 s): before D8 (main 8b06242) DGT 47.5 lines/s (487 dropped, 534
snapshot), 19.3 MB/h; Millennium 31.2 lines/s, 16.4 MB/h. After: both 1.0 line/s, 0.53 and
0.61 MB/h.

Run: `python bench/line_noise.py [--protocol dgt|millennium] [--seconds 20] [--root DIR]`.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware_bridge.virtual import VirtualBoard

RATE = 3000  # bytes per second
BURST_S = 0.02


def noise(rng: random.Random, protocol: str, size: int) -> bytes:
    if protocol == "dgt":
        return bytes(rng.randrange(0x00, 0x80) for _ in range(size))
    letters = set(b"sSvVlLxXwWrRiI")
    pool = [b for b in range(0x20, 0x7F) if b not in letters]
    return bytes(rng.choice(pool) for _ in range(size))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", default="dgt", choices=("dgt", "millennium"))
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    args = parser.parse_args()
    rng = random.Random(8)
    folder = Path(tempfile.mkdtemp(prefix="line-noise-"))
    journal = folder / "game.jsonl"
    board = VirtualBoard(args.protocol).start()
    process = subprocess.Popen(
        [sys.executable, "-m", "arbiter.cli", "play", "--board", f"{args.protocol}:{board.path}",
         "--journal", str(journal), "--no-keyboard", "--display", "plain"],
        cwd=args.root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        while not journal.exists() or journal.stat().st_size == 0:
            time.sleep(0.05)
        time.sleep(2.0)  # the start-up report read
        before_lines = journal.read_text(encoding="utf-8").count("\n")
        before_bytes = journal.stat().st_size
        began = time.monotonic()
        while time.monotonic() - began < args.seconds:
            board._write(noise(rng, args.protocol, int(RATE * BURST_S)))
            time.sleep(BURST_S)
        time.sleep(1.5)  # the last reports of the noise journaled
        elapsed = time.monotonic() - began
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
        board.close()
    lines = journal.read_text(encoding="utf-8").splitlines()[before_lines:]
    grown = journal.stat().st_size - before_bytes
    kinds = collections.Counter(
        json.loads(line).get("status") or json.loads(line)["type"] for line in lines
    )
    per_hour = grown / elapsed * 3600 / 1e6
    print(f"{args.protocol}, {RATE} B/s of noise for {args.seconds:.0f} s ({args.root}):")
    print(f"  {len(lines)} journal lines ({len(lines) / elapsed:.1f}/s), {grown} bytes, "
          f"{per_hour:.2f} MB per hour")  # fmt: skip
    print(f"  by kind: {dict(kinds)}")
    if err.strip():
        print(f"  stderr: {err.strip()[-500:]}")
    os.remove(journal)
    return 0


if __name__ == "__main__":
    sys.exit(main())
