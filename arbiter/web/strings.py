"""The web page's own words in every language of the arbiter (issue 15 item 1).

The page's script keeps its English words in one object, `STRINGS` (`static/app.js`); this
module holds the same keys, marked for the message catalogue (domain `arbiter`), and serves
them translated (`GET /api/strings`) so that the script replaces its English with them. The
rulings' sentences are not here: the feed sends each in every language, made by the one
formatter (`rules.messages`).

Which language a page gets (`page_language`): the one its menu chose (`?lang=`, kept by the
browser), else the first of the browser's `Accept-Language` that the arbiter speaks, else the
game's language. Signs that are the same in every language (the flag, the pause mark, the
empty clock, "PGN") stay in the script.
"""

from __future__ import annotations

from typing import Any

from arbiter.i18n import DOMAIN as ARBITER_DOMAIN
from arbiter.i18n import LOCALE_DIR
from rules.i18n import LANGUAGES, N_, Np_, language_of, translations

__all__ = ["PAGE_STRINGS", "accepted_languages", "page_language", "page_strings"]

#: the page's words by the keys of `STRINGS` in app.js (a dict: a group of keys)
PAGE_STRINGS: dict[str, Any] = {
    "article": N_("Art. {article}"),
    "player": N_("{side}: {name}"),
    "strictMode": N_("strict (teaching)"),
    "piece": Np_("web page", "piece"),
    "connecting": N_("connecting…"),
    "live": Np_("web page", "live"),
    "lost": N_("connection lost: reconnecting…"),
    "position": N_("The game's position"),
    "positionAt": N_("The position after {move} (history)"),
    "positionStart": N_("The start position (history)"),
    "backToLive": N_("back to the live position"),
    "sensed": N_("The board as sensed"),
    "sensedDiffers": N_(
        "The board as sensed differs from the game: put back what is marked (green: a piece"
        " missing, red: a piece that should not be there)"
    ),
    "sensedMoving": N_("The board as sensed (a move in progress)"),
    "clocks": N_("Clocks"),
    "moves": Np_("web page", "Moves"),
    "rulings": Np_("web page", "Rulings"),
    "noRulings": N_("No ruling yet."),
    "noMoves": N_("No move yet."),
    "result": N_("Result: {result}"),
    "paused": N_("paused"),
    "noClock": N_("no clock"),
    "downloads": N_("Downloads"),
    "journal": Np_("web page", "journal"),
    "controls": N_("Arbiter's controls"),
    "readOnly": N_(
        "Read-only: open the arbiter's address with the token (printed at start) to act."
    ),
    "pause": N_("Pause the clocks"),
    "resume": N_("Resume the clocks"),
    "addTime": N_("Add time"),
    "seconds": Np_("web page", "seconds"),
    "setClocks": N_("Set the clocks"),
    "white": N_("White"),
    "black": N_("Black"),
    "claim": N_("{side}'s claim ({kind}) was ruled incorrect; you may overrule:"),
    "uphold": N_("Uphold the claim"),
    "claimUpheld": N_("{side}'s claim ({kind}) was upheld; you may overrule:"),
    "reject": N_("Reject the claim"),
    "confirm": N_("Confirm the ruling"),
    "declare": N_("Declare the result"),
    "reason": Np_("web page", "reason"),
    "takeback": N_("Take back"),
    "plies": Np_("web page", "plies"),
    "reinstate": N_("Reinstate this position"),
    "sent": N_("sent: {what}"),
    "refusedBy": N_("refused: {error}"),
    "viewArbiter": Np_("web page view", "arbiter"),
    "viewClock": Np_("web page view", "clock"),
    "viewTeach": Np_("web page view", "teaching"),
    "fullScreen": N_("full screen"),
    "swapSides": N_("swap sides"),
    "delay": N_("delay {s}"),
    "bronstein": N_("Bronstein {s}"),
    "periodTitle": N_("period {n}: {moves} moves to the time control"),
    "tapHint": N_("tap your side to press your clock"),
    "teachTitle": N_("Teaching view"),
    "teachNoDuty": N_("{side} to move: any legal move."),
    "teachOver": N_("The game is over: {result}."),
    "teachDuty": {
        # one sentence per piece, not a piece name put into one sentence: in Serbian,
        # Bosnian, Czech and Polish the piece's case and the pronoun that refers to it
        # change with the piece ("dotakli ste skakača ... ga", "... damu ... je")
        "move_piece": {
            "p": N_("{side}, you touched the pawn on {square}: you must move it."),
            "n": N_("{side}, you touched the knight on {square}: you must move it."),
            "b": N_("{side}, you touched the bishop on {square}: you must move it."),
            "r": N_("{side}, you touched the rook on {square}: you must move it."),
            "q": N_("{side}, you touched the queen on {square}: you must move it."),
            "k": N_("{side}, you touched the king on {square}: you must move it."),
        },
        "capture_piece": {
            "p": N_("{side}, you touched the opponent's pawn on {square}: you must capture it."),
            "n": N_(
                "{side}, you touched the opponent's knight on {square}: you must capture it."
            ),
            "b": N_(
                "{side}, you touched the opponent's bishop on {square}: you must capture it."
            ),
            "r": N_("{side}, you touched the opponent's rook on {square}: you must capture it."),
            "q": N_(
                "{side}, you touched the opponent's queen on {square}: you must capture it."
            ),
            "k": N_("{side}, you touched the opponent's king on {square}: you must capture it."),
        },
        "castle": N_("{side}, you touched king and rook: you must castle."),
        "king_move": N_("{side}, you touched the king: you must move it."),
        "declared_move": N_("{side}, you must play the move you declared."),
    },
    "teachTargets": N_("It may go to: {squares}."),
    "teachCapturers": N_("It may be captured from: {squares}."),
    "teachRefused": N_("Refused: {why}"),
    "pieceNames": {
        "p": Np_("web page piece", "pawn"),
        "n": Np_("web page piece", "knight"),
        "b": Np_("web page piece", "bishop"),
        "r": Np_("web page piece", "rook"),
        "q": Np_("web page piece", "queen"),
        "k": Np_("web page piece", "king"),
    },
    "sideNames": {"white": N_("White"), "black": N_("Black")},
    "reasons": {
        "arbiter_decision": N_("arbiter's decision"),
        "agreement": N_("agreement"),
        "resignation": Np_("web page reason", "resignation"),
        "time": Np_("web page reason", "time"),
        "checkmate": Np_("web page reason", "checkmate"),
        "stalemate": Np_("web page reason", "stalemate"),
        "threefold_repetition": Np_("web page reason", "threefold repetition"),
        "fifty_moves": Np_("web page reason", "fifty moves"),
        "dead_position": N_("dead position"),
        "illegal_moves": N_("illegal moves"),
    },
    "language": N_("Language"),
}


def page_strings(language: str) -> dict[str, Any]:
    """`PAGE_STRINGS` in `language` (English where the catalogue lacks a word)."""
    tr = translations(language, ARBITER_DOMAIN, str(LOCALE_DIR))

    def say(marked: Any) -> Any:
        if isinstance(marked, dict):
            return {key: say(value) for key, value in marked.items()}
        if isinstance(marked, tuple):
            return tr.pgettext(*marked)
        return tr.gettext(marked)

    return {key: say(value) for key, value in PAGE_STRINGS.items()}


def accepted_languages(header: str) -> list[str]:
    """The arbiter's languages a browser's `Accept-Language` asks for, best first
    (`sr-Latn-RS,sr;q=0.9,en;q=0.5` -> `["sr", "en"]`); a `q=0` language is refused."""
    weighted: list[tuple[float, int, str]] = []
    for order, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        found = language_of(tag) if tag and tag != "*" else None
        if found is not None and quality > 0:
            weighted.append((-quality, order, found))
    out: list[str] = []
    for _, _, found in sorted(weighted):
        if found not in out:
            out.append(found)
    return out


def page_language(chosen: str | None, accept_language: str, game_language: str) -> str:
    """The page's language: the menu's choice, else the browser's, else the game's."""
    if chosen:
        found = language_of(chosen)
        if found is not None:
            return found
    for found in accepted_languages(accept_language):
        return found
    return game_language if game_language in LANGUAGES else "en"
