"""Decode throughput of `arbiter decode` on long noisy captures, per protocol (run by hand).

Real games (../shared/data/games/real-games.pgn) are played on each board model with every
kind of damage the protocol knows (`firmware_bridge.sim.noisy`, `combined`), and decoded
in-process by `arbiter.cli.decode.decode_stream`, both as a timestamped capture (JSON Lines,
one line a frame) and as a raw byte file (fed a byte at a time, each byte stamped at the wire
rate). The figure to compare is bytes decoded a second against the bytes a second the wire
can carry: DGT 9600 baud (960 B/s), Millennium, Certabo and Sentio 38400 baud (3840 B/s).
Chessnut is BLE or USB HID: it has no wire rate and no raw form.

    python bench/decode.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter.cli.decode import DecodeStats, decode_stream  # noqa: E402
from firmware_bridge.registry import codec_class  # noqa: E402
from firmware_bridge.sim.noisy import PROTOCOLS, WIRE_RATE, Wire, noisy_wire  # noqa: E402

PGN = ROOT.parent / "shared" / "data" / "games" / "real-games.pgn"


def games(count: int) -> list[list[chess.Move]]:
    out = []
    with PGN.open(encoding="utf-8") as handle:
        while len(out) < count:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            out.append(list(game.mainline_moves()))
    return out


def decode_once(wire: Wire, data: bytes) -> DecodeStats:
    cls = codec_class(wire.protocol)
    if wire.protocol == "certabo":
        codec = cls(calibration=wire.calibration)  # type: ignore[call-arg]
    elif wire.protocol == "sentio":
        codec = cls(orientation="rotated" if wire.rotated else "normal")  # type: ignore[call-arg]
    else:
        codec = cls()
    stats = DecodeStats()
    handle = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]
    for _ in decode_stream(codec, handle, "bench", stats):
        pass
    return stats


def best_time(wire: Wire, data: bytes, repeat: int) -> tuple[float, DecodeStats]:
    best = float("inf")
    stats = DecodeStats()
    for _ in range(repeat):
        began = time.perf_counter()
        stats = decode_once(wire, data)
        best = min(best, time.perf_counter() - began)
    return best, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per protocol")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best counts")
    args = parser.parse_args()
    sample = games(args.games)
    print(
        f"{len(sample)} games, {sum(map(len, sample))} plies, combined damage, best of"
        f" {args.repeat}"
    )
    print(
        f"{'protocol':<11}{'form':<9}{'bytes':>10}{'events':>8}{'dropped':>9}"
        f"{'seconds':>9}{'bytes/s':>11}{'x wire':>8}"
    )
    for protocol in PROTOCOLS:
        wires = [noisy_wire(protocol, moves, "combined", seed=i) for i, moves in enumerate(sample)]
        forms = [("capture", [w.capture_lines().encode() for w in wires])]
        if protocol in WIRE_RATE:
            forms.append(("raw", [w.raw() for w in wires]))
        for form, datas in forms:
            seconds = 0.0
            events = dropped = 0
            for wire, data in zip(wires, datas, strict=True):
                took, stats = best_time(wire, data, args.repeat)
                seconds += took
                events += stats.events
                dropped += stats.dropped_bytes
            board_bytes = sum(len(w.raw()) for w in wires)
            rate = board_bytes / seconds
            wire_rate = WIRE_RATE.get(protocol)
            times = f"{rate / wire_rate:8.0f}" if wire_rate else f"{'-':>8}"
            print(
                f"{protocol:<11}{form:<9}{board_bytes:>10}{events:>8}{dropped:>9}"
                f"{seconds:>9.3f}{rate:>11.0f}{times}"
            )


if __name__ == "__main__":
    main()
