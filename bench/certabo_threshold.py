"""Certabo calibration: plurality (ours) against picochess's "seen in more than half the
records" threshold, over simulated flickering reads.

Each square of the initial position is read `records` times; a read is weak (normalises to
empty) with probability `weak`, shows a stray tag (one of the other 31) with probability
`stray`, else the square's own tag. For each rule the script counts squares the calibration
refuses (the user must calibrate again) and squares it gets wrong (a silent error that
corrupts every later game). Run: `python bench/certabo_threshold.py`.
"""

from __future__ import annotations

import random
from collections import Counter

from firmware_bridge.codecs.certabo_calibration import EMPTY, majority, normalise, square_tag

Tag = tuple[int, int, int, int, int]
WEAK: Tag = (0, 0, 56, 0, 0)
RULES = ("plurality", "more than half", "half of strong")


def one_square(rng: random.Random, records: int, weak: float, stray: float) -> list[Tag]:
    own: Tag = (1, 2, 3, 4, 5)
    out: list[Tag] = []
    for _ in range(records):
        r = rng.random()
        if r < weak:
            out.append(WEAK)
        elif r < weak + stray:
            out.append((9, 9, 9, 9, rng.randrange(31)))
        else:
            out.append(own)
    return out


def rules(reads: list[Tag]) -> dict[str, str]:
    own: Tag = (1, 2, 3, 4, 5)
    seen = [normalise(r) for r in reads]
    plural = majority(seen)
    top, count = Counter(seen).most_common(1)[0]
    half = top if count * 2 > len(seen) else None
    strong = square_tag(reads)
    verdict = {}
    for name, pick in (("plurality", plural), ("more than half", half), ("half of strong", strong)):
        if pick is None or pick == EMPTY:
            verdict[name] = "refused"
        else:
            verdict[name] = "right" if pick == own else "WRONG"
    return verdict


def main() -> None:
    rng = random.Random(18)
    trials = 20_000
    print("records weak stray | rule            refused%  wrong%")
    for records in (7, 10):
        for weak, stray in ((0.1, 0.02), (0.3, 0.05), (0.45, 0.1), (0.3, 0.3)):
            tally: dict[str, Counter[str]] = {name: Counter() for name in RULES}
            for _ in range(trials):
                for name, v in rules(one_square(rng, records, weak, stray)).items():
                    tally[name][v] += 1
            for name, c in tally.items():
                print(
                    f"{records:7d} {weak:4.2f} {stray:5.2f} | {name:15s} "
                    f"{100 * c['refused'] / trials:8.2f} {100 * c['WRONG'] / trials:7.3f}"
                )


if __name__ == "__main__":
    main()
