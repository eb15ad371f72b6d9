"""The arbiter's terminal display: the board, both clocks, whose move, rulings, the moves.

On a terminal it redraws one screen (ANSI: cursor home, clear to end) up to 10 times a
second: the board in Unicode pieces, both clocks (tenths under 10 s, as FIDE-approved clocks
show them), whose move it is and whose clock runs, the last rulings with their article and
plain-language message, and the moves so far. It writes only when the screen changed, so an
idle clock above 10 s costs one write a second.

Without a terminal (a log, a pipe, a systemd journal) it writes plain lines instead: one a
ruling, as it is ruled, with the clocks after each press. Nothing is redrawn.

This is the arbiter's screen: it shows every ruling (FIDE 12.6 limits what the *players'*
side shows: the LEDs and the buzzer, `rules.supervision`). It is the only
module besides the `cmd_*` commands that writes to the terminal.

Everything on it is in the game's language (`language`, `arbiter.i18n`): the rulings'
sentences, the ruling types, the headings and the clock lines; English by default.

A long game must not push its incidents off the screen: the routine of every ordinary move
(the touch that begins it, the move, the clocks) is folded into one "last" line, and the
incidents (violations, illegal moves, penalties, claims, offers, the end) are listed with
the move they happened at and the clock time (`12... 0:41:07`). A narrow terminal gets its
lines cut, never wrapped (a wrapped line scrolls the screen), and a short one loses its
oldest incidents first, never the title and the board (a screen taller than the terminal
scrolls its top away at every redraw); a terminal that cannot show Unicode (an ASCII locale)
gets the pieces as letters and never a blank screen.
"""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TextIO

import chess

from arbiter.i18n import gettext, type_label
from rules.errors import ArbiterError
from rules.i18n import N_, number
from rules.messages import format_ruling
from rules.rulings import ClockState, Ruling

if TYPE_CHECKING:
    from arbiter.outputs.speech import Speaker
    from rules.game import Game

#: how often the terminal screen is redrawn, in real seconds (10 Hz)
REFRESH_S = 0.1
#: how many incidents the screen keeps
RULINGS_SHOWN = 6
#: rulings that are the routine of an ordinary move, folded into one line on the screen
ROUTINE = frozenset({"move", "obligation", "clock"})
#: the narrowest screen that keeps the clocks beside the board
SIDE_BY_SIDE = 56
#: how many lines of moves the screen keeps (the latest)
MOVE_LINES = 3
WIDTH = 78

RULINGS_HEADING = N_("Rulings:")
MOVES_HEADING = N_("Moves:")
WITH_ARTICLE = N_("{text} (Art. {article})")
TO_MOVE = {"white": N_("White to move"), "black": N_("Black to move")}
GAME_OVER = N_("game over: {result}")
#: a flag, a resignation or a second illegal move whose verdict the analysis left open (6.9)
HELD = N_("undecided: the arbiter decides")
SIDE_LABELS = {"white": N_("White"), "black": N_("Black")}
PAUSED_MARK = N_("paused")
FLAG_MARK = N_("flag")
PLAIN_CLOCK = N_("clock      White {white}  Black {black}  ({state})")
RUNNING = {"white": N_("white running"), "black": N_("black running"), None: N_("none running")}
LAST_ROUTINE = N_("Last: {text}")
INCIDENTS_HEADING = N_("Incidents:")
NO_INCIDENTS = N_("Incidents: none")


def format_clock(seconds: float, language: str = "en") -> str:
    """A clock's face: `1:02:03`, `2:58`, and under 10 s with tenths, `0:09.3` (`0:09,3` in
    a language that writes a decimal comma)."""
    if seconds < 10:
        tenths = int(max(0.0, seconds) * 10)  # a clock shows the tenth it is in, never rounds up
        return "0:" + number(tenths / 10, language, "04.1f")
    whole = int(seconds)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def ruling_text(r: Ruling, language: str = "en") -> str:
    """One line for a ruling: its time, its type, and its message (which cites the article)."""
    text = format_ruling(r, language)
    if r.article and f"{r.article}" not in text:
        text = gettext(WITH_ARTICLE, language).format(text=text, article=r.article)
    return f"{number(r.t, language, '8.2f')}  {type_label(r.type, language):<10} {text}"


def _fit(
    head: list[str],
    blocks: list[list[str]],
    tail: list[str],
    rows: int | None,
    notes: list[list[str]] | None = None,
) -> list[str]:
    """The screen's lines within `rows` terminal lines: a screen taller than the terminal
    scrolls its top (the title, the board) away at every redraw. The oldest incidents go
    first, then the session's oldest notes (shown between the incidents and `tail`); a
    terminal still too short keeps the top of the screen. One line is left free: the last
    line's newline must not scroll."""
    notes = list(notes or [])

    def height() -> int:
        return len(head) + sum(map(len, blocks)) + sum(map(len, notes)) + len(tail)

    if rows is not None:
        budget = rows - 1
        while blocks and height() > budget:
            blocks = blocks[1:]
        while len(notes) > 1 and height() > budget:
            notes = notes[1:]
    lines = head + [line for part in (*blocks, *notes) for line in part] + tail
    return lines if rows is None else lines[: max(1, rows - 1)]


def board_lines(board: chess.Board, *, ascii_only: bool = False) -> list[str]:
    """The board from White's side, in Unicode pieces (FEN letters where the terminal has
    no Unicode), with rank and file labels."""
    lines = []
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            if ascii_only:
                cells.append(piece.symbol() if piece else ".")
            else:
                cells.append(piece.unicode_symbol() if piece else "·")
        lines.append(f" {rank + 1} {' '.join(cells)}")
    lines.append("   a b c d e f g h")
    return lines


def moves_text(game: Game) -> str:
    """The moves so far in SAN, numbered (`1. e4 c5 2. Nf3`)."""
    start = chess.Board(game.start.fen) if game.start.fen else chess.Board()
    moves = game.board.move_stack
    if not moves:
        return ""
    try:
        return start.variation_san(moves)
    except ValueError:  # a position set by the arbiter: the moves are not from the start
        return " ".join(m.uci() for m in moves)


class Display:
    """The terminal display of a live game; see the module docstring.

    Args:
        out: where to write (standard output by default).
        tty: a full screen (True) or plain lines (False); default: whether `out` is a TTY.
        title: the first line (players, control).
        footer: a last line (e.g. the keys).
        language: the language of everything shown (`arbiter.i18n.LANGUAGES`).
        speaker: the spoken arbiter (`arbiter.outputs.speech.Speaker`, `--speak`), which
            hears each step's rulings as they are shown (not those of a resumed history).
    """

    def __init__(
        self,
        out: TextIO | None = None,
        *,
        tty: bool | None = None,
        title: str = "",
        footer: str = "",
        language: str = "en",
        speaker: Speaker | None = None,
    ) -> None:
        self.language = language
        self.speaker = speaker
        self.out = out if out is not None else sys.stdout
        self.tty = _isatty(self.out) if tty is None else tty
        self.title = title
        self.footer = footer
        self.game: Game | None = None
        self.recent: deque[Ruling] = deque(maxlen=RULINGS_SHOWN)
        #: the incidents shown, each with the move it happened at (`12...`) and, in strict
        #: mode, the lesson for a refusal (`arbiter.teach.lessons`)
        self.incidents: deque[tuple[str, Ruling, str | None]] = deque(maxlen=RULINGS_SHOWN)
        #: the latest routine ruling (a move, a touch): one line
        self.routine: Ruling | None = None
        self.ascii_only = not _can_show(self.out, "♚♙·◀")
        self.notes: deque[str] = deque(maxlen=2)
        self._last_screen = ""
        self._moves_cache: tuple[int, str] = (-1, "")
        self._started = False
        #: the screen could not be written (why: `lost`): nothing more is written (`_go_quiet`)
        self.lost = _screen_lost if self.out is sys.stdout else None
        self.quiet = self.lost is not None
        #: told once, with the error's words, when the display goes quiet (the session
        #: journals it)
        self.on_quiet: Callable[[str], None] | None = None

    def attach(self, game: Game) -> None:
        """The game to show (the session gives it once the `start` is known)."""
        self.game = game
        if not self.tty and self.title:
            self._line(self.title)

    # ------------------------------------------------------------------ input

    def show(self, rulings: Iterable[Ruling], t: float, *, history: bool = False) -> None:
        """Take one step's rulings; plain mode writes them now (history: quietly keep them)."""
        rulings = list(rulings)
        if self.speaker is not None and not history:
            self.speaker.hear(rulings)
        taught = self._lessons(rulings)
        for i, r in enumerate(rulings):
            if r.type != "clock":
                self.recent.append(r)
            if r.type in ROUTINE:
                if r.type != "clock":
                    self.routine = r
            else:
                self.incidents.append((self._move_label(), r, taught.get(i)))
            if not self.tty and not history:
                self._line(self._plain(r))
                if i in taught:
                    self._line(" " * 10 + taught[i])
        if self.tty:
            self.refresh(t)

    def note(self, text: str) -> None:
        """A line of the session's own (resumed, stopped, where the files are)."""
        self.notes.append(text)
        if not self.tty:
            self._line(text)

    # ------------------------------------------------------------------ output

    def refresh(self, t: float) -> None:
        """Redraw the screen as it stands at stream time `t` (only if it changed)."""
        if not self.tty or self.game is None:
            return
        screen = self.render(t)
        if screen == self._last_screen:
            return
        self._last_screen = screen
        prefix = "\x1b[?25l\x1b[2J" if not self._started else ""
        self._started = True
        body = "".join(line + "\x1b[K\n" for line in screen.split("\n"))
        self._write(f"{prefix}\x1b[H{body}\x1b[J")

    def render(self, t: float) -> str:
        """The full screen at `t`, as text, cut to the terminal's width."""
        game = self.game
        if game is None:
            return ""
        width = self._width()
        lines = [self.title, ""]
        side_lines = self._clock_lines(game, t)
        board = board_lines(game.board, ascii_only=self.ascii_only)
        if width >= SIDE_BY_SIDE:
            for i, row in enumerate(board):
                extra = side_lines[i] if i < len(side_lines) else ""
                lines.append(f"{row:<22}{extra}")
        else:  # narrow: the clocks under the board
            lines.extend(board)
            lines.extend(line for line in side_lines if line)
        lines.append("")
        lines.extend(self._move_lines(game, width))
        if self.routine is not None:
            last = format_ruling(self.routine, self.language)
            lines.append(self._(LAST_ROUTINE).format(text=last))
        lines.append("")
        lines.append(self._(INCIDENTS_HEADING if self.incidents else NO_INCIDENTS))
        blocks = []
        for label, r, lesson in self.incidents:  # long messages wrap, so their article stays seen
            block = textwrap.wrap(
                format_ruling(r, self.language),
                width,
                initial_indent=f"{label:<13}",
                subsequent_indent=" " * 13,
            )
            if lesson is not None:
                block += textwrap.wrap(
                    lesson, width, initial_indent=" " * 13 + "> ", subsequent_indent=" " * 15
                )
            blocks.append(block)
        notes = [  # wrapped too: a long note (the options a resume did not apply) stays whole
            textwrap.wrap(n, width, initial_indent="  ", subsequent_indent="    ")
            for n in self.notes
        ]
        tail = []
        if self.footer:  # wrapped: the keys line's end (w/b, :command, q stop) stays seen
            tail += ["", *textwrap.wrap(self.footer, width, break_on_hyphens=False)]
        lines = _fit(lines, blocks, tail, self._height(), notes)
        text = "\n".join(line[:width] for line in lines)
        return _ascii(text) if self.ascii_only else text

    def _height(self) -> int | None:
        """The terminal's height in lines (None when it cannot be known: nothing is cut)."""
        try:
            return max(1, os.get_terminal_size(self.out.fileno()).lines)
        except (AttributeError, ValueError, OSError):
            return None

    def _width(self) -> int:
        """The terminal's width (at most `WIDTH`; `WIDTH` when it cannot be known)."""
        try:
            columns = os.get_terminal_size(self.out.fileno()).columns
        except (AttributeError, ValueError, OSError):
            return WIDTH
        return max(20, min(WIDTH, columns))

    def _move_label(self) -> str:
        """The move now and the game's clock time, as an incident's label: `12...  0:41`
        (Black to move at move 12, 41 minutes into the game)."""
        game = self.game
        if game is None:
            return ""
        board = game.board
        dots = "." if board.turn else "..."
        m, sec = divmod(int(game.t), 60)
        h, m = divmod(m, 60)
        when = f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
        return f"{board.fullmove_number}{dots} {when}"

    def _clock_lines(self, game: Game, t: float) -> list[str]:
        running = game.clock.running
        paused = game.clock.paused
        out = []
        for side in ("black", "white"):
            label = self._(SIDE_LABELS[side])
            name = (game.start.black if side == "black" else game.start.white) or label
            if game.timed:
                try:
                    left = game.clock.remaining(side, max(t, game.t))
                except ArbiterError:
                    left = game.clock.remaining(side, game.t)
                face = format_clock(left, self.language)
            else:
                face = "--:--"
            mark = ""
            arrow = "<" if self.ascii_only else "◀"
            if side == running and not game.over:
                mark = f" {arrow} {self._(PAUSED_MARK)}" if paused else f" {arrow}"
            if side in game.flags_down:
                mark += f" {self._(FLAG_MARK)}"
            out.append(f"{label:<6} {face:>8}{mark}   {name}")
        turn = "white" if game.board.turn else "black"
        if game.over:
            status = self._(GAME_OVER).format(result=game.result)
        elif game.held:
            status = self._(HELD)
        else:
            status = self._(TO_MOVE[turn])
        return ["", out[0], "", status, "", out[1]]

    def _move_lines(self, game: Game, width: int = WIDTH) -> list[str]:
        ply = len(game.board.move_stack)
        key = ply if not ply else ply * 7919 + hash(game.board.move_stack[-1].uci())
        if self._moves_cache[0] != key:
            self._moves_cache = (key, moves_text(game))
        text = self._moves_cache[1]
        lines: list[str] = []
        current = self._(MOVES_HEADING)
        indent = " " * len(current)
        for word in text.split():
            if len(current) + 1 + len(word) > width:
                lines.append(current)
                current = indent
            current += " " + word
        lines.append(current)
        return lines[-MOVE_LINES:]

    def _lessons(self, rulings: list[Ruling]) -> dict[int, str]:
        """In strict (teaching) mode, the child-level lesson of each refusal among `rulings`
        (by its index); none outside strict mode, where the rulings' sentences say it all."""
        if self.game is None or not self.game.start.strict:
            return {}
        from arbiter.teach.lessons import lessons

        return lessons(rulings, self.language)

    def _plain(self, r: Ruling) -> str:
        if isinstance(r, ClockState):
            state = self._(PAUSED_MARK if r.paused else RUNNING.get(r.running, RUNNING[None]))
            line = self._(PLAIN_CLOCK).format(
                white=format_clock(r.white, self.language),
                black=format_clock(r.black, self.language),
                state=state,
            )
            return f"{number(r.t, self.language, '8.2f')}  {line}"
        return ruling_text(r, self.language)

    def _(self, message: str) -> str:
        return gettext(message, self.language)

    def _line(self, text: str) -> None:
        self._write(text + "\n")

    def _write(self, text: str) -> None:
        if self.quiet:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except UnicodeEncodeError:
            # a terminal that cannot show a name or a message: from now on ASCII only
            self.ascii_only = True
            self._write(_ascii(text))
        except (OSError, ValueError) as exc:
            self._go_quiet(exc)

    def _go_quiet(self, exc: OSError | ValueError) -> None:
        """The screen cannot be written (a closed pipe, a file-size limit, a full disk):
        the display goes quiet for the rest of the game, which goes on and is journaled.
        What was left unwritten is sent to /dev/null, so that nothing fails again at exit."""
        self.quiet = True
        self.lost = _silence(self.out, exc)
        if self.on_quiet is not None:
            self.on_quiet(self.lost)

    def close(self, t: float) -> None:
        """Draw the last screen and give the cursor back."""
        if self.tty and self.game is not None:
            self.refresh(t)
            self._write("\x1b[?25h")
        if self.speaker is not None:
            self.speaker.close()


#: why standard output could not be written, once it could not (`say`, `Display`)
_screen_lost: str | None = None


def _silence(out: TextIO, exc: OSError | ValueError) -> str:
    """Send what `out` could not write, and everything after, to /dev/null (so that nothing
    fails again, at exit either); the error's words."""
    global _screen_lost
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = out.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    reason = reason or type(exc).__name__
    if out is sys.stdout:
        _screen_lost = reason
    return reason


def say(line: str) -> None:
    """Write `line` on standard output; if it cannot be written (a closed pipe, a file-size
    limit), standard output goes quiet and the program goes on (the display then tells the
    session, which journals it)."""
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        _silence(sys.stdout, exc)


def _can_show(out: TextIO, sample: str) -> bool:
    """Can `out` write `sample` (its encoding has those characters)?"""
    encoding = getattr(out, "encoding", None) or "utf-8"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


#: Serbian and Macedonian Cyrillic in Latin letters, for a screen that has only ASCII
_CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ђ": "dj", "е": "e", "ж": "z", "з": "z",
    "и": "i", "ј": "j", "к": "k", "л": "l", "љ": "lj", "м": "m", "н": "n", "њ": "nj", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "ћ": "c", "у": "u", "ф": "f", "х": "h", "ц": "c",
    "ч": "c", "џ": "dz", "ш": "s", "ѓ": "gj", "ѕ": "dz", "ќ": "kj",
}  # fmt: skip
_TO_LATIN = str.maketrans(
    {**_CYRILLIC, **{k.upper(): v.capitalize() for k, v in _CYRILLIC.items()}, "đ": "dj",
     "Đ": "Dj", "ł": "l", "Ł": "L", "◀": "<", "·": ".", "½": "1/2"}
)  # fmt: skip


def _ascii(text: str) -> str:
    """`text` in ASCII: the display's own signs as letters, letters with marks without
    them (`č` -> `c`), Cyrillic in Latin letters, anything else as `?`."""
    text = unicodedata.normalize("NFKD", text.translate(_TO_LATIN))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.encode("ascii", "replace").decode("ascii")


def _isatty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


__all__ = ["REFRESH_S", "Display", "board_lines", "format_clock", "moves_text", "ruling_text"]
