"""Teaching mode on virtual boards played by hand (issue 12 item 6, trial row 8).

`arbiter play --strict` on a board that identifies pieces (dgt-sim), one that sees only
occupancy (pegasus-sim: every piece put down is `?`) and one that reports the whole board on
every change (millennium-sim): the knight's move is refused (the queen was touched first),
the knight is put back, and the queen's move stands. No illegal move, no penalty.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.rulings import MoveStands
from tests.arbiter.live_harness import play_typed

LINES = ["e2e4", "e7e5", "lift d1", "place d1", "lift g1", "place f3", "lift f3", "place g1",
         "d1h5", "quit"]  # fmt: skip


@pytest.mark.parametrize("sim", ["dgt-sim", "pegasus-sim", "millennium-sim"])
def test_the_touched_queen_moves_after_the_refused_knight_is_put_back(
    tmp_path: Path, sim: str
) -> None:
    played = play_typed(tmp_path, ["--board", sim, "--tc", "90+30", "--strict"], LINES)
    moves = [r.uci for r in played.rulings if isinstance(r, MoveStands)]
    assert moves == ["e2e4", "e7e5", "d1h5"], played.screen
    kinds = [r.type for r in played.rulings]
    assert kinds.count("reinstate") == 1 and kinds.count("violation") == 1, played.screen
    assert "illegal" not in kinds and "penalty" not in kinds, played.screen
