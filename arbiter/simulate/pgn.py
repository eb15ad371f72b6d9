"""Reading one game of a PGN file for `arbiter simulate`, with errors that name file and game.

Games are counted from 1, as `--game` counts them. python-chess reads leniently (an illegal move
ends the game score with a note in `game.errors`); here any such note is an error, because a
stream made from half a game would tell the rules core a different game.
"""

from __future__ import annotations

from pathlib import Path

import chess.pgn

from arbiter.errors import PgnError
from rules.i18n import N_, Counted, Nn_

__all__ = ["read_game"]


class _StrictBuilder(chess.pgn.GameBuilder):
    """Keeps parse errors in `game.errors` without logging them to stderr."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def read_game(path: Path, number: int = 1) -> chess.pgn.Game:
    """Game `number` (1-based) of the PGN file at `path`.

    Raises:
        PgnError: the file is missing or not UTF-8 text, `number` is below 1 or past the last
        game, or the game has a move that cannot be read or no moves at all.
    """
    if number < 1:
        raise PgnError.of(
            N_("--game counts from 1, so {number} names no game of {path}"),
            number=number,
            path=path,
        )
    try:
        with path.open(encoding="utf-8-sig") as handle:
            for skipped in range(number - 1):
                if not chess.pgn.skip_game(handle):
                    raise _out_of_range(path, number, skipped)
            game = chess.pgn.read_game(handle, Visitor=_StrictBuilder)
    except FileNotFoundError:
        raise PgnError.of(N_("{path}: no such file"), path=path) from None
    except IsADirectoryError:
        raise PgnError.of(N_("{path}: is a directory, not a PGN file"), path=path) from None
    except UnicodeDecodeError as exc:
        raise PgnError.of(
            N_("{path}: not a PGN file (not UTF-8 text at byte {byte})"), path=path, byte=exc.start
        ) from None
    if game is None:
        raise _out_of_range(path, number, number - 1)
    if game.errors:
        raise PgnError.of(
            N_("{path}, game {number}: {error}"), path=path, number=number, error=game.errors[0]
        )
    if game.next() is None:
        raise PgnError.of(
            N_("{path}, game {number}: no moves found (is it a PGN file?)"),
            path=path,
            number=number,
        )
    return game


def _out_of_range(path: Path, number: int, found: int) -> PgnError:
    if found == 0:
        return PgnError.of(N_("{path}: no PGN game found"), path=path)
    if found == 1:
        return PgnError.of(
            N_("{path} has 1 game, so --game {number} is out of range"), path=path, number=number
        )
    return PgnError.of(
        N_("{path} has {games}, so --game {number} is out of range"),
        path=path,
        games=Counted(GAMES, found),
        number=number,
    )


#: the games of a file, counted (`Counted`: the plural form the number takes)
GAMES = Nn_("{count} game", "{count} games", "count")
