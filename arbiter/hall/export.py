"""The broadcast folder: DGT LiveChess's local export layout, which relays (Lichess
Broadcaster, pgn4web-style viewers) read while a round is played (docs/hall.md says what
was matched and what could not be confirmed).

    FOLDER/tournament.json          {"name", "timecontrol", "rounds": [{"count", "live"}]}
    FOLDER/round-N/index.json       {"date", "pairings": [{"white", "black", "result", "live"}]}
    FOLDER/round-N/game-M.pgn       board M's game: tags from the pairings, [%clk] and [%emt]
    FOLDER/round-N/game-M.json      the same game as LiveChess's cloud feed gives it:
                                    {"live", "serialNr", "firstMove", "chess960", "result",
                                     "moves": ["SAN CLOCK+EMT", ...]} (`game_json`)
    FOLDER/round-N/games.pgn        every game of the round, board order

Files are replaced atomically (written beside, then renamed), so a relay polling the folder
never reads half a file.
"""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import chess.pgn

from arbiter.hall.errors import HallError
from arbiter.hall.pairings import Pairing, Round
from arbiter.hall.replay import BoardReplay
from arbiter.records.pgn import pgn_from_rulings
from rules.i18n import N_
from rules.library_reasons import reason_of
from rules.rulings import ClockState, MoveStands


def _hms(seconds: float) -> str:
    whole = max(0, round(seconds))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


def think_times(replay: BoardReplay) -> dict[int, float]:
    """Seconds each standing ply took its player: from the moment their clock began to run
    to their press (the `[%emt]` of the ply), by ply number."""
    since: dict[str, float] = {}
    running: str | None = None
    pending: dict[str, int] = {}
    emt: dict[int, float] = {}
    start = replay.start
    if start is not None:  # the clock of the side to move starts at `start` (events.md)
        running = "white" if " w " in f" {start.fen or chess.STARTING_FEN} " else "black"
        since[running] = start.t
    for r in replay.rulings:
        if isinstance(r, MoveStands) and r.side is not None:
            pending[r.side] = r.ply
        elif isinstance(r, ClockState):
            now = None if r.paused else r.running
            if now != running:
                if running is not None and running in pending and running in since:
                    emt[pending.pop(running)] = r.t - since[running]
                if now is not None:
                    since[now] = r.t
                running = now
    return emt


def _record(replay: BoardReplay, pairing: Pairing | None, rnd: Round | None) -> chess.pgn.Game:
    """The board's game for a broadcast: the station's record (the board's own), with the
    pairing's tags and `[%emt]` beside each `[%clk]`."""
    start = replay.start
    if start is None:
        raise HallError.of(N_("board {board}: no game yet"), board=replay.board)
    if pairing is not None:
        start = replace(start, white=pairing.white, black=pairing.black)
    if rnd is not None:
        start = replace(start, round=str(rnd.number), event=rnd.event or start.event)
    text = pgn_from_rulings(start, list(replay.rulings))
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise HallError.of(N_("board {board}: its record cannot be read back"), board=replay.board)
    if pairing is not None:
        game.headers["Board"] = str(pairing.board)
        if pairing.white_id:
            game.headers["WhiteFideId"] = pairing.white_id
        if pairing.black_id:
            game.headers["BlackFideId"] = pairing.black_id
    emt = think_times(replay)
    for ply, node in enumerate(game.mainline(), start=1):
        if ply in emt:
            node.comment = f"{node.comment} [%emt {_hms(emt[ply])}]".strip()
    return game


def game_pgn(replay: BoardReplay, pairing: Pairing | None, rnd: Round | None) -> str:
    """The board's PGN for a broadcast (see `_record`)."""
    return _pgn_text(_record(replay, pairing, rnd))


def _pgn_text(game: chess.pgn.Game) -> str:
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n"


#: LiveChess's result words in its cloud feed, by the PGN result
_CLOUD_RESULT = {"1-0": "WHITEWIN", "0-1": "BLACKWIN", "1/2-1/2": "DRAW"}
#: the standard position's number among the 960 (Scharnagl's numbering)
_STANDARD_960 = 518


def game_json(game: chess.pgn.Game, serial: str, *, live: bool) -> dict[str, Any]:
    """The game as LiveChess's cloud feed gives `game-M.json`: each move as its SAN, a
    space, the mover's clock after the move in whole seconds, `+`, and the move's time in
    whole seconds (`[%clk]` and `[%emt]` of the PGN; either is left out when not known)."""
    moves = []
    emt_re = re.compile(r"\[%emt\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
    for node in game.mainline():
        text = node.san()
        clock = node.clock()
        spent = emt_re.search(node.comment)
        if clock is not None:
            text += f" {round(clock)}"
            if spent is not None:
                h, m, sec = spent.groups()
                text += f"+{round(int(h) * 3600 + int(m) * 60 + float(sec))}"
        moves.append(text)
    board = game.board()
    chess960 = board.chess960_pos()
    return {
        "live": live,
        "serialNr": serial,
        "firstMove": board.fullmove_number,
        "chess960": chess960 if chess960 is not None else _STANDARD_960,
        "result": _CLOUD_RESULT.get(game.headers.get("Result", "*"), "*"),
        "moves": moves,
    }


def _player(name: str, fide_id: str) -> dict[str, Any]:
    last, _, first = name.partition(",")
    return {
        "fname": first.strip() or None,
        "mname": None,
        "lname": last.strip() or name,
        "title": None,
        "federation": None,
        "gender": None,
        "fideid": fide_id or None,
    }


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise HallError.of(
            N_("export {path}: cannot be written ({reason})"), path=path, reason=reason_of(exc)
        ) from None


def write_round(
    folder: Path,
    rnd: Round,
    replays: dict[str, BoardReplay],
    *,
    name: str = "",
    date: str | None = None,
) -> None:
    """Write (or rewrite) the round's files and `tournament.json` from the boards' games.

    `replays` maps a board's number (as text) to its game; boards without a game yet are
    listed in the index with result `*` and no game file.
    """
    pairings: list[dict[str, Any]] = []
    texts: list[str] = []
    live_any = False
    round_dir = folder / f"round-{rnd.number}"
    for p in rnd.pairings:
        replay = replays.get(str(p.board))
        has_game = replay is not None and replay.start is not None
        result = replay.result() if has_game and replay is not None else "*"
        live = has_game and result == "*"
        live_any = live_any or live
        pairings.append(
            {
                "white": _player(p.white, p.white_id),
                "black": _player(p.black, p.black_id),
                "result": result,
                "live": live,
            }
        )
        if has_game and replay is not None:
            game = _record(replay, p, rnd)
            text = _pgn_text(game)
            _write(round_dir / f"game-{p.board}.pgn", text)
            cloud = game_json(game, str(p.board), live=live)
            _write(round_dir / f"game-{p.board}.json", json.dumps(cloud, indent=1))
            texts.append(text)
    _write(round_dir / "index.json", json.dumps({"date": date, "pairings": pairings}, indent=1))
    _write(round_dir / "games.pgn", "\n".join(texts))
    tournament_path = folder / "tournament.json"
    rounds: list[dict[str, Any]] = []
    if tournament_path.exists():
        try:
            rounds = list(json.loads(tournament_path.read_text(encoding="utf-8"))["rounds"])
        except (OSError, ValueError, KeyError, TypeError):
            rounds = []
    while len(rounds) < rnd.number:
        rounds.append({"count": 0, "live": 0})
    rounds[rnd.number - 1] = {"count": len(rnd.pairings), "live": 1 if live_any else 0}
    first = next((r for r in replays.values() if r.start is not None), None)
    control = first.start.time_control if first is not None and first.start else None
    tournament = {
        "id": name or rnd.event or "hall",
        "name": name or rnd.event or "hall",
        "location": None,
        "country": None,
        "website": None,
        "rules": "STANDARD",
        "chess960": "STANDARD",
        "timecontrol": control or "",
        "rounds": rounds,
        "eboards": sorted(replays, key=lambda b: (len(b), b)),
    }
    _write(tournament_path, json.dumps(tournament, indent=1))
