"""The hall on a terminal: a grid of every board (players, moves, whose move, clocks,
result, link) and the alarms that need the arbiter, drawn from the station's state."""

from __future__ import annotations

from typing import Any

from arbiter.hall.alarms import kind_word
from arbiter.hall.station import BoardLink, Station
from arbiter.i18n import DOMAIN, LOCALE_DIR
from rules.i18n import N_, Np_, number, translations

#: alarms shown at most (the newest)
SHOWN_ALARMS = 12

#: the grid's words (the station's language)
BROKER_LINE = N_("broker {where}: {link}   boards: {count}   topic prefix: {prefix}")
CONNECTED = Np_("hall grid", "connected")
NOT_CONNECTED = N_("NOT CONNECTED (retrying)")
HEADINGS = {
    "board": Np_("hall grid", "board"),
    "white": Np_("hall grid", "white"),
    "black": Np_("hall grid", "black"),
    "ply": Np_("hall grid", "ply"),
    "move": Np_("hall grid", "move"),
    "result": Np_("hall grid", "result"),
    "link": Np_("hall grid", "link"),
}
ONLINE = Np_("hall grid", "online")
OFFLINE = N_("offline")
CATCHING_UP = N_("catching up")
ALARMS = N_("alarms ({count}):")
NO_ALARMS = N_("alarms: none")
ALARM = N_("  [{ident}] board {board}{when} {kind}: {text}")


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
    """The grid and the alarms as text, in `language`."""
    with station.lock:
        rows = [board_row(station.boards[n], names) for n in sorted(station.boards, key=natural)]
        alarms = list(station.alarms[-SHOWN_ALARMS:])
    tr = translations(language, DOMAIN, str(LOCALE_DIR))
    head = {key: tr.pgettext(*marked) for key, marked in HEADINGS.items()}
    where = f"{station.address.host}:{station.address.port}"
    link = tr.pgettext(*CONNECTED) if station.connected.is_set() else tr.gettext(NOT_CONNECTED)
    lines = [
        tr.gettext(BROKER_LINE).format(
            where=where, link=link, count=len(rows), prefix=station.prefix
        ),
        f"{head['board']:>5}  {head['white']:<18} {head['black']:<18} {head['ply']:>4}  "
        f"{head['move']:<5} {head['white']:>8} {head['black']:>8}  {head['result']:<7} "
        f"{head['link']}",
    ]
    for r in rows:
        wc = _clock(r["white_clock"]) if r["white_clock"] is not None else "-"
        bc = _clock(r["black_clock"]) if r["black_clock"] is not None else "-"
        if r["running"] == "white":
            wc = "*" + wc
        elif r["running"] == "black":
            bc = "*" + bc
        link = tr.pgettext(*ONLINE) if r["online"] else "?"
        if r["online"] is False:
            link = tr.gettext(OFFLINE)
        if not r["synced"]:
            link += ", " + tr.gettext(CATCHING_UP)
        to_move = head[r["to_move"]] if r["to_move"] in ("white", "black") else "-"
        lines.append(
            f"{r['board']:>5}  {r['white'][:18]:<18} {r['black'][:18]:<18} {r['moves']:>4}  "
            f"{to_move:<5} {wc:>8} {bc:>8}  {r['result']:<7} {link}"
        )
    lines.append("")
    count = len(station.alarms)
    lines.append(tr.gettext(ALARMS).format(count=count) if alarms else tr.gettext(NO_ALARMS))
    for a in alarms:
        when = f" t={number(a.t, language, '.1f')}" if a.t is not None else ""
        kind, text = kind_word(a.kind, language), a.text_in(language)
        line = tr.gettext(ALARM).format(
            ident=a.ident, board=a.board, when=when, kind=kind, text=text
        )
        lines.append(line)
    return "\n".join(lines)
