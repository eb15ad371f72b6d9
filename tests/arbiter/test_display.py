"""The terminal display: clock faces, the board, plain lines for logs, a screen on a TTY."""

from __future__ import annotations

import io

import chess
import pytest

from arbiter.i18n import keys_line
from arbiter.outputs.display import Display, board_lines, format_clock, moves_text, ruling_text
from rules.events import Lift, Place, Press, Start
from rules.game import Game
from rules.rulings import ClockState, MoveStands, Obligation, Penalty


@pytest.mark.parametrize(
    ("seconds", "face"),
    [
        (3725.0, "1:02:05"),
        (178.9, "2:58"),
        (10.0, "0:10"),
        (9.99, "0:09.9"),  # tenths under 10 s, never rounded up
        (0.05, "0:00.0"),
        (-1.0, "0:00.0"),
    ],
)
def test_clock_faces(seconds: float, face: str) -> None:
    assert format_clock(seconds) == face


def played_game() -> Game:
    game = Game(Start(t=0.0, time_control="180", white="Ann", black="Bob"))
    for event in (
        Lift(t=1.0, square="e2", piece="P"),
        Place(t=1.2, square="e4", piece="P"),
        Press(t=1.5, side="white"),
    ):
        game.handle(event)
    return game


def test_board_and_moves() -> None:
    game = played_game()
    lines = board_lines(game.board)
    assert lines[0] == " 8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"
    assert lines[4] == " 4 · · · · ♙ · · ·"
    assert lines[-1] == "   a b c d e f g h"
    assert moves_text(game) == "1. e4"


def test_plain_lines_one_a_ruling_with_the_article() -> None:
    out = io.StringIO()
    display = Display(out, tty=False, title="Ann v Bob")
    display.attach(played_game())
    display.show(
        [
            Obligation(t=2.0, side="black", article="4.3.1", kind="move_piece",
                       square=chess.G8),
            ClockState(t=2.5, white=178.5, black=9.25, running="black", paused=False),
        ],
        2.5,
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert lines[0] == "Ann v Bob"
    assert lines[1].endswith("Black touched the piece on g8 and must move it (Art. 4.3.1).")
    assert "White 2:58  Black 0:09.2  (black running)" in lines[2]
    display.refresh(3.0)  # plain mode never redraws
    assert len(out.getvalue().splitlines()) == 3


def test_a_ruling_line_cites_its_article_once() -> None:
    r = Penalty(t=1.0, side="white", article="A.4.2", kind="time_added", seconds=120)
    assert ruling_text(r).endswith("Black receives 120 seconds (Art. A.4.2).")


def test_the_screen_shows_clocks_whose_move_and_rulings_and_redraws_only_on_change() -> None:
    out = io.StringIO()
    display = Display(out, tty=True, title="Ann v Bob", footer="keys: space press")
    game = played_game()
    display.attach(game)
    e4 = chess.Move.from_uci("e2e4")
    played = MoveStands(t=1.5, side="white", ply=1, move=e4, san="e4", fen="", made_at=1.5)
    display.show([played], 1.5)
    screen = display.render(1.5)
    assert "Black to move" in screen
    assert "White      2:58" in screen and "Black      3:00 ◀   Bob" in screen
    assert "White played e4." in screen and "Moves: 1. e4" in screen
    assert "keys: space press" in screen
    display.refresh(1.6)  # Black's clock shows 2:59 now
    written = len(out.getvalue())
    display.refresh(1.9)  # the same second on both clocks: nothing to write
    assert len(out.getvalue()) == written
    display.refresh(2.6)
    assert len(out.getvalue()) > written
    assert "Black      2:58 ◀" in display.render(2.6)
    assert out.getvalue().startswith("\x1b[?25l\x1b[2J\x1b[H")
    display.close(2.6)
    assert out.getvalue().endswith("\x1b[?25h")


def test_a_long_game_keeps_its_incidents_on_screen_and_folds_the_routine() -> None:
    out = io.StringIO()
    display = Display(out, tty=True, title="Ann v Bob")
    game = played_game()
    display.attach(game)
    penalty = Penalty(t=1.0, side="white", article="7.5.5", kind="time_added", seconds=60)
    display.show([penalty], 1.0)
    for i in range(40):  # forty ordinary touches and moves after it
        touch = Obligation(t=2.0 + i, side="black", article="4.3.1", kind="move_piece",
                           square=chess.G8)  # fmt: skip
        display.show([touch], 2.0 + i)
    screen = display.render(50.0)
    assert "Black receives 60 seconds (Art. 7.5.5)." in screen
    assert screen.count("must move it") == 1  # the routine: one line, the latest
    assert "Last: Black touched the piece on g8" in screen


def test_a_narrow_or_ascii_terminal_gets_a_readable_screen() -> None:
    class Narrow(io.StringIO):
        encoding = "ascii"

    out = Narrow()
    display = Display(out, tty=True, title="Ann v Bob " * 10)
    display.attach(played_game())
    display._width = lambda: 40  # type: ignore[method-assign]
    display.refresh(1.0)
    written = out.getvalue()
    written.encode("ascii")  # nothing the terminal cannot show
    assert " 8 r n b q k b n r" in written and " 4 . . . . P . . ." in written
    screen = display.render(1.0)
    assert max(len(line) for line in screen.split("\n")) <= 40
    assert "White to move" in screen or "Black to move" in screen


def test_a_short_terminal_keeps_the_title_and_the_board_and_drops_the_oldest_incidents() -> None:
    """Trial row 26 re-run: a 50x24 terminal, four incidents (a touch-move breach, pause,
    restart, +60 s). The screen was 28 lines: each redraw scrolled the title and ranks 8 to 5
    away. Now it fits in 23 lines (the last line's newline must not scroll), the oldest
    incidents going first."""
    out = io.StringIO()
    display = Display(out, tty=True, title="Alice Anders v Bob Brown   5400+30   fide-2023")
    display.attach(played_game())
    display._width = lambda: 50  # type: ignore[method-assign]
    display._height = lambda: 24  # type: ignore[method-assign]
    display.footer = "keys: space press  p pause  c claim  t touch-move"
    for i in range(6):
        penalty = Penalty(t=2.0 + i, side="white", article="7.5.5", kind="time_added",
                          seconds=60 + i)  # fmt: skip
        display.show([penalty], 2.0 + i)
    lines = display.render(8.0).split("\n")
    assert len(lines) <= 23
    assert lines[0].startswith("Alice Anders v Bob Brown")
    assert any(line.startswith(" 8 ") for line in lines) and "White   " in "\n".join(lines)
    screen = "\n".join(lines)
    assert "65 seconds" in screen  # the newest incident stays
    assert "60 seconds" not in screen  # the oldest went
    assert lines[-1] == display.footer
    display._height = lambda: None  # type: ignore[method-assign]
    assert "60 seconds" in display.render(8.0)  # a height not known: nothing is cut


def test_the_keys_line_is_wrapped_not_cut() -> None:
    """Trial row 26 re-run: at 80 columns the keys line ended 'o/a/d offer/accept/de': the
    keys for +60 s, a typed command and stop were never seen."""
    out = io.StringIO()
    display = Display(out, tty=True, title="Ann v Bob", footer=keys_line("en"))
    display.attach(played_game())
    display._width = lambda: 78  # type: ignore[method-assign]
    display._height = lambda: 40  # type: ignore[method-assign]
    screen = display.render(2.0)
    assert max(len(line) for line in screen.split("\n")) <= 78
    for key in ("space press", "offer/accept/decline", "w/b +60 s", ":command", "q stop"):
        assert key in screen


def test_a_long_note_is_wrapped_and_the_oldest_note_goes_when_the_screen_is_short() -> None:
    """Trial row 18 re-run: the note of the options a resume did not apply was cut at the
    terminal's width (or wiped by the redraw, when it was only on stderr); a note is wrapped
    like an incident, and on a short terminal the oldest note goes before the keys line."""
    out = io.StringIO()
    display = Display(out, tty=True, title="Ann v Bob", footer=keys_line("en"))
    display.attach(played_game())
    display._width = lambda: 60  # type: ignore[method-assign]
    display._height = lambda: 60  # type: ignore[method-assign]
    display.note("resumed the game of j.jsonl at t=1.25")
    display.note("not applied to the resumed game: --tc 600+5, --white New, --black Game")
    screen = display.render(2.0)
    assert max(len(line) for line in screen.split("\n")) <= 60
    assert "--black Game" in screen and "resumed the game" in screen
    display._height = lambda: len(screen.split("\n"))  # type: ignore[method-assign]
    short = display.render(2.0)
    assert "--black Game" in short and "resumed the game" not in short
    assert "q stop" in short
