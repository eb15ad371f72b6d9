"""Every codec fed 4 MB of garbage in one `feed`: time and the bytes it holds afterwards.

Garbage must never cost more than a pass over it (issue 17, D11/D12): a board left talking
nonsense for minutes, or a wrong baud rate, must not stall the session or fill memory. Each
codec of the protocol registry gets several 4 MB patterns, each in one feed; the script
prints seconds, the codec's `pending` bytes afterwards, and a ratio against a baseline
measured in the same run (`bytes.translate` over the same 4 MB: one plain pass in C).
Target: under 1 s per pattern and a bounded `pending`. Run: `python bench/codec_garbage.py`.
"""

from __future__ import annotations

import random
import resource
import sys
import time

from firmware_bridge.registry import PROTOCOLS, codec_for

SIZE = 4 * 1024 * 1024


def patterns() -> dict[str, bytes]:
    rng = random.Random(17)
    return {
        "random": rng.randbytes(SIZE),
        "0x80": b"\x80" * SIZE,
        "colons": b":" * SIZE,
        "':1 '": (b":1 " * (SIZE // 3 + 1))[:SIZE],
        "dgt headers": (b"\x86\x00\x43" * (SIZE // 3 + 1))[:SIZE],
        "millennium s": (b"s" * SIZE),
        "chessnut 01": (b"\x01\x3d" * (SIZE // 2))[:SIZE],
        "zeros": bytes(SIZE),
    }


def main() -> int:
    data = patterns()
    t0 = time.perf_counter()
    for blob in data.values():
        blob.translate(bytes(256))
    baseline = (time.perf_counter() - t0) / len(data)
    print(f"baseline (bytes.translate over 4 MB): {baseline * 1000:.1f} ms")
    worst = 0.0
    print(f"{'codec':12s} {'pattern':14s} {'seconds':>8s} {'ratio':>7s} {'pending':>8s}")
    for name in PROTOCOLS:
        for label, blob in data.items():
            codec = codec_for(name)
            codec.encode_startup()
            t0 = time.perf_counter()
            codec.feed(blob, 1.0)
            took = time.perf_counter() - t0
            pending = codec.pending
            worst = max(worst, took)
            print(f"{name:12s} {label:14s} {took:8.3f} {took / baseline:7.0f} {pending:8d}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"worst: {worst:.3f} s; peak RSS of the whole run {peak_mb:.0f} MB (inputs included)")
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
