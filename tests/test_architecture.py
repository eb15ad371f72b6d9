"""The packages' imports point one way (docs/architecture.md): `arbiter` -> `firmware_bridge`,
`vision` -> `rules`, and inside each package no circle, counting every import that runs (at
module level or inside a function), not those under `TYPE_CHECKING`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "firmware_bridge", "vision", "arbiter")
#: what each package may import of ours, besides itself
MAY_IMPORT = {
    "rules": set(),
    "firmware_bridge": {"rules"},
    "vision": {"rules"},
    "arbiter": {"rules", "firmware_bridge", "vision"},
}


def _modules(package: str) -> dict[str, Path]:
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(sub) for sub in ast.walk(node))
    return hidden


def _imported(name: str, path: Path, tree: ast.AST) -> list[str]:
    """The dotted names `tree` imports at run time (relative imports resolved): for `from X
    import Y`, `X.Y`, which is the module X.Y where there is one, else a name of X."""
    hidden = _type_checking_nodes(tree)
    names: list[str] = []
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join(package + ([base] if base else []))
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def _graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the whole tree it imports at run time."""
    modules: dict[str, Path] = {}
    for each in PACKAGES:
        modules.update(_modules(each))

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    graph: dict[str, set[str]] = {}
    for name, path in _modules(package).items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges = graph.setdefault(name, set())
        for dotted in _imported(name, path, tree):
            target = resolve(dotted)
            if target is not None and target != name:
                edges.add(target)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return circles


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle_inside_a_package(package: str) -> None:
    assert _circles(_graph(package)) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_point_down(package: str) -> None:
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in _graph(package).items()
        for target in targets
        if target.split(".")[0] not in MAY_IMPORT[package] | {package}
    )
    assert upward == []


def test_a_circle_is_found() -> None:
    """The check itself: a circle of three and a one-way chain."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
