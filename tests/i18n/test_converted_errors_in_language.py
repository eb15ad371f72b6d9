"""Refusals once raised with English-only f-strings, now raised with catalogue templates
(issue 15): each run through the `arbiter` command with the bad input, said in every other
language with no English word of ours left, and in English as before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter import i18n
from firmware_bridge import source
from firmware_bridge.errors import DetectionError
from rules.i18n import LANGUAGES, Counted
from tests.cli_inprocess import run_cli

TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: English words of the messages under test; none may be left in a translated line
ENGLISH = {
    "an", "the", "of", "is", "not", "must", "be", "at", "least", "whole", "number",
    "period", "move", "count", "time", "control", "increment", "finite", "seconds",
    "needs", "true", "or", "switch", "board", "map", "has", "none", "pin",
    "virtual", "speaks", "boards", "identifier", "five", "numbers", "from",
    "piece", "letter", "clock", "rose", "over", "more", "than", "press", "credits", "does",
    "that", "so", "stream", "cannot", "reproduce", "it", "game", "journal", "its", "was",
    "played", "by", "and", "demo", "inputs", "ended", "with", "they", "reopened", "keeps",
    "as", "far", "went", "writes", "record", "play", "name", "got",
    "found", "one", "empty", "square", "reading", "known", "answered", "tried", "baud",
    "illegal", "san", "games", "range",
}  # fmt: skip
#: what stays as typed: quoted values, options, paths, `arbiter CMD ...` in backquotes,
#: the config's [tables], lists of protocols, PGN moves, true and false, FIDE, 'x,y'
KEPT = re.compile(
    r"'[^']*'|`[^`]*`|--[\w-]+|\S*/\S*|\S*:\S*|\[[\w.]+\]|arbiter \w+|\b[KQRBN]?[a-h][1-8]\b"
    r"|(?:[\w-]+, )+[\w-]+|\btrue\b|\bfalse\b|\bFIDE\b|\bFEN\b|\S+\.(?:pgn|jsonl|json|toml)\b"
)


def english_left(text: str) -> set[str]:
    said = KEPT.sub(" ", text)
    return {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    here = tmp_path_factory.mktemp("converted")
    files = {
        "verdict.jsonl": '{"t": 0, "type": "start"}\n'
        '{"t": 1, "type": "arbiter", "action": "claim_verdict", "valid": 3}\n',
        "nomatrix.toml": "[gpio.pins]\nmatrix_rows = []\nmatrix_cols = []\n",
        "scan_inf.toml": "[gpio.matrix]\nscan_hz = inf\n",
        "badkey.json": '{"format": "otb-arbiter/certabo-calibration", "version": 1, '
        '"pieces": {"1 2 3": "P"}}',
        "badletter.json": '{"format": "otb-arbiter/certabo-calibration", "version": 1, '
        '"pieces": {"1 2 3 4 5": "X"}}',
        "rise.pgn": '[Result "*"]\n[TimeControl "300+2"]\n\n1. e4 {[%clk 0:04:58]} '
        "e5 {[%clk 0:04:59]} 2. Nf3 {[%clk 0:05:30]} *\n",
        "demo-game.jsonl": '{"t": 0, "type": "start", "sources": ["demo"]}\n'
        '{"t": 1.0, "type": "press", "side": "black"}\n',
        "virtual-game.jsonl": '{"t": 0, "type": "start", '
        '"sources": ["board:dgt:/tmp/otb-virtual-gone-h15/dgt"]}\n',
        "empty.bin": "",
        "illegal.pgn": '[Event "x"]\n\n1. e4 e5 2. Qxf7 *\n',
        "five.pgn": "".join(f'[Event "{n}"]\n\n1. e4 *\n\n' for n in range(5)),
    }
    for name, text in files.items():
        (here / name).write_text(text, encoding="utf-8")
    return here


#: (argv, what the English line ends with: unchanged by the conversion)
CASES = [
    (
        ["play", "--tc", "0/300", "--display", "plain"],
        "--tc: time control '0/300': a period's move count must be a whole number of at"
        " least 1, not 0",
    ),
    (
        ["play", "--tc", "300+" + "9" * 400, "--display", "plain"],
        "--tc: an increment must be a finite number of seconds, not inf",
    ),
    (
        ["replay", "verdict.jsonl"],
        "verdict.jsonl: line 2: 'claim_verdict' needs 'valid', true or false",
    ),
    (
        ["play", "--board", "gpio-matrix", "--gpio", "fake", "--config", "nomatrix.toml",
         "--display", "plain"],
        "a reed-switch board needs 'matrix_rows' and 'matrix_cols' in [gpio.pins]; the pin"
        " map has none",
    ),
    (
        ["play", "--board", "gpio-matrix", "--gpio", "fake", "--config", "scan_inf.toml",
         "--display", "plain"],
        "scan_inf.toml [gpio.matrix]: 'scan_hz' = inf; it must be a number, 50 or more",
    ),  # once the reed matrix's own English check of a scan period of 0.0 s
    (
        ["teach", "--board", "foo-sim"],
        "--board foo-sim: no virtual board speaks 'foo'; virtual boards: dgt, millennium,"
        " certabo, sentio, eone, pegasus, chessnut, chessnut-ble, millennium-ble",
    ),
    (
        ["decode", "--protocol", "certabo", "--calibration", "badkey.json", "empty.bin"],
        "badkey.json: '1 2 3' is not an identifier (five numbers from 0 to 255)",
    ),
    (
        ["decode", "--protocol", "certabo", "--calibration", "badletter.json", "empty.bin"],
        "badletter.json: 'X' is not a FEN piece letter",
    ),
    (
        ["simulate", "rise.pgn"],
        "rise.pgn, game 1: move 2. Nf3: the clock rose from 298.0 s to 330.0 s over the move"
        " (more than the 2 s a press credits); no FIDE clock does that, so the stream cannot"
        " reproduce it",
    ),
    (
        ["simulate", "illegal.pgn"],
        "illegal.pgn, game 1: illegal san: 'Qxf7' in"
        " rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ),  # python-chess's reason, in our words in the other languages
    (
        ["simulate", "five.pgn", "--game", "9"],
        "five.pgn has 5 games, so --game 9 is out of range",
    ),
    (
        ["resume", "demo-game.jsonl"],
        "journal demo-game.jsonl: its game was played by `arbiter demo`, and the demo's"
        " inputs ended with it: they cannot be reopened. The journal keeps the game as far as"
        " it went (`arbiter pgn demo-game.jsonl` writes its record); to play it on, name the"
        " inputs, e.g. `arbiter resume demo-game.jsonl --board dgt:/dev/ttyACM0` or"
        " `--events FILE`",
    ),
    (
        ["resume", "virtual-game.jsonl"],
        "journal virtual-game.jsonl: its game was played on a virtual board"
        " (/tmp/otb-virtual-gone-h15/dgt), which ended with the program that made it: it"
        " cannot be reopened.",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "english"), CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_a_converted_refusal_in_every_language(argv: list[str], english: str, folder: Path) -> None:
    done = run_cli(*argv, "--lang", "en", cwd=folder)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert english in done.stderr, done.stderr
    for language in TRANSLATED:
        said = run_cli(*argv, "--lang", language, cwd=folder)
        assert said.returncode == 2 and "Traceback" not in said.stderr, said.stderr
        assert said.stderr.count("\n") == 1, said.stderr
        assert said.stderr != done.stderr, (language, said.stderr)
        assert english_left(said.stderr) == set(), f"{language} {argv}: {said.stderr}"


def test_the_converted_refusals_in_serbian_and_polish(folder: Path) -> None:
    sr = run_cli("teach", "--board", "foo-sim", "--lang", "sr", cwd=folder).stderr
    assert "nijedna virtuelna tabla ne govori 'foo'" in sr, sr
    pl = run_cli("play", "--tc", "0/300", "--lang", "pl", "--display", "plain", cwd=folder)
    assert "liczba posunięć okresu musi być liczbą całkowitą, co najmniej 1, a nie 0" in (
        pl.stderr
    ), pl.stderr
    five = {lang: run_cli("simulate", "five.pgn", "--game", "9", "--lang", lang, cwd=folder)
            for lang in ("sr", "pl", "cs")}  # fmt: skip
    assert "five.pgn ima 5 partija, pa je --game 9 van opsega" in five["sr"].stderr
    assert "five.pgn ma 5 partii, więc" in five["pl"].stderr
    assert "five.pgn má 5 partií, takže" in five["cs"].stderr
    cs = run_cli("simulate", "rise.pgn", "--lang", "cs", cwd=folder).stderr
    assert "partie 1: tah 2. Nf3: hodiny během tahu vzrostly z 298,0 s na 330,0 s" in cs, cs


@pytest.mark.parametrize("language", ["en", "sr", "pl"])
@pytest.mark.parametrize("bad", ["x", "0"])
def test_position_budget_in_the_language(language: str, bad: str) -> None:
    """argparse's refusal of `--budget` carries our reason, in the language of argparse."""
    done = run_cli("position", "--budget", bad, "--lang", language)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    last = done.stderr.splitlines()[-1]
    english = {"x": "not a whole number: 'x'", "0": "must be at least 1, got 0"}[bad]
    if language == "en":
        assert last.endswith(f"argument --budget: {english}"), last
    else:
        assert english_left(last.split("--budget:")[1]) == set(), last


@pytest.mark.parametrize(
    ("language", "count", "said"),
    [
        ("en", 2, "2 boards"), ("en", 21, "21 boards"),
        ("sr", 2, "2 table"), ("sr", 5, "5 tabli"), ("sr", 21, "21 tabla"),
        ("pl", 2, "2 szachownice"), ("pl", 5, "5 szachownic"), ("pl", 22, "22 szachownice"),
        ("cs", 3, "3 šachovnice"), ("cs", 5, "5 šachovnic"),
        ("mk", 2, "2 табли"), ("mk", 21, "21 табла"),
    ],
)  # fmt: skip
def test_several_boards_found_is_counted_in_the_language(
    language: str, count: int, said: str
) -> None:
    """`--board auto` finding several boards says how many with the number's plural form."""
    specs = ", ".join(f"dgt:/dev/ttyUSB{n}" for n in range(count))
    error = DetectionError.of(
        source.SEVERAL_BOARDS, boards=Counted(source.BOARDS, count), specs=specs
    )
    text = i18n.error_text(error, language)
    assert f" {said} " in text, text
    if language == "en":
        assert str(error) == f"--board auto: {count} boards found ({specs}): name one with --board"
    else:
        assert english_left(text) == set(), text


@pytest.fixture(scope="module")
def photo(shared: Path) -> tuple[str, str, str]:
    """A labelled photo of a board: its file, its corners, its position."""
    import json

    data = shared / "data" / "vision"
    labels = json.loads((data / "labels.json").read_text(encoding="utf-8"))
    ref = next(i for i in labels["images"] if i["file"] == "uschess/IMG_4755.jpg")
    corners = " ".join(f"{x},{y}" for x, y in ref["corners"])
    return str(data / ref["file"]), corners, ref["fen"]


@pytest.mark.parametrize("language", ["en", "sr", "pl", "mk"])
def test_camera_calibration_faults_in_the_language(
    language: str, photo: tuple[str, str, str], tmp_path: Path
) -> None:
    """A calibration position without White's pieces, and a calibration file whose reference
    picture or square model is damaged (`vision.model`, `vision.registration`)."""
    import base64
    import json

    image, corners, fen = photo
    no_white = run_cli(
        "calibrate", "--image", image, "--corners", corners, "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/8/8", "--out", str(tmp_path / "x.json"), "--lang", language,
    )  # fmt: skip
    cal = tmp_path / "cal.json"
    made = run_cli("calibrate", "--image", image, "--corners", corners, "--fen", fen,
                   "--out", str(cal))  # fmt: skip
    assert made.returncode == 0, made.stderr
    good = json.loads(cal.read_text(encoding="utf-8"))
    damaged = {
        "b64": {**good, "reference": "!!!"},
        "png": {**good, "reference": base64.b64encode(b"hello").decode()},
        "model": {**good, "model": {k: v for k, v in good["model"].items() if k != "means"}},
        "unreadable": {**good, "model": 5},
        "levels": {**good, "levels": []},  # once an IndexError's traceback
        # once a ValueError's traceback: a square's own score, a centre's contrast
        "own": {**good, "outline": {**good["outline"], "own": "x"}},
        "contrast": {**good, "outline": {**good["outline"], "contrast": [1, 2, 3]}},
    }
    lines = [no_white]
    for name, doc in damaged.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        argv = ("snapshot", "--image", image, "--calibration", str(path), "--lang", language)
        lines.append(run_cli(*argv))
    for done in lines:
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
    said = [done.stderr.split(": ", 1)[1].strip() for done in lines]
    for name in ("levels", "own", "contrast"):
        said = [text.removeprefix(f"{tmp_path / name}.json: ") for text in said]
    if language == "en":
        assert said == [
            "the calibration position has no white piece to learn from; use a position with"
            " white and black pieces and empty squares",
            "the calibration's reference image is not base64",
            "the calibration's reference image is not a PNG",
            "the square model lacks 'means'",
            "the calibration's square model cannot be read",
            "the calibration's 'levels' cannot be read",
            "the calibration's 'outline' cannot be read",
            "the calibration's 'outline' cannot be read",
        ]
    else:
        for text in said:
            left = english_left(text.replace("base64", " ").replace("PNG", " "))
            assert left == set(), f"{language}: {text}"
