"""No English left: every ruling of the 58 FIDE scenarios (tests/rules/test_scenarios.py)
and of the sensing and profile tests, said in each language, has no English word in it,
and its line (`arbiter replay`) no English ruling type."""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arbiter.i18n import TYPE_LABELS, type_label
from arbiter.outputs.render import ruling_line
from rules.game import Game
from rules.i18n import LANGUAGES
from rules.messages import (
    CLAIM_KINDS,
    DEFECTS,
    EN,
    NOTES,
    PUT_ON,
    REASONS,
    TAKE_OFF,
    Plural,
    format_ruling,
)
from rules.rulings import Ruling

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
MODULES = ("test_scenarios", "test_sensing", "test_profiles_and_clocks")
TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: words spelt alike in English and in a language, where they are that language's own
OWN_WORDS = {"pl": {"art"}, "sr": {"put"}, "bs": {"put"}}  # art. = artykuł; put = time


def _english_words() -> set[str]:
    texts: list[str] = []
    for entry in EN.values():
        texts.extend([entry.singular, entry.plural] if isinstance(entry, Plural) else [entry])
    for table in (REASONS, DEFECTS, CLAIM_KINDS, NOTES):
        texts.extend(table.values())
    texts += [PUT_ON, TAKE_OFF, "White", "Black", "white", "black"]
    words: set[str] = set()
    for text in texts:
        text = re.sub(r"\{[^}]*\}", " ", text)
        words.update(w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) >= 3)
    return words


ENGLISH = _english_words()


def _calls(fn: Any) -> Iterator[dict[str, Any]]:
    calls: list[dict[str, Any]] = [{}]
    for mark in getattr(fn, "pytestmark", []):
        if mark.name == "parametrize":
            names, values = mark.args[0], mark.args[1]
            names = [n.strip() for n in names.split(",")] if isinstance(names, str) else names
            calls = [
                {**c, **dict(zip(names, v if len(names) > 1 else (v,), strict=True))}
                for c in calls
                for v in values
            ]
    for call in calls:
        if "shared" in inspect.signature(fn).parameters:
            call["shared"] = SHARED
        yield call


def scenario_rulings() -> list[Ruling]:
    """Every ruling `Game` gives while the rules tests that drive it run."""
    sys.path.insert(0, str(ROOT / "tests" / "rules"))
    seen: list[Ruling] = []
    originals = {name: getattr(Game, name) for name in ("handle", "advance", "finish")}

    def recording(method: Any) -> Any:
        def wrapper(self: Game, *args: Any) -> Any:
            out = method(self, *args)
            seen.extend(out)
            return out

        return wrapper

    try:
        for name, method in originals.items():
            setattr(Game, name, recording(method))
        for module_name in MODULES:
            module = __import__(module_name)
            for name, fn in vars(module).items():
                if name.startswith("test_") and callable(fn):
                    for kwargs in _calls(fn):
                        fn(**kwargs)
    finally:
        for name, method in originals.items():
            setattr(Game, name, method)
        sys.path.remove(str(ROOT / "tests" / "rules"))
    return seen


def other_rulings() -> list[Ruling]:
    """Rulings the scenarios do not give: arbiter actions, an inferred move, every piece a
    mismatch may name, every reason, defect and claim kind."""
    import chess

    from rules.rulings import (
        ArbiterDid,
        ClaimRuling,
        GameOver,
        Illegal,
        Mismatch,
        MoveStands,
        Note,
        Penalty,
        PieceOn,
        Reinstate,
        Violation,
    )
    from rules.winnability.explain import CannotMate, say

    fen = chess.Board().fen()
    pieces = tuple(PieceOn(i, p) for i, p in enumerate("KQRBNPkqrbnpXx?"))
    out: list[Ruling] = [
        MoveStands(t=1, side="white", ply=1, move=chess.Move.from_uci("g1f3"), san="Nf3",
                   fen=fen, made_at=1, inferred=True),
        Violation(t=1, side="white", article="4.4.2", kind="castling_rook_first", square=7),
        Penalty(t=1, side="black", article="12.9.3", kind="time_deducted", seconds=30.0),
        Penalty(t=1, side="black", article="12.9.2", kind="time_added", seconds=1.0),
        Reinstate(t=1, article="7.4", fen=fen, ply=0, reason="arbiter"),
        Note(t=1, article="5.2.3", topic="draw_before_both_moved"),
        Mismatch(t=1, article="7.4", missing=pieces, extra=()),
        Mismatch(t=1, article="7.4", missing=(), extra=pieces),
        ArbiterDid(t=1, side="black", article="6.11.3", action="add_time", seconds=30.0),
        ArbiterDid(t=1, article="6.10.2", action="set_clock", white=250.0, black=240.0),
        ArbiterDid(t=1, side="white", article="9.5", action="uphold_claim"),
        ArbiterDid(t=1, side="black", article="9.5", action="reject_claim"),
        ArbiterDid(t=1, side="white", article="4.8", action="confirm_claim"),
        ArbiterDid(t=0, article="6.5", action="hold_start"),
        ArbiterDid(t=1, article="6.5", action="start_clocks"),
        Note(t=1, article="9.5", topic="no_claim_to_rule"),
    ]  # fmt: skip
    out += [GameOver(t=2, article="5", result="1/2-1/2", reason=r) for r in REASONS]  # type: ignore[arg-type]
    out.append(Note(t=2, side="white", article="6.9", topic="flag_undecided"))
    # the arbiter's own words for a declared result stand as typed (here a board number)
    out.append(GameOver(t=2, article=None, result="1-0", reason="arbiter_decision",
                        explanation="12"))  # fmt: skip
    reasons = (
        CannotMate(chess.BLACK, "only_king"),
        CannotMate(chess.WHITE, "material", pieces=("bishop", "knight")),
        CannotMate(chess.WHITE, "searched"),
        CannotMate(chess.BLACK, "checkmated"),
        CannotMate(chess.WHITE, "blocked", pawns=8, squares=12, can_check=True, bishops="dark"),
        CannotMate(chess.BLACK, "blocked", pawns=16, squares=20, bishops="light"),
    )
    out += [
        GameOver(t=2, article="6.9", result="1/2-1/2", reason="time_dead_position",
                 explanation=say(why), why=(why,))
        for why in reasons
    ]  # fmt: skip
    out += [
        Illegal(t=2, side="white", article="7.5.1", completed=True, defect=d, count=2)  # type: ignore[arg-type]
        for d in DEFECTS
    ]
    out += [
        ClaimRuling(t=2, side="black", article="9.5.3", kind=k, valid=False)  # type: ignore[arg-type]
        for k in CLAIM_KINDS
    ]
    return out


@pytest.fixture(scope="module")
def rulings(shared: Path) -> list[Ruling]:
    found = scenario_rulings()
    assert len(found) > 1000
    return found + other_rulings()


def test_every_kind_of_sentence_is_checked(rulings: list[Ruling]) -> None:
    from rules.messages import key_of

    keys = {key_of(r) for r in rulings}
    # `warning` and `violation.two_hands` have no ruling that says them (kept for old files)
    assert set(EN) - keys == {"warning", "violation.two_hands"}


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_left_in_a_translated_ruling(rulings: list[Ruling], language: str) -> None:
    allowed = OWN_WORDS.get(language, set())
    for r in rulings:
        text = format_ruling(r, language)
        assert text != format_ruling(r), f"{language}: not translated: {text!r}"
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
        english = (words & ENGLISH) - allowed
        assert not english, f"{language}: English {sorted(english)} left in {text!r}"
        if r.article and r.article in format_ruling(r):  # the article stays FIDE's number
            assert r.article in text, f"{language}: the article is missing from {text!r}"
        line = ruling_line(r, language)
        assert type_label(r.type, language) in line


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_ruling_type_has_its_label(language: str) -> None:
    for ruling_type in TYPE_LABELS:
        label = type_label(ruling_type, language)
        assert label != ruling_type, f"{language}: {ruling_type} has no label"
