"""The hall on a terminal: a grid of every board (players, moves, whose move, clocks,
result, link) and the alarms that need the arbiter, drawn from the station's state."""

from __future__ import annotations

from typing import Any

from arbiter.hall.alarms import kind_word
from arbiter.hall.station import BoardLink, Station

#: alarms shown at most (the newest)
SHOWN_ALARMS = 12


def _clock(seconds: float) -> str:
    whole = max(0, int(seconds))
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def natural(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (1 << 30, name)


def board_row(link: BoardLink, names: dict[str, tuple[str, str]] | None = None) -> dict[str, Any]:
    """One board's line of the grid, as values (the web page uses them too)."""
    replay = link.replay
    start = replay.start
    white = start.white if start and start.white else "?"
    black = start.black if start and start.black else "?"
    if names and link.name in names:
        white, black = names[link.name]
    game = replay.game
    clock = replay.last_clock
    to_move = None
    fen = None
    if game is not None:
        to_move = "white" if game.board.turn else "black"
        fen = game.board.fen()
    return {
        "board": link.name,
        "white": white,
        "black": black,
        "moves": game.ply if game is not None else 0,
        "to_move": None if replay.over else to_move,
        "fen": fen,
        "white_clock": clock.white if clock else None,
        "black_clock": clock.black if clock else None,
        "running": clock.running if clock else None,
        "result": replay.result(),
        "online": link.online,
        "synced": replay.complete and start is not None,
    }


def render(
    station: Station, names: dict[str, tuple[str, str]] | None = None, language: str = "en"
) -> str:
    """The grid and the alarms as text (the alarms' sentences in `language`)."""
    with station.lock:
        rows = [board_row(station.boards[n], names) for n in sorted(station.boards, key=natural)]
        alarms = list(station.alarms[-SHOWN_ALARMS:])
    where = f"{station.address.host}:{station.address.port}"
    link = "connected" if station.connected.is_set() else "NOT CONNECTED (retrying)"
    lines = [
        f"broker {where}: {link}   boards: {len(rows)}   topic prefix: {station.prefix}",
        f"{'board':>5}  {'white':<18} {'black':<18} {'ply':>4}  {'move':<5} "
        f"{'white':>8} {'black':>8}  {'result':<7} link",
    ]
    for r in rows:
        wc = _clock(r["white_clock"]) if r["white_clock"] is not None else "-"
        bc = _clock(r["black_clock"]) if r["black_clock"] is not None else "-"
        if r["running"] == "white":
            wc = "*" + wc
        elif r["running"] == "black":
            bc = "*" + bc
        link = "online" if r["online"] else ("offline" if r["online"] is False else "?")
        if not r["synced"]:
            link += ", catching up"
        lines.append(
            f"{r['board']:>5}  {r['white'][:18]:<18} {r['black'][:18]:<18} {r['moves']:>4}  "
            f"{(r['to_move'] or '-'):<5} {wc:>8} {bc:>8}  {r['result']:<7} {link}"
        )
    lines.append("")
    lines.append(f"alarms ({len(station.alarms)}):" if alarms else "alarms: none")
    for a in alarms:
        when = f" t={a.t:.1f}" if a.t is not None else ""
        kind = kind_word(a.kind, language)
        lines.append(f"  [{a.ident}] board {a.board}{when} {kind}: {a.text_in(language)}")
    return "\n".join(lines)
