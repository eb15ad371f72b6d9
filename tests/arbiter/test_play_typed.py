"""`arbiter play --board SIM` with typed moves (issue 12, item 11), and the typed commands.

Every virtual board the demo knows is played by typed commands through its real codec and
serial path; the moves, captures, castling, en passant and a promotion come out in the PGN,
the same every run (fake clock).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import chess.pgn
import pytest

from arbiter.clock import FakeClock
from arbiter.demo import SIM_BOARDS
from arbiter.inputs.base import Typed
from arbiter.live.commands import (
    ClaimCmd,
    CommandError,
    DeclareCmd,
    HandMove,
    HandStep,
    PlayerCmd,
    PressCmd,
    SetClockCmd,
    TakebackCmd,
    parse_command,
)
from arbiter.live.session import Session
from arbiter.live.virtual_play import hand_steps
from arbiter.outputs.display import Display
from rules.events import Lift, Place, Press, Start
from rules.rulings import ArbiterDid, GameOver, MoveStands
from tests.arbiter.live_harness import play_typed

#: White castles, captures en passant and promotes (with a capture); Black resigns
GAME = [
    "e2e4", "g8f6", "e4e5", "d7d5", "e5d6", "e7e6", "g1f3", "f8e7", "f1c4", "e8g8",
    "e1g1", "a7a6", "d6c7", "d8d7", "c7b8q",
]  # fmt: skip
SAN = "1. e4 Nf6 2. e5 d5 3. exd6 e6 4. Nf3 Be7 5. Bc4 O-O 6. O-O a6 7. dxc7 Qd7 8. cxb8=Q"


@pytest.mark.parametrize("sim", SIM_BOARDS)
def test_a_game_typed_on_each_virtual_board_gives_its_pgn(tmp_path: Path, sim: str) -> None:
    played = play_typed(tmp_path, ["--board", sim, "--tc", "5+3"], [*GAME, "resign"])
    moves = [r.san for r in played.rulings if isinstance(r, MoveStands)]
    assert len(moves) == len(GAME), played.screen
    record = chess.pgn.read_game(io.StringIO(played.pgn))
    assert record is not None and not record.errors
    assert record.board().variation_san(record.mainline_moves()) == SAN
    assert record.headers["Result"] == "1-0"  # Black, having the move, resigned
    over = [r for r in played.rulings if isinstance(r, GameOver)]
    assert [(o.result, o.reason) for o in over] == [("1-0", "resignation")]
    assert "illegal" not in played.screen and "violation" not in played.screen


def test_a_typed_game_is_the_same_every_run(tmp_path: Path) -> None:
    first = play_typed(tmp_path, ["--board", "dgt-sim", "--tc", "3+2"], GAME[:6], name="a")
    second = play_typed(tmp_path, ["--board", "dgt-sim", "--tc", "3+2"], GAME[:6], name="b")
    assert first.pgn == second.pgn
    assert "[%clk" in first.pgn


def test_lift_and_place_make_the_touch_rules_and_a_typo_is_only_shown(tmp_path: Path) -> None:
    lines = ["e2e4", "lift g8", "place g8", "e7e5", "e4e5x", "quit"]
    played = play_typed(tmp_path, ["--board", "dgt-sim", "--tc", "5+3"], lines)
    kinds = [(r.type, getattr(r, "side", None)) for r in played.rulings]
    assert ("violation", "black") in kinds, played.screen
    assert "'e4e5x' is not a command" in played.screen
    assert not any(isinstance(r, GameOver) for r in played.rulings)


def test_hand_steps_of_castling_en_passant_and_promotion() -> None:
    steps = hand_steps("4k3/8/8/3pP3/8/8/8/4K2R", "e5d6")
    assert [(s.type, s.square) for s in steps] == [
        ("lift", "d5"), ("lift", "e5"), ("place", "d6"),
    ]  # fmt: skip
    castle = hand_steps("4k3/8/8/8/8/8/8/4K2R", "e1g1")
    assert [(s.type, s.square) for s in castle][-2:] == [("lift", "h1"), ("place", "f1")]
    promo = hand_steps("1n2k3/P7/8/8/8/8/8/4K3", "a7b8n")
    assert (promo[-1].square, promo[-1].piece) == ("b8", "N")
    with pytest.raises(CommandError, match="no piece on e3"):
        hand_steps("4k3/8/8/8/8/8/8/4K3", "e3e4")


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("e2e4", HandMove("e2e4")),
        ("  E7E8Q ", HandMove("e7e8q")),
        ("lift e2", HandStep("lift", "e2")),
        ("place e8 q", HandStep("place", "e8", "q")),
        ("", PressCmd()),
        ("press", PressCmd()),
        ("press black", PressCmd("black")),
        ("adjust", PlayerCmd("adjust", None)),
        ("j'adoube w", PlayerCmd("adjust", "white")),
        ("claim", ClaimCmd("any", None, None)),
        ("claim touch", ClaimCmd("touch_move", None, None)),
        ("claim threefold g1f3", ClaimCmd("threefold", "g1f3", None)),
        ("claim fifty black", ClaimCmd("fifty", None, "black")),
        ("resign w", PlayerCmd("resign", "white")),
        ("declare 1/2-1/2 dead position", DeclareCmd("1/2-1/2", "dead_position")),
        ("takeback 2", TakebackCmd(2)),
        ("setclock 5:00 1:30:00", SetClockCmd(300.0, 5400.0)),
    ],
)
def test_commands_are_read(text: str, command: object) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("lift", "lift needs a square"),
        ("lift z9", "not a square"),
        ("claim maybe", "not a claim kind"),
        ("claim touch e2e4", "names no move"),
        ("declare 2-0", "1-0, 0-1 or 1/2-1/2"),
        ("setclock 5:00", "White's and Black's"),
        ("setclock 5:00 9999:00", "more than 100 hours"),
        ("takeback x", "number of plies"),
        ("hello", "not a command"),
        ("press red", "at most a side"),
        ("adjust e2", "at most a side"),
    ],
)
def test_bad_commands_say_what_is_expected(text: str, says: str) -> None:
    with pytest.raises(CommandError, match=says):
        parse_command(text)


def test_the_arbiters_clock_actions_are_in_the_pgn_where_they_happened(tmp_path: Path) -> None:
    lines = ["e2e4", "pause", "resume", "add white 60", "e7e5", "setclock 4:00 3:30", "quit"]
    options = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "now"]
    played = play_typed(tmp_path, options, lines)
    flat = " ".join(played.pgn.split())
    assert "1. e4 { [%clk 0:05:02.1] The arbiter stopped the clocks (Art. 6.11.1)." in flat
    assert "The arbiter restarted the clocks (Art. 6.11.1)." in flat
    assert "The arbiter added 60 s to White's clock (Art. 6.11.3)." in flat
    assert re.search(
        r"1\.\.\. e5 \{ \[%clk [0-9:.]+\] The arbiter set the clocks: White 4:00,"
        r" Black 3:30 \(Art\. 6\.10\.2\)\.",
        flat,
    ), flat
    # each action is a ruling of its own (`arbiter_action`), on the screen as it happened
    actions = [r for r in played.rulings if isinstance(r, ArbiterDid)]
    assert [a.action for a in actions] == ["pause", "resume", "add_time", "set_clock"]
    assert "The arbiter added 60 s to White's clock (Art. 6.11.3)." in played.screen


def test_a_clock_started_by_blacks_press_is_said_once_in_the_pgn(tmp_path: Path) -> None:
    options = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "black-press"]
    played = play_typed(tmp_path, options, ["press", "e2e4", "quit"])
    assert "stopped the clocks" not in played.pgn
    assert played.pgn.count("The clocks were started (Art. 6.5).") == 1


@pytest.mark.parametrize(
    ("lines", "result", "reason"),
    [
        (["e2e4", "e7e5", "g1f3", "offer", "accept"], "1/2-1/2", "agreement"),
        (["e2e4", "e7e5", "offer", "decline", "resign"], "0-1", "resignation"),
        (["e2e4", "e7e5", "takeback", "declare 1-0"], "1-0", "arbiter_decision"),
    ],
)
def test_every_ending_typed_live(
    tmp_path: Path, lines: list[str], result: str, reason: str
) -> None:
    played = play_typed(tmp_path, ["--board", "dgt-sim", "--tc", "3+2"], lines)
    over = [r for r in played.rulings if isinstance(r, GameOver)]
    assert [(o.result, o.reason) for o in over] == [(result, reason)], played.screen
    assert played.pgn.rstrip().endswith(result)
    if "decline" in lines:
        assert "Black declines the draw offer (Art. 9.1.2.1)." in played.screen
    if "takeback" in lines:
        assert "The arbiter reinstated the position (Art. 7.1)." in played.pgn
        assert "1... e5" not in played.pgn


def test_a_press_the_rules_rule_late_is_not_said_to_have_nothing_to_rule() -> None:
    """Trial row 12 re-run (`arbiter play --board dgt-sim`, a knight put on b6, `press`): the
    board reports late (`latency_s`), so the rules hold the press and rule it a moment later,
    a completed illegal move (7.5.1). The screen must not first say the press had 'nothing to
    rule' (before: 'press recorded at 2.78: nothing to rule', then the illegal move at 3.08)."""
    start = Start(t=0.0, time_control="300+3", noise_s=0.3, slide_s=0.3, latency_s=0.3)
    session = Session.new(start, None, FakeClock(), sources=[])
    out = io.StringIO()
    session.display = Display(out, tty=False, title="test")
    session.display.attach(session.game)
    for event in (Lift(t=0.5, square="e2", piece="P"), Place(t=0.9, square="e4", piece="P"),
                  Press(t=1.3, side="white"), Lift(t=1.6, square="b8", piece="n"),
                  Place(t=2.0, square="b6", piece="n")):  # fmt: skip
        session.submit(event)
    session.advance(2.4)  # the knight has stood on b6: an illegal move, still correctable
    assert session.take(Typed(2.5, "press")) == []  # held: the board may still report
    session.advance(3.0)
    assert "completed an illegal move" in out.getvalue()
    assert "nothing to rule" not in out.getvalue()


def test_a_press_with_nothing_to_rule_is_still_said(tmp_path: Path) -> None:
    """A press in a game without a clock, after the move stood: no ruling, and the screen says
    the press was taken."""
    lines = ["lift e2", "place e4", "lift g8", "press", "quit"]
    played = play_typed(tmp_path, ["--board", "dgt-sim"], lines)
    assert "press recorded at" in played.screen and "nothing to rule" in played.screen


def test_jadoube_typed_before_adjusting_makes_no_duty_and_after_is_too_late(
    tmp_path: Path,
) -> None:
    """4.2.1: "j'adoube" said first, a piece lifted and put back on its square is adjusted (no
    duty, and White may play another piece); said after the touch, the duty stands."""
    lines = ["adjust", "lift g1", "place g1", "e2e4", "lift g8", "place g8", "adjust", "e7e5"]
    played = play_typed(tmp_path, ["--board", "dgt-sim", "--tc", "5+3"], [*lines, "quit"])
    kinds = [(r.type, getattr(r, "side", None)) for r in played.rulings]
    assert [r.san for r in played.rulings if isinstance(r, MoveStands)][:1] == ["e4"]
    assert ("obligation", "white") not in kinds, played.screen
    assert ("obligation", "black") in kinds, played.screen  # Black's knight, touched first
    assert ("violation", "black") in kinds, played.screen  # ...then e7e5 played instead
    assert '"type": "adjust"' in played.journal.read_text(encoding="utf-8")


def test_press_names_the_hand_on_the_button(tmp_path: Path) -> None:
    """`press black` is Black's own button, whatever runs: pressed while White's clock runs it
    changes nothing (a press by the player whose clock is stopped)."""
    lines = ["press black", "e2e4", "quit"]
    options = ["--board", "dgt-sim", "--tc", "5+3", "--clock-start", "now"]
    played = play_typed(tmp_path, options, lines)
    journal = played.journal.read_text(encoding="utf-8").splitlines()
    presses = [line for line in journal if '"type": "press"' in line]
    assert '"side": "black"' in presses[0], journal
    assert [r.san for r in played.rulings if isinstance(r, MoveStands)] == ["e4"], played.screen
