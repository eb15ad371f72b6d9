"""The live game's own words in the game's language: the screen's incidents, the PGN's
comments on the arbiter's clock actions, the notes of the clocks' start and of a declined
offer, and the errors of typed commands; a declared result cites no article it lacks."""

from __future__ import annotations

import io

import pytest

from arbiter.i18n import error_text
from arbiter.live.commands import CommandError, parse_command
from arbiter.live.session import quiet_note, resumed_note, sensor_note
from arbiter.live.start_check import waiting_note
from arbiter.outputs.display import Display, ruling_text
from arbiter.records.pgn import pgn_from_rulings
from rules.events import (
    AddTime,
    Declare,
    Decline,
    Event,
    Lift,
    PauseClocks,
    Place,
    Press,
    Resume,
    Sensor,
    SetClock,
    Start,
)
from rules.game import Game
from rules.messages import format_ruling
from rules.rulings import GameOver, Ruling

LANGUAGES = ("sr", "bs", "mk", "cs", "pl", "sr_Cyrl")


def test_a_declared_result_without_a_reason_cites_no_article() -> None:
    game = Game(Start(t=0, time_control="300+2"))
    (over,) = [r for r in game.handle(Declare(t=1, result="1-0")) if isinstance(r, GameOver)]
    assert over.article is None
    assert format_ruling(over) == "The game is over: 1-0, the arbiter's decision."
    for language in ("en", *LANGUAGES):
        assert "None" not in format_ruling(over, language)
        assert "None" not in ruling_text(over, language)
    assert format_ruling(over, "cs") == "Partie skončila: 1-0, rozhodnutí rozhodčího."


def _game_with_clock_actions() -> tuple[Start, list[Event], list[Ruling]]:
    start = Start(t=0, time_control="300+2")
    events: list[Event] = [
        Lift(t=1, square="e2", piece="P"),
        Place(t=2, square="e4", piece="P"),
        Press(t=3, side="white"),
        PauseClocks(t=4),
        AddTime(t=5, side="black", seconds=30.5),
        SetClock(t=6, white=250, black=240),
        Resume(t=7),
    ]
    game = Game(start)
    rulings = [r for e in events for r in game.handle(e)]
    return start, events, rulings


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["The arbiter stopped the clocks (Art. 6.11.1).",
                "The arbiter added 30.5 s to Black's clock (Art. 6.11.3).",
                "The arbiter set the clocks: White 4:10, Black 4:00 (Art. 6.10.2).",
                "The arbiter restarted the clocks (Art. 6.11.1)."]),
        ("sr", ["Sudija je zaustavio sat (čl. 6.11.1).",
                "Sudija je dodao 30,5 s na sat Crnog (čl. 6.11.3).",
                "Sudija je podesio sat: Beli 4:10, Crni 4:00 (čl. 6.10.2)."]),
        ("pl", ["Sędzia zatrzymał zegar (art. 6.11.1).", "Sędzia ponownie uruchomił zegar"]),
        ("mk", ["Судијата го запре часовникот (чл. 6.11.1)."]),
        ("sr_Cyrl", ["Судија је зауставио сат (чл. 6.11.1)."]),
    ],
)  # fmt: skip
def test_the_arbiters_clock_actions_in_the_pgn_in_the_games_language(
    language: str, words: list[str]
) -> None:
    start, _events, rulings = _game_with_clock_actions()
    text = pgn_from_rulings(start, rulings, language=language)
    for w in words:
        assert w in text
    if language != "en":
        assert "arbiter" not in text.split("\n\n", 1)[1]  # the movetext: no English left


def test_the_screen_in_a_language_and_in_ascii() -> None:
    game = Game(Start(t=0, time_control="300+2", white="Ана", black="Đorđe"))
    out = io.StringIO()
    display = Display(out, tty=True, title="t", language="mk")
    display.attach(game)
    events = [Lift(t=1, square="e2", piece="P"), Place(t=2, square="e4", piece="P")]
    display.show([r for e in events for r in game.handle(e)], 2.0)
    screen = display.render(2.0)
    assert "Настани: нема" in screen and "Последно: " in screen
    display.ascii_only = True
    plain = display.render(2.0)
    assert plain.isascii()
    assert "Nastani: nema" in plain and "Ana" in plain and "Djordje" in plain


@pytest.mark.parametrize(
    ("text", "language", "says"),
    [
        ("declare", "sr", "declare traži rezultat: 1-0, 0-1 ili 1/2-1/2"),
        ("declare 2-0", "cs", "declare '2-0': výsledek je 1-0, 0-1 nebo 1/2-1/2"),
        ("lift z9", "pl", "'z9' nie jest polem (a1 do h8)"),
        ("setclock 5:00", "mk", "setclock бара време на Белиот и на Црниот"),
        ("frobnicate", "bs", "'frobnicate' nije komanda; type: e2e4"),
        ("add white 500:00:00", "sr_Cyrl", "'500:00:00' је више од 100 сати"),
        ("declare", "en", "declare needs a result: 1-0, 0-1 or 1/2-1/2"),
    ],
)
def test_typed_command_errors_in_the_games_language(text: str, language: str, says: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse_command(text)
    assert says in error_text(caught.value, language)


def test_the_sessions_notes_in_a_language() -> None:
    game = Game(Start(t=0, time_control="300+2"))
    assert quiet_note(Decline(t=1, side="black"), "pl") == (
        "Czarne odrzucają propozycję remisu (art. 9.1.2.1)."
    )
    assert quiet_note(Decline(t=1, side="white")) == (
        "White declines the draw offer (Art. 9.1.2.1)."
    )
    assert waiting_note(game, "sr").startswith("postavite figure u početnu poziciju")
    assert waiting_note(game) == (
        "set up the pieces in the start position: the clocks start when Black presses"
    )
    sensor = Sensor(t=1, status="camera_moved", detail="12 px")
    assert sensor_note(sensor, "cs") == "kamera se pohnula: 12 px"


def test_the_resumed_games_line_in_a_language() -> None:
    assert resumed_note("g.jsonl", 12.5) == "resumed the game of g.jsonl at t=12.50"
    assert resumed_note("g.jsonl", 12.5, "cs") == "partie z g.jsonl pokračuje v t=12,50"
