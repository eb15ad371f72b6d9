"""`rules.values.quick_init`: the faster constructor keeps a frozen dataclass what it was."""

from __future__ import annotations

import dataclasses
import inspect

import chess
import pytest

from rules.rulings import RULING_CLASSES, ClockState, MoveStands, Obligation, PieceOn
from rules.touch import Duty
from rules.values import quick_init

E4 = chess.Move.from_uci("e2e4")


def test_rulings_use_the_quick_constructor() -> None:
    for cls in (*RULING_CLASSES.values(), PieceOn, Duty):
        init = vars(cls)["__init__"]
        assert init.__qualname__ == f"{cls.__qualname__}.__init__"
        assert "quick_init" in (init.__doc__ or ""), cls


def test_fields_defaults_and_values_are_the_dataclass_ones() -> None:
    ruling = MoveStands(t=1.5, side="white", ply=1, move=E4, san="e4", fen="f", made_at=1.25)
    assert {f.name: getattr(ruling, f.name) for f in dataclasses.fields(ruling)} == {
        "t": 1.5,
        "side": "white",
        "article": None,
        "ply": 1,
        "move": E4,
        "san": "e4",
        "fen": "f",
        "made_at": 1.25,
        "inferred": False,
    }
    params = inspect.signature(Obligation).parameters
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())
    assert params["square"].default is None and params["kind"].default is inspect.Parameter.empty
    duty = Duty("move_piece", "4.3.1", 12)
    assert (duty.kind, duty.article, duty.square, duty.allowed) == ("move_piece", "4.3.1", 12, None)


def test_still_frozen_hashable_and_comparable() -> None:
    a = ClockState(t=1.0, white=60.0, black=50.0, running="white", paused=False)
    b = ClockState(t=1.0, white=60.0, black=50.0, running="white", paused=False)
    assert a == b and hash(a) == hash(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.white = 0.0  # type: ignore[misc]
    assert dataclasses.replace(a, white=10.0).white == 10.0
    assert a.to_dict()["white"] == 60.0


def test_missing_or_unknown_arguments_raise_as_before() -> None:
    with pytest.raises(TypeError):
        MoveStands(t=1.0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ClockState(t=1.0, white=1, black=1, running=None, paused=False, extra=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Duty()  # type: ignore[call-arg]


def test_classes_it_cannot_build_are_refused_when_made() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class WithFactory:
        items: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class WithPostInit:
        x: int

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    for cls in (WithFactory, WithPostInit, NoSlots):
        with pytest.raises(TypeError):
            quick_init(cls)
