"""Numbers a person reads follow the language of the message (`rules.i18n.number`): a decimal
comma in sr, bs, mk, cs and pl (CLDR), a point in English; machine outputs (the contract's
JSON, the journal, PGN tags, the `--tc` syntax) keep Python's point in every language."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from arbiter.i18n import error_text
from arbiter.live.club_time import describe, read_club_time
from arbiter.live.session import quiet_note, resumed_note, sensor_note
from arbiter.outputs.display import format_clock, ruling_text
from arbiter.outputs.render import ruling_line
from rules.errors import ArbiterError
from rules.events import Sensor
from rules.i18n import LANGUAGES, Numeral, localized, number
from rules.library_reasons.link_errors import lost_detail
from rules.messages import format_ruling, ruling_dict, ruling_json
from rules.rulings import ArbiterDid, ClockState, Penalty
from vision import messages as vision_messages

COMMA = ["sr", "bs", "mk", "cs", "pl", "sr_Cyrl"]
APP_JS = Path(__file__).resolve().parents[2] / "arbiter" / "web" / "static" / "app.js"

#: a penalty of 2.5 s said in each language (the plural form of a fraction: docs/languages.md)
PENALTY = {
    "en": "White receives 2.5 seconds (Art. 7.5.5).",
    "sr": "Beli dobija 2,5 sekunde (čl. 7.5.5).",
    "bs": "Bijeli dobija 2,5 sekunde (čl. 7.5.5).",
    "mk": "Белиот добива 2,5 секунди (чл. 7.5.5).",
    "cs": "Bílý dostává 2,5 sekundy (čl. 7.5.5).",
    "pl": "Białe otrzymują 2,5 sekundy (art. 7.5.5).",
    "sr_Cyrl": "Бели добија 2,5 секунде (чл. 7.5.5).",
}


def _penalty() -> Penalty:
    return Penalty(t=3.25, side="black", article="7.5.5", kind="time_added", seconds=2.5)


def test_the_helper_writes_each_language_s_separators() -> None:
    assert set(COMMA) | {"en"} == set(LANGUAGES)
    for language in COMMA:
        assert number(2.5, language) == "2,5"
        assert number(0.8512, language, ".2f") == "0,85"
        assert number(9.87, language, "g") == "9,87"
        assert number(3, language) == "3"  # a whole number has no separator
    assert number(2.5, "en") == "2.5" and number(0.8512, "en", ".2f") == "0.85"
    # digit groups, where a spec asks for them: CLDR's point or no-break space
    assert number(1234.5, "en", ",.1f") == "1,234.5"
    assert number(1234.5, "sr", ",.1f") == "1.234,5"
    assert number(1234.5, "cs", ",.1f") == "1\u00a0234,5"
    assert number(Decimal("0.5"), "pl") == "0,5"
    # in a template: formatted by the helper; `!r` and `!s` as typed
    fields = localized({"x": 2.5, "n": 3, "flag": True, "name": "1.5"}, "cs")
    assert isinstance(fields["x"], Numeral) and fields["flag"] is True
    assert "{x} {x:.2f} {x!r} {x!s} {n} {name}".format_map(fields) == "2,5 2,50 2.5 2.5 3 1.5"
    assert localized({"x": 2.5}, "en") == {"x": 2.5}


@pytest.mark.parametrize("language", list(PENALTY))
def test_a_ruling_with_a_fraction_in_each_language(language: str) -> None:
    said = format_ruling(_penalty(), language)
    assert said == PENALTY[language]
    assert ("2,5" in said) == (language != "en") and ("2.5" in said) == (language == "en")
    # the display's and `arbiter replay`'s line: the ruling's time too
    assert ruling_text(_penalty(), language).startswith(
        "    3,25" if language != "en" else "    3.25"
    )
    assert ruling_line(_penalty(), language).startswith(
        "     3,25" if language != "en" else "     3.25"
    )


@pytest.mark.parametrize("language", list(PENALTY))
def test_the_json_keeps_the_point(language: str) -> None:
    """The contract's fields are numbers in JSON (a point), whatever the message's language;
    the English message, which the golden digest hashes, is byte for byte what it was."""
    line = ruling_json(_penalty(), language)
    data = json.loads(line)
    assert data["t"] == 3.25 and data["seconds"] == 2.5
    assert '"t": 3.25' in line and '"seconds": 2.5' in line
    assert data["message"] == PENALTY[language]
    assert ruling_dict(_penalty())["message"] == "White receives 2.5 seconds (Art. 7.5.5)."


def test_the_clock_and_the_arbiter_s_actions() -> None:
    clock = ClockState(t=3.25, white=9.43, black=125.5, running="white", paused=False)
    assert format_ruling(clock) == "Clocks: White 9.4s, Black 2:05."
    assert "9,4" in format_ruling(clock, "cs") and "9.4" not in format_ruling(clock, "cs")
    added = ArbiterDid(t=4.5, side="white", article="6.11.2", action="add_time", seconds=12.5)
    assert "12,5 s" in format_ruling(added, "pl")
    assert format_ruling(added) == "The arbiter added 12.5 s to White's clock (Art. 6.11.2)."
    assert json.loads(ruling_json(added, "pl"))["seconds"] == 12.5
    # the display's clock face: tenths under ten seconds
    assert format_clock(9.87) == "0:09.8" and format_clock(9.87, "mk") == "0:09,8"
    assert format_clock(125.5, "cs") == "2:05"


@pytest.mark.parametrize("language", COMMA)
def test_an_error_with_a_fraction_in_each_language(language: str) -> None:
    """An error of ours (`ArbiterError.of`) says its numbers as the language writes them, and
    a pair of coordinates with a semicolon where the comma is the decimal separator."""
    error = ArbiterError.of(
        vision_messages.CORNER_OFF_PICTURE, name="top-left", x=12.5, y=30, width=640, height=480
    )
    said = error_text(error, language)
    assert "(12,5; 30)" in said, said
    assert "(12.5, 30)" in error_text(error, "en")
    moved = ArbiterError.of(vision_messages.BOARD_MOVED, squares=1.54)
    assert "1,5" in error_text(moved, language) and "1.5" in error_text(moved, "en")


def test_the_live_game_s_lines_and_the_time_control() -> None:
    assert "t=12,50" in resumed_note("game.jsonl", 12.5, "sr")
    assert "t=12.50" in resumed_note("game.jsonl", 12.5)
    control = read_club_time("180+2.5")
    assert describe(control, "cs") == "3 min + 2,5 s za tah, Fischer"
    assert describe(control) == "3 min + 2.5 s per move, Fischer"
    assert str(control) == "180+2.5"  # the syntax, as typed, in every language
    silent = Sensor(
        t=1.0,
        status="disconnected",
        detail=lost_detail(
            "/dev/ttyACM0: no byte for 2.5 s", "no byte", "/dev/ttyACM0", seconds=2.5
        ),
    )
    assert "/dev/ttyACM0: žádný bajt za 2,5 s" in (sensor_note(silent, "cs") or "")
    assert "/dev/ttyACM0: no byte for 2.5 s" in (sensor_note(silent) or "")
    assert silent.to_dict()["detail"] == "/dev/ttyACM0: no byte for 2.5 s"  # the journal's
    assert (
        quiet_note(Sensor(t=7.25, status="dropped", bytes=3), "pl")
        == "sensor zapisano w 7,25: brak decyzji"
    )


def test_the_web_page_writes_what_the_server_writes() -> None:
    """The page's table of decimal separators (its clocks before the server answered) is the
    server's helper's; `/api/strings` sends the language's own (`decimal`)."""
    text = APP_JS.read_text(encoding="utf-8")
    table = re.search(r"const DECIMAL = \{([^}]*)\}", text)
    assert table is not None
    pairs = dict(re.findall(r'(\w+): "(.)"', table.group(1)))
    assert pairs == {language: number(0.5, language, ".1f")[1] for language in LANGUAGES}
