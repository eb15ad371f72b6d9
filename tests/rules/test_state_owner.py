"""One owner of the game's state (issue 11): the claims and the hands change it only through
`GameState`'s named operations, and a claim's query never moves the live board."""

from __future__ import annotations

import ast
from pathlib import Path

import chess

import rules
from rules.events import Claim, Lift, Place, Press, Start
from rules.game import Game

RULES = Path(rules.__file__).parent
MUTATORS = {"append", "add", "remove", "discard", "clear", "pop", "update", "setdefault"}


def _rooted_at_game(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "game"


def _writes(path: Path) -> list[str]:
    """Assignments to the game's attributes, and mutating calls on its turn or offer."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Attribute | ast.Subscript) and _rooted_at_game(target):
                found.append(f"{path.name}:{target.lineno} {ast.unparse(target)} =")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and _rooted_at_game(node.func.value)
            and "turn" in ast.unparse(node.func.value)
        ):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node.func)}()")
    return found


def test_claims_and_hands_change_the_game_through_named_operations() -> None:
    for name in ("claims.py", "hands.py", "touch.py"):
        assert _writes(RULES / name) == [], name


def test_the_check_finds_a_direct_write(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(game):\n    game.offer = None\n    game.turn.touches.append(3)\n", encoding="utf-8"
    )
    assert len(_writes(bad)) == 2


def _game() -> Game:
    return Game(Start(t=0.0, time_control="300+0"))


def _move(game: Game, t: float, frm: str, to: str, side: str) -> None:
    game.handle(Lift(t=t, square=frm))
    game.handle(Place(t=t + 0.1, square=to))
    game.handle(Press(t=t + 0.5, side=side))  # type: ignore[arg-type]


def test_an_incorrect_claim_with_a_move_leaves_the_board_and_binds_the_move() -> None:
    game = _game()
    _move(game, 1.0, "e2", "e4", "white")
    stack = list(game.board.move_stack)
    fen = game.board.fen()
    out = game.handle(Claim(t=3.0, side="black", kind="threefold", move="e7e5"))
    assert [r.type for r in out] == ["claim", "penalty", "draw_offer", "obligation", "clock"]
    assert game.board.move_stack == stack and game.board.fen() == fen
    assert game.offer == "black"
    assert game.turn.forced is not None and game.turn.forced.move == chess.Move.from_uci("e7e5")
    # the declared move binds: another move breaks Article 4 (9.5.3)
    game.handle(Lift(t=4.0, square="d7"))
    out = game.handle(Place(t=4.1, square="d5"))
    out += game.handle(Press(t=4.5, side="black"))
    assert any(r.type == "violation" for r in out)


def test_an_upheld_touch_move_claim_restores_the_touches_through_the_state() -> None:
    game = _game()
    game.handle(Lift(t=1.0, square="g1"))  # touches the knight, then moves a pawn
    game.handle(Place(t=1.5, square="g1"))
    _move(game, 2.0, "e2", "e4", "white")
    assert game.records[-1].violation is not None
    out = game.handle(Claim(t=3.0, side="black", kind="touch_move"))
    assert [r.type for r in out][:2] == ["claim", "reinstate"]
    assert game.turn.side == "white" and game.turn.touched_any
    assert game.turn.obligation is not None and game.turn.obligation.square == chess.G1
