"""The hall's pages' own words in every language of the arbiter (issue 15 item 1).

`static/hall.js` keeps its English words in `STRINGS` and the pages mark theirs with
`data-i18n="key"`; this module holds the same keys, marked for the catalogue (domain
`arbiter`), and the station serves them translated (`GET /api/strings[?lang=xx]`), in the
language the page's menu chose (kept by the browser), else the browser's `Accept-Language`,
else the station's (`--lang`, the environment), as the game's page does
(`arbiter.web.strings.page_language`). The alarms' own sentences come from the station and
stay in its language.
"""

from __future__ import annotations

from arbiter.hall.alarms import KIND_WORDS
from arbiter.i18n import DOMAIN, LOCALE_DIR
from rules.i18n import N_, Np_, translations

__all__ = ["HALL_STRINGS", "hall_strings"]

#: the pages' words by the keys of `STRINGS` in hall.js and of the pages' `data-i18n`
HALL_STRINGS: dict[str, str | tuple[str, str]] = {
    "hall": N_("The hall"),
    "connecting": N_("connecting…"),
    "reconnecting": N_("reconnecting…"),
    "alarms": Np_("hall page", "Alarms"),
    "boards": N_("{count} boards"),
    "board": N_("Board {name}"),
    "boardGame": N_("Board {name}: {white} – {black}"),
    "boardLink": N_("board {name}"),
    "done": Np_("hall page", "done"),
    "journaled": N_("journaled by the board as event {seq}"),
    "offline": N_("offline"),
    "catchingUp": N_("catching up"),
    "ply": N_("ply {moves}"),
    "whiteToMove": N_("White to move"),
    "blackToMove": N_("Black to move"),
    "backToHall": N_("← the hall"),
    "arbiter": Np_("hall page", "Arbiter"),
    "token": Np_("hall page", "Token"),
    "pause": N_("Pause clocks"),
    "resume": Np_("hall page", "Resume"),
    "whitePlus": N_("White +1 min"),
    "blackPlus": N_("Black +1 min"),
    "warnWhite": N_("Warn White"),
    "warnBlack": N_("Warn Black"),
    "record": Np_("hall page", "Record"),
    "language": Np_("hall page", "Language"),
    **{f"alarm_{kind}": marked for kind, marked in KIND_WORDS.items()},
}


def hall_strings(language: str) -> dict[str, str]:
    """`HALL_STRINGS` in `language` (English where the catalogue lacks a word)."""
    tr = translations(language, DOMAIN, str(LOCALE_DIR))
    return {
        key: tr.pgettext(*marked) if isinstance(marked, tuple) else tr.gettext(marked)
        for key, marked in HALL_STRINGS.items()
    }
