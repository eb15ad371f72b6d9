"""Why the side that would win cannot mate, shown where the players and the arbiter read it
(issue 19 item 3; FIDE 6.9, 5.2.2, 5.1.2, 7.5.5).

A `game_over` drawn because the winner cannot mate carries the reason twice: `explanation`,
the contract's English, and `why`, the typed reasons, which the one formatter says in the
players' language. So the sentence of the ruling, and with it the terminal, the page's feed,
the PGN's comment and `arbiter replay`, say why, in every language; a ruling read back from
JSON keeps the English. A flag the analysis left undecided is followed by a note that says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from event_script import Script, of

from arbiter import i18n
from arbiter.cli import main as cli_main
from arbiter.cli.localize import use_language
from arbiter.records.pgn import pgn_from_rulings
from arbiter.web.feed import sentences
from rules import ending
from rules.events import Declare, Start
from rules.game import Game
from rules.messages import format_ruling, ruling_dict
from rules.rulings import GameOver, parse_ruling

#: pawns rammed on every file, kings behind them: neither side can ever mate
CLOSED_WALL = "7k/8/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/K7 w - - 0 1"
#: rammed pawns where Black can mate only after a long walk (not within one position)
LOCKED = "8/8/5k2/2p1p3/2P1P3/8/8/4K3 w - - 0 1"

#: a word of the blocked-pawns reason in each language (from the catalogues)
BLOCKED_WORD = {
    "en": "blocked for good",
    "sr": "blokiranih pešaka",
    "sr_Cyrl": "блокираних пешака",
    "bs": "blokiranih",
    "mk": "блокирани",
    "cs": "zablokovan",
    "pl": "zablokowanych",
}


def _drawn_on_time() -> GameOver:
    rulings = Script(CLOSED_WALL, time_control="60").tick(61).rulings()
    over = of(rulings, "game_over")[0]
    assert isinstance(over, GameOver) and over.reason == "time_dead_position"
    return over


def test_the_sentence_of_the_draw_says_why_in_every_language() -> None:
    over = _drawn_on_time()
    assert over.explanation and "blocked for good" in over.explanation
    for language, word in BLOCKED_WORD.items():
        text = format_ruling(over, language)
        assert word.lower() in text.lower(), (language, text)
    assert format_ruling(over).endswith(over.explanation + ".")


def test_the_page_gets_the_reason_in_its_language() -> None:
    over = _drawn_on_time()
    by_language = sentences(over)
    assert "blokiranih pešaka" in by_language["sr"]
    assert "блокирани" in by_language["mk"]
    assert ruling_dict(over)["explanation"] == over.explanation


def test_a_ruling_read_back_from_json_keeps_the_english_reason() -> None:
    over = _drawn_on_time()
    again = parse_ruling(json.loads(json.dumps(ruling_dict(over))))
    assert isinstance(again, GameOver) and again == over and not again.why
    # no typed reasons: the English explanation stands in every language
    assert over.explanation is not None and over.explanation in format_ruling(again, "pl")


def test_the_pgn_comment_says_why_in_the_game_s_language() -> None:
    rulings = Script(CLOSED_WALL, time_control="60").tick(61).rulings()
    start = Start(t=0.0, fen=CLOSED_WALL, time_control="60")
    pgn = pgn_from_rulings(start, rulings, language="pl")
    assert "zablokowanych" in pgn and "1/2-1/2" in pgn


def test_arbiter_replay_prints_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stream = tmp_path / "wall.jsonl"
    stream.write_text(
        json.dumps({"t": 0.0, "type": "start", "fen": CLOSED_WALL, "time_control": "60"})
        + "\n"
        + json.dumps({"t": 61.0, "type": "tick"})
        + "\n",
        encoding="utf-8",
    )
    try:
        assert cli_main(["replay", str(stream), "--lang", "cs"]) == 0
    finally:  # the program's language back to English for the tests after this one
        i18n.request(None)
        use_language("en")
    assert "zablokovan" in capsys.readouterr().out


def test_a_flag_left_undecided_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ending, "RULING_BUDGET", 1)
    rulings = Script(LOCKED, time_control="60").tick(61).rulings()
    note = of(rulings, "note")[0]
    assert "the arbiter decides whether the opponent" in format_ruling(note)
    assert "sudija odlučuje da li protivnik" in format_ruling(note, "sr")
    assert not of(rulings, "game_over")


def test_the_arbiter_s_own_words_for_a_declared_result_are_kept() -> None:
    """12.2: `declare 1-0 did not come to the board` (the terminal joins the words with _)."""
    game = Game(Start(t=0.0, time_control="60"))
    over = of(game.handle(Declare(t=1.0, result="1-0", reason="did_not_come to  the board")),
              "game_over")[0]
    assert isinstance(over, GameOver) and over.reason == "arbiter_decision"
    assert over.explanation == "did not come to the board"
    assert format_ruling(over) == (
        "The game is over: 1-0, the arbiter's decision (did not come to the board)."
    )
    assert format_ruling(over, "pl").startswith("Partia zakończona: 1-0")
    assert "(did not come to the board)" in format_ruling(over, "pl")
    # a reason of the contract is no free text: no explanation
    agreed = of(Game(Start(t=0.0)).handle(Declare(t=1.0, result="1/2-1/2", reason="agreement")),
                "game_over")[0]
    assert isinstance(agreed, GameOver) and agreed.explanation is None
