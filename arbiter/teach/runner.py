"""The course of a drill session where the pupil's hands are read from a sensor (an e-board
in `arbiter.teach.on_board`, a camera in `arbiter.teach.on_camera`): each drill's header, its
position set up and checked, the situation, the pupil's answer judged by the rules core in
strict mode, the rulings said and the lesson where the answer was wrong.

A sensor's drills say how the pieces are seen (`set_up`, `situation`, `answer`) and where the
game's time comes from (`now`); this class runs them in the same order for every sensor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

import chess

from arbiter.i18n import gettext
from arbiter.outputs.display import board_lines
from arbiter.teach.drills import (
    CONTROL,
    DRILLS,
    HEADER,
    PRESS,
    RIGHT,
    WRONG,
    Drill,
    DrillResult,
    Session,
)
from rules.events import Start
from rules.game import Game
from rules.messages import format_ruling
from rules.rulings import ClockState, Ruling
from rules.types import Side


class DrillsEnded(Exception):
    """No more drills: the pupil's input (or a camera's video) came to its end."""


class SensedDrills:
    """The drills of one pupil on one sensor. Subclasses set the sensor's hooks.

    Args:
        read: the pupil's next typed line (None: no more input).
        out: where the drills are said.
        language: the pupil's language.
        settings: the sensor's `start` settings (noise_s, slide_s, latency_s, ...).
    """

    def __init__(
        self,
        read: Callable[[], str | None],
        out: TextIO,
        language: str,
        settings: Callable[[], dict[str, Any]],
    ) -> None:
        self.read = read
        self.out = out
        self.language = language
        self._settings = settings

    def _(self, message: str) -> str:
        return gettext(message, self.language)

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # ------------------------------------------------------------ the sensor's hooks

    def now(self) -> float:
        """The stream time a drill's game starts at."""
        raise NotImplementedError

    def set_up(self, drill: Drill) -> None:
        """Wait until the sensor shows the drill's position, saying what is wrong where."""
        raise NotImplementedError

    def situation(self, drill: Drill, game: Game) -> list[Ruling] | None:
        """Have the situation's movements made; their rulings, or None to set up again."""
        raise NotImplementedError

    def answer(self, drill: Drill, game: Game, side: Side, before: list[Ruling]) -> DrillResult:
        """Read and judge the pupil's answer (`side` has the move)."""
        raise NotImplementedError

    # ------------------------------------------------------------ the course

    def run_drills(self, session: Session, drills: tuple[Drill, ...] = DRILLS) -> Session:
        """Run `drills` until the input ends; the results go to `session`."""
        try:
            for number, drill in enumerate(drills, start=1):
                self.drill(session, drill, number, len(drills))
        except DrillsEnded:
            pass
        return session

    def drill(self, session: Session, drill: Drill, number: int, total: int) -> None:
        """One drill: set up (again, until its situation could be made), answered, judged."""
        header = self._(HEADER).format(number=number, total=total, article=drill.article)
        self._say("\n" + header)
        while True:
            self.set_up(drill)
            position = chess.Board(drill.fen) if drill.fen else chess.Board()
            self._say("\n".join(board_lines(position)))
            sensor = dict(self._settings())
            start = Start(t=self.now(), fen=drill.fen, time_control=CONTROL, strict=True, **sensor)
            game = Game(start)
            self.side: Side = "white" if position.turn else "black"  # the pupil's clock
            before = self.situation(drill, game)
            if before is not None:
                break
        self._say(self._(drill.prompt).format(press=self._(PRESS)))
        result = self.answer(drill, game, self.side, before)
        session.results.append(result)
        for r in result.rulings:
            if not isinstance(r, ClockState):
                self._say("  " + format_ruling(r, self.language))
        self._say(self._(RIGHT if result.passed else WRONG))
        if not result.passed:
            self._say(self._(drill.lesson))
