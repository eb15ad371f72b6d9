"""Garbage never holds memory (issue 17, D12): whatever a codec is fed, it keeps back at most
one message's worth of bytes, and every byte it does not decode is reported as dropped.

Times are measured by `bench/codec_garbage.py` (4 MB in one feed, under 1 s per codec and
pattern), not here.
"""

from __future__ import annotations

import random

import pytest

from firmware_bridge.registry import PROTOCOLS, codec_for
from rules.events import Sensor

SIZE = 256 * 1024
#: the longest message a codec may hold back while it waits for the rest
LONGEST = {"dgt": 0x2000, "revelation": 0x2000, "millennium": 67, "chessnut": 76}
PATTERNS = {
    "random": random.Random(12).randbytes(SIZE),
    "0x80": b"\x80" * SIZE,
    "colons": b":" * SIZE,
    "colon-one": b":1 " * (SIZE // 3),
    "dgt headers": b"\x86\x00\x43" * (SIZE // 3),
    "letters s": b"s" * SIZE,
    "chessnut 01": b"\x01\x3d" * (SIZE // 2),
}


@pytest.mark.parametrize("protocol", list(PROTOCOLS))
@pytest.mark.parametrize("pattern", list(PATTERNS))
def test_garbage_in_one_feed_is_dropped_and_not_held(protocol: str, pattern: str) -> None:
    codec = codec_for(protocol)
    codec.encode_startup()
    blob = PATTERNS[pattern]
    events = codec.feed(blob, 1.0) + codec.flush(1.0)
    assert codec.pending <= LONGEST.get(protocol, 2048)
    dropped = sum(e.bytes or 0 for e in events if isinstance(e, Sensor))
    assert dropped <= len(blob)
    if pattern in ("0x80", "colons", "letters s", "chessnut 01"):
        # nothing in these can be a message: all of it but what is held is reported
        assert dropped + codec.pending == len(blob)
