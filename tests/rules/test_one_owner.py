"""One owner of the game's state (issue 11): outside `rules/state.py`, no module of the rules
core assigns, deletes or mutates anything of a `GameState`; it calls the state's named
operations (`GameState.wait_for_report`, `flag_fell`, `give_time`, ...).

The check walks the syntax tree of every module of `rules/` (its sub-packages too). A name
holds the game's state when it is
- a parameter annotated `GameState` or `Game` (or named `game`), or `self` in a class that
  derives from one of them; or a parameter annotated with the type of a part of the state
  handed on its own (`Turn`, `MoveRecord`, `GameClock`);
- or bound to a part of it: `turn = game.turn`, `last = game.records[-1] if ... else None`,
  `for record in reversed(game.records)` (a plain chain of attributes and subscripts, or a
  loop over an expression that reads one; a call's result such as `game.board.copy()` is a
  new object and binds nothing).

A write is then: an assignment, augmented assignment or `del` whose target is an attribute
or item reached from such a name (`game.held = ...`, `turn.touches[0] = ...`); a call of a
mutating method on a part of the state (`game.waiting_presses.append(...)`,
`game.board.push(...)`, `clock.pause(...)` where `clock = game.clock`); and
`setattr`/`delattr`/`vars` on it. Calls of the state's own methods (`game.sense(...)`) are
the named operations and are allowed. Nothing is allow-listed: the expected list of writes
outside state.py is empty.

What it cannot see: a write through an object a method returns (`record = game.stand(...)`
then `record.x = ...`), or through a name bound in another function and passed in under
another parameter name without such an annotation.
"""

from __future__ import annotations

import ast
from pathlib import Path

import chess

import rules
from rules.clock import GameClock

RULES = Path(rules.__file__).parent
OWNER = RULES / "state.py"
STATE_TYPES = {"GameState", "Game"}
#: the types of the parts of the state a function may be handed on their own
PART_TYPES = {"Turn", "MoveRecord", "GameClock"}

#: methods that change a list, dict or set in place
CONTAINER_MUTATORS = {
    "append", "extend", "insert", "remove", "pop", "clear", "add", "discard", "update",
    "setdefault", "popitem", "sort", "reverse", "difference_update", "intersection_update",
    "symmetric_difference_update", "__setitem__", "__delitem__",
}  # fmt: skip
#: methods that change a `chess.Board` (the live position)
BOARD_MUTATORS = {
    "push", "pop", "push_san", "push_uci", "push_xboard", "set_fen", "set_board_fen",
    "set_piece_map", "set_castling_fen", "set_chess960_pos", "set_epd", "clear", "clear_board",
    "clear_stack", "reset", "reset_board", "remove_piece_at", "set_piece_at",
    "apply_transform", "apply_mirror",
}  # fmt: skip
#: `GameClock`'s public methods, each classified (a test below keeps the list complete)
CLOCK_MUTATORS = {"press", "start", "stop", "pause", "resume", "add", "set", "uncount_move"}
CLOCK_QUERIES = {"running", "paused", "moves_completed", "remaining", "flag_at", "reading", "state"}
MUTATORS = CONTAINER_MUTATORS | BOARD_MUTATORS | CLOCK_MUTATORS


def _root(node: ast.expr) -> ast.expr:
    """The start of a chain of attributes and subscripts (`game` of `game.turn.touches[0]`)."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node


def _is_chain(node: ast.expr) -> bool:
    """A plain part of an object: attributes and subscripts, or a choice between them."""
    if isinstance(node, ast.IfExp):
        return _is_chain(node.body) or _is_chain(node.orelse)
    return isinstance(node, ast.Attribute | ast.Subscript)


def _annotated(annotation: ast.expr | None, types: set[str]) -> bool:
    """`annotation` names one of `types` (alone, quoted, or in a union with None)."""
    if annotation is None:
        return False
    text = ast.unparse(annotation).strip("\"'")
    return any(part.strip().strip("\"'") in types for part in text.split("|"))


class _Writes(ast.NodeVisitor):
    """Collects the writes to the game's state in one module (see the module's docstring)."""

    def __init__(self, name: str, owners: set[str]) -> None:
        self.name = name
        #: the names given to the `GameState` itself: its own methods are the named operations
        self.owners = owners
        self.found: list[str] = []
        self.state_classes: set[str] = set(STATE_TYPES)
        self.scopes: list[set[str]] = [set()]

    # scopes ------------------------------------------------------------------

    @property
    def held(self) -> set[str]:
        return self.scopes[-1]

    def _holds(self, node: ast.expr) -> bool:
        """`node` reads (a part of) the game's state."""
        if isinstance(node, ast.IfExp):
            return self._holds(node.body) or self._holds(node.orelse)
        root = _root(node)
        return isinstance(root, ast.Name) and root.id in self.held

    def _reads_state(self, node: ast.expr) -> bool:
        """Some chain inside `node` starts at the game's state (`reversed(game.records)`)."""
        return any(isinstance(sub, ast.Name) and sub.id in self.held for sub in ast.walk(node))

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        is_state = any(isinstance(b, ast.Name) and b.id in self.state_classes for b in node.bases)
        if is_state:
            self.state_classes.add(node.name)
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                self._function(item, is_state_class=is_state)
            else:
                self.visit(item)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, is_state_class=False)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node, is_state_class=False)

    def _function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, *, is_state_class: bool
    ) -> None:
        held = set(self.held)  # a closure sees its enclosing function's names
        args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        for i, arg in enumerate(args):
            if (
                arg.arg == "game"
                or _annotated(arg.annotation, STATE_TYPES | PART_TYPES)
                or (is_state_class and i == 0 and arg.arg == "self")
            ):
                held.add(arg.arg)
            else:
                held.discard(arg.arg)
        self.scopes.append(held)
        for item in node.body:
            self.visit(item)
        self.scopes.pop()

    # writes ------------------------------------------------------------------

    def _report(self, node: ast.AST, what: str) -> None:
        self.found.append(f"{self.name}:{getattr(node, 'lineno', 0)} {what}")

    def _target(self, target: ast.expr, node: ast.AST, verb: str) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._target(element, node, verb)
        elif isinstance(target, ast.Starred):
            self._target(target.value, node, verb)
        elif isinstance(target, ast.Attribute | ast.Subscript) and self._holds(target):
            self._report(node, f"{ast.unparse(target)} {verb}")

    def _bind(self, target: ast.expr, holds: bool) -> None:
        """A plain name bound to (a part of) the state holds it; bound to anything else, not."""
        if isinstance(target, ast.Name):
            if holds:
                self.held.add(target.id)
            else:
                self.held.discard(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                self._bind(element, holds)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, node, "=")
        for target in node.targets:
            if (
                isinstance(target, ast.Tuple)
                and isinstance(node.value, ast.Tuple)
                and len(target.elts) == len(node.value.elts)
            ):
                for name, value in zip(target.elts, node.value.elts, strict=True):
                    self._bind(name, _is_chain(value) and self._holds(value))
            else:
                self._bind(target, _is_chain(node.value) and self._holds(node.value))
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target, node, "=")
        if node.value is not None:
            self._bind(node.target, _is_chain(node.value) and self._holds(node.value))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, node, f"{type(node.op).__name__} =")
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._target(target, node, "deleted")
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self._bind(node.target, _is_chain(node.value) and self._holds(node.value))
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        self._bind(node.target, self._reads_state(node.iter))
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self._bind(node.target, self._reads_state(node.iter))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in MUTATORS
            and isinstance(func.value, ast.Attribute | ast.Subscript | ast.Name)
            and self._holds(func.value)
            and not (isinstance(func.value, ast.Name) and func.value.id in self.owners)
        ):
            self._report(node, f"{ast.unparse(func)}()")
        if (
            isinstance(func, ast.Name)
            and func.id in ("setattr", "delattr", "vars")
            and node.args
            and self._holds(node.args[0])
        ):
            self._report(node, f"{func.id}({ast.unparse(node.args[0])})")
        self.generic_visit(node)


def writes(path: Path, source: str | None = None) -> list[str]:
    """The writes to the game's state in the module at `path` (see the module's docstring)."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text)
    visitor = _Writes(path.name, _state_parameters(tree))
    visitor.visit(tree)
    return visitor.found


def _state_parameters(tree: ast.Module) -> set[str]:
    """The names a function of the module gives the `GameState` itself (not a part of it)."""
    names = {"game", "self"}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                if _annotated(arg.annotation, STATE_TYPES):
                    names.add(arg.arg)
    return names


def test_no_module_but_state_py_changes_the_game_state() -> None:
    found = []
    for path in sorted(RULES.rglob("*.py")):
        if path != OWNER:
            found += writes(path)
    assert found == [], "\n".join(found)


def test_every_public_method_of_the_clock_is_classified() -> None:
    public = {name for name in dir(GameClock) if not name.startswith("_")}
    assert public == CLOCK_MUTATORS | CLOCK_QUERIES, public ^ (CLOCK_MUTATORS | CLOCK_QUERIES)


def test_the_board_mutators_are_methods_of_python_chess() -> None:
    missing = {name for name in BOARD_MUTATORS if not hasattr(chess.Board, name)}
    assert missing <= {"set_epd"}, missing  # set_epd: newer python-chess only


def _writes_in(source: str) -> list[str]:
    return [w.split(" ", 1)[1] for w in writes(Path("bad.py"), source)]


def test_the_check_finds_each_kind_of_write() -> None:
    source = """
def f(game):
    game.held = True
    game.illegal_count["white"] += 1
    del game.pending[3]
    game.waiting_presses.append(("white", 1.0))
    game.board.push(move)
    game.clock.stop(2.0)
    game.turn.touches.append(3)
    vars(game).update({})
    setattr(game, "over", True)

def h(record: MoveRecord | None, clock: "GameClock"):
    record.pressed = True
    clock.press("white", 1.0)

def g(state: "GameState"):
    clock = state.clock
    clock.pause(1.0)
    last = state.records[-1] if state.records else None
    last.pressed = True
    for record in reversed(state.records):
        record.credit = 0.0
    turn, x = state.turn, 1
    turn.adjusting = True

class Game(GameState):
    def handle(self, ev):
        self.t = ev.t
        self.pending.clear()
"""
    assert _writes_in(source) == [
        "game.held =",
        "game.illegal_count['white'] Add =",
        "game.pending[3] deleted",
        "game.waiting_presses.append()",
        "game.board.push()",
        "game.clock.stop()",
        "game.turn.touches.append()",
        "vars(game)",
        "setattr(game)",
        "record.pressed =",
        "clock.press()",
        "clock.pause()",
        "last.pressed =",
        "record.credit =",
        "turn.adjusting =",
        "self.t =",
        "self.pending.clear()",
    ]


def test_the_check_allows_named_operations_reads_and_copies() -> None:
    source = """
def f(game: GameState, out):
    game.wait_for_report("white", 1.0)
    game.flag_fell("black")
    board = game.board.copy(stack=False)
    board.push(move)
    pending = dict(game.pending)
    pending.clear()
    out.append(game.fen())
    seen = [sq for sq in game.pending]
    seen.append(3)
    game = other
"""
    assert _writes_in(source) == []
