"""Frozen values made quickly: a faster `__init__` for frozen, slotted dataclasses.

A frozen dataclass's own `__init__` sets each field through `object.__setattr__` (the class's
`__setattr__` refuses every assignment), a lookup and a generic call per field. The rules core
makes a ruling or two per event (`move`, `obligation`, `clock`), so that cost shows in its
profile (issue 11). `quick_init` gives such a class an `__init__` with the same parameters
that stores each field once through its slot's own descriptor, captured when the class is
made: about half the cost, measured on `MoveStands`. The class is otherwise the dataclass it
was: still frozen (assignment raises `FrozenInstanceError`), hashable, compared, printed and
`dataclasses.replace`-able as before; its fields and their defaults are the dataclass's.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["quick_init"]

_T = TypeVar("_T")


def quick_init(cls: type[_T]) -> type[_T]:
    """Give the frozen, slotted dataclass `cls` a faster `__init__` of the same signature.

    Only plain fields are supported (no `default_factory`, `init=False` or `__post_init__`):
    anything else raises `TypeError` when the class is made, never later.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init needs a slotted dataclass")
    params = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init does not call __post_init__")
    env: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in params:
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes plain fields only")
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        param = f.name
        if f.default is not dataclasses.MISSING:
            env[f"_default_{f.name}"] = f.default
            param += f"=_default_{f.name}"
        (keyword if f.kw_only else positional).append(param)
        body.append(f"    _set_{f.name}(self, {f.name})")
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__({signature}) -> None:\n" + "\n".join(body or ["    pass"]) + "\n"
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)  # the source holds only the dataclass's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = f"Make a {cls.__name__}: each field set once (`rules.values.quick_init`)."
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
