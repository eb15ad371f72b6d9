"""Reading one game of a PGN file for `arbiter simulate`, with errors that name file and game.

Games are counted from 1, as `--game` counts them. python-chess reads leniently (an illegal move
ends the game score with a note in `game.errors`); here any such note is an error, because a
stream made from half a game would tell the rules core a different game.
"""

from __future__ import annotations

from pathlib import Path

import chess.pgn

from arbiter.errors import PgnError

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
        raise PgnError(f"--game counts from 1, so {number} names no game of {path}")
    try:
        with path.open(encoding="utf-8-sig") as handle:
            for skipped in range(number - 1):
                if not chess.pgn.skip_game(handle):
                    raise PgnError(_out_of_range(path, number, skipped))
            game = chess.pgn.read_game(handle, Visitor=_StrictBuilder)
    except FileNotFoundError:
        raise PgnError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PgnError(f"{path}: is a directory, not a PGN file") from None
    except UnicodeDecodeError as exc:
        raise PgnError(f"{path}: not a PGN file (not UTF-8 text at byte {exc.start})") from None
    if game is None:
        raise PgnError(_out_of_range(path, number, number - 1))
    where = f"{path}, game {number}"
    if game.errors:
        raise PgnError(f"{where}: {game.errors[0]}")
    if game.next() is None:
        raise PgnError(f"{where}: no moves found (is it a PGN file?)")
    return game


def _out_of_range(path: Path, number: int, found: int) -> str:
    if found == 0:
        return f"{path}: no PGN game found"
    return f"{path} has {found} game{'s' if found != 1 else ''}, so --game {number} is out of range"
