"""The camera's calibration, the GPIO pin map, `arbiter decode`, the web page's server, the
hall's and the drills' refusals in the user's language (issue 15 item 1): each run through the
`arbiter` command in this process, one line on stderr, no traceback, and no English word of
ours left beyond what is typed as it stands (file names, options, quoted values, numbers)."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from tests.cli_inprocess import run_cli

TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: English words of the messages under test; none may be left in a translated line
ENGLISH = {
    "the", "picture", "pictures", "is", "too", "small", "find", "board", "in", "at", "least",
    "on", "each", "side", "camera", "calibration", "needs", "no", "chessboard", "found", "give",
    "four", "corners", "corner", "of", "playing", "area", "image", "top", "left", "right",
    "bottom", "or", "click", "them", "browser", "must", "be", "exactly", "pairs", "off",
    "this", "such", "file", "device", "number", "not", "line", "seconds", "more", "hex",
    "bytes", "byte", "one", "events", "event", "dropped", "nothing", "places",
    "place", "raw", "stamped", "wire", "rate", "for", "reading", "replay", "unknown", "try",
    "protocol", "known", "from", "already", "use", "another",
    "game", "choose", "page", "names", "name", "pin", "list", "GPIOs", "none",
    "header", "are", "both", "given", "above", "boards", "results", "pairings", "round's",
    "calibrate", "square", "squares", "empty", "white", "black", "piece", "read", "as",
    "misreads", "its", "own", "photo", "check", "position", "hand", "shadow", "take",
    "again", "keep", "anyway", "expected", "object", "like", "times", "run", "backwards",
    "comes", "before", "previous", "cannot", "installed", "install",
}  # fmt: skip
#: what stays as typed: paths, quoted values, options, host:port, x,y and WxH, key=value,
#: the command's name, pip's and apt's command lines, library and protocol names
KEPT = re.compile(
    r"\S*/\S*|'[^']*'|\"[^\"]*\"|--[\w-]+|\S+:\d+|\S*=\S*|arbiter \w+|\d+x\d+"
    r"|\S+\.(?:png|jsonl|toml)|pip install \S+|(?:[\w-]+, )+[\w-]+"
    r"|\b(?:RPi\.GPIO|GPIO|BCM|JSON|DGT|OpenCV|Raspberry Pi)\b"
)


def english_left(text: str) -> set[str]:
    said = KEPT.sub(" ", text)
    return {w for w in re.findall(r"[^\W\d_]+", said) if w in ENGLISH or w.lower() in ENGLISH}


def refused(*argv: str, cwd: Path, lines: int = 1) -> str:
    """The last line `arbiter ARGV` says on stderr, after checking it refused with `lines`
    lines (`arbiter decode` says how far it came before the fault)."""
    done = run_cli(*argv, cwd=cwd)
    assert done.returncode == 2, (argv, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == lines, done.stderr
    return done.stderr.splitlines(keepends=True)[-1]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pictures (a tiny one, a plain grey one), captures, configs and a stream, in a folder."""
    from vision.cvload import cv2, np

    folder = tmp_path_factory.mktemp("devices")
    cv2().imwrite(str(folder / "tiny.png"), np().zeros((8, 8, 3), np().uint8))
    cv2().imwrite(str(folder / "grey.png"), np().full((480, 640, 3), 128, np().uint8))
    captures = {
        "hex": '{"t": 0, "rx": "zz"}',
        "t": '{"t": -1, "rx": "00"}',
        "which": '{"t": 1}',
        "back": '{"t": 5, "rx": "00"}\n{"t": 4, "rx": "00"}',
        "object": "[1]\n",
    }
    for name, text in captures.items():
        (folder / f"{name}.jsonl").write_text(text + "\n", encoding="utf-8")
    configs = {
        "range": "[gpio.pins]\nclaim_white = 99\n",
        "twice": "[gpio.pins]\nclaim_white = 5\nclaim_black = 5\n",
        "name": "[gpio.pins]\npress_white = 4\n",
        "matrix": "[gpio.pins]\nmatrix_rows = [1]\n",
    }
    for name, text in configs.items():
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    (folder / "game.jsonl").write_text('{"t": 0, "type": "start"}\n', encoding="utf-8")
    return folder


CALIBRATE = [
    ("--image", "missing.png"),
    ("--image", "tiny.png"),
    ("--image", "grey.png"),
    ("--image", "grey.png", "--corners", "1,2"),
    ("--image", "grey.png", "--corners", "0,0 900,0 900,400 0,400"),
    ("--image", "grey.png", "--corners", "0,0 600,400 600,0 0,400"),
]


@pytest.mark.parametrize("language", TRANSLATED)
def test_calibrate_refuses_in_the_language(language: str, files: Path) -> None:
    for argv in CALIBRATE:
        text = refused("calibrate", *argv, "--out", "c.json", "--lang", language, cwd=files)
        english = refused("calibrate", *argv, "--out", "c.json", "--lang", "en", cwd=files)
        assert english_left(text) == set(), f"{language} {argv}: {text}"
        assert text != english


def test_calibrate_in_polish_and_serbian(files: Path) -> None:
    corners = ("--corners", "0,0 900,0 900,400 0,400", "--out", "c.json")
    pl = refused("calibrate", "--image", "grey.png", *corners, "--lang", "pl", cwd=files)
    assert pl.endswith("narożnik prawy górny (900; 0) leży poza zdjęciem (640x480): podaj "
                       "narożniki tego zdjęcia\n"), pl  # fmt: skip
    sr = refused("calibrate", "--image", "tiny.png", "--out", "c.json", "--lang", "sr", cwd=files)
    assert "slika ima 8x8 piksela: premala je" in sr
    cyrl = refused("calibrate", "--image", "grey.png", *corners, "--lang", "sr_Cyrl", cwd=files)
    assert "угао горе десно (900; 0) је изван слике (640x480)" in cyrl


def test_a_bad_camera_value_is_a_usage_error_in_the_language(files: Path) -> None:
    done = run_cli("calibrate", "--camera", "x", "--out", "c.json", "--lang", "cs", cwd=files)
    assert done.returncode == 2
    assert "kamera musí být číslo zařízení nebo 'picam', ne 'x'" in done.stderr, done.stderr


@pytest.mark.parametrize("language", TRANSLATED)
def test_misread_squares_are_said_in_the_language(language: str) -> None:
    """The self-check's refusal names each square with what it was read as, in words of the
    language (a nested template and words, `rules.i18n.Joined`)."""
    from arbiter.i18n import error_text
    from vision.errors import CalibrationMisread

    error = CalibrationMisread([("e4", ".", "X"), ("d5", "x", ".")])
    text = error_text(error, language)
    assert "e4" in text and "d5" in text and "--accept-misread" in text
    assert english_left(text) == set(), f"{language}: {text}"
    assert str(error).startswith("the calibration misreads its own photo on 2 square(s): e4 "
                                 "read as a white piece, not empty; d5 read as empty")  # fmt: skip
    if language == "pl":
        assert "e4 odczytane jako biała bierka, a nie puste; d5 odczytane jako puste" in text


@pytest.mark.parametrize("language", TRANSLATED)
def test_decode_refuses_a_bad_capture_in_the_language(language: str, files: Path) -> None:
    for name in ("hex", "t", "which", "back"):
        argv = ("decode", "--protocol", "dgt", f"{name}.jsonl")
        text = refused(*argv, "--lang", language, cwd=files, lines=2)
        assert f"{name}.jsonl" in text and re.search(r"\b[12]\b", text), text
        assert english_left(text) == set(), f"{language} {name}: {text}"
    text = refused("decode", "--protocol", "novag", "t.jsonl", "--lang", language, cwd=files)
    assert "'novag'" in text and english_left(text) == set(), f"{language}: {text}"


@pytest.mark.parametrize("language", ["sr", "pl", "mk"])
def test_the_decode_summary_in_the_language(language: str, files: Path) -> None:
    done = run_cli("decode", "--protocol", "dgt", "object.jsonl", "--lang", language, cwd=files)
    assert done.returncode == 0, done.stderr
    note, summary = done.stderr.splitlines()
    # the codec's reason for the drop stays as the codec says it (in parentheses)
    assert english_left(note) == set() and english_left(summary.split("(")[0]) == set(), summary
    want = {"sr": "0 događaja; odbačeno 5 bajtova na 1 mestu", "pl": "0 zdarzeń; odrzucono 5 "
            "bajtów w 1 miejscu", "mk": "0 настани; отфрлени 5 бајти на 1 место"}  # fmt: skip
    assert want[language] in summary, summary


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bad_pin_map_is_said_in_the_language(language: str, files: Path) -> None:
    for name in ("range", "twice", "name", "matrix"):
        argv = ("play", "--gpio", "fake", "--config", f"{name}.toml", "--display", "plain")
        text = refused(*argv, "--lang", language, cwd=files)
        assert f"{name}.toml [gpio.pins]" in text, text
        assert english_left(text) == set(), f"{language} {name}: {text}"


def test_a_gpio_that_does_not_exist_in_serbian_and_czech(files: Path) -> None:
    argv = ("play", "--gpio", "fake", "--config", "range.toml", "--display", "plain")
    sr = refused(*argv, "--lang", "sr", cwd=files)
    assert sr.endswith("'claim_white' = 99: GPIO pinovi na konektoru su BCM 2–27\n"), sr
    cs = refused(*argv, "--lang", "cs", cwd=files)
    assert cs.endswith("'claim_white' = 99: piny GPIO na konektoru jsou BCM 2–27\n"), cs


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_web_page_refusals_in_the_language(language: str, files: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        for where in ("99999", "x:y", f"127.0.0.1:{port}"):
            argv = ("play", "--events", "game.jsonl", "--web", where, "--display", "plain")
            text = refused(*argv, "--lang", language, cwd=files)
            assert english_left(text) == set(), f"{language} {where}: {text}"
    assert "8081" in text  # the busy port's line says which port to try


@pytest.mark.parametrize("language", TRANSLATED)
def test_hall_and_teach_refusals_in_the_language(language: str, files: Path) -> None:
    cases = [
        ("hall", "--demo", "0"),
        ("hall", "--demo", "1", "--speed", "0"),
        ("teach", "--board", "dgt-sim", "--camera", "0", "--pupil", "Ana"),
    ]
    for argv in cases:
        text = refused(*argv, "--lang", language, cwd=files)
        assert english_left(text) == set(), f"{language} {argv}: {text}"


#: FENs python-chess cannot read, or reads as a position the Laws do not allow
BAD_FENS = [
    "xyz",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "kk6/8/8/8/8/8/8/K7 w - - 0 1",
]
#: python-chess's own English words for them
CHESS_ENGLISH = {
    "expected", "rows", "position", "part", "fen", "turn", "invalid", "fullmove", "number",
    "string", "has", "more", "parts", "than", "king", "kings", "many", "too", "empty", "white",
    "black", "legal", "chess", "cannot", "read",
}  # fmt: skip


@pytest.mark.parametrize("language", TRANSLATED)
def test_python_chess_reasons_for_a_bad_fen_are_said_in_the_language(
    language: str, files: Path
) -> None:
    """`arbiter position` and a stream's `start` with a FEN python-chess refuses: its reason
    (and the names of an impossible position's faults) in the language, not python-chess's."""
    for fen in BAD_FENS:
        done = run_cli("position", "--lang", language, stdin=fen + "\n", cwd=files)
        stream = files / "fen.jsonl"
        stream.write_text(f'{{"t": 0, "type": "start", "fen": "{fen}"}}\n', encoding="utf-8")
        replayed = refused("replay", str(stream), "--lang", language, cwd=files)
        for text in (done.stderr, replayed):
            said = KEPT.sub(" ", text.replace(fen, " "))
            left = {w for w in re.findall(r"[^\W\d_]+", said) if w in CHESS_ENGLISH}
            assert left == set(), f"{language} {fen!r}: {text}"


def test_a_bad_fen_in_polish_and_english(files: Path) -> None:
    done = run_cli("position", "--lang", "pl", stdin="xyz\n", cwd=files)
    assert done.stderr.endswith("błędny FEN 'xyz': ustawienie musi mieć 8 linii\n"), done.stderr
    done = run_cli("position", "--lang", "pl", stdin="8/8/8/8/8/8/8/8 w - - 0 1\n", cwd=files)
    assert "brak białego króla, brak czarnego króla, puste" in done.stderr, done.stderr
    english = run_cli("position", "--lang", "en", stdin="xyz\n", cwd=files)
    assert english.stderr.endswith("expected 8 rows in position part of fen: 'xyz'\n")


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_port_that_is_no_serial_port_is_said_in_the_language(language: str, files: Path) -> None:
    """pyserial's "Could not configure port: (25, ...)" and "[Errno 21] could not open port"
    become our words, by the system's error number."""
    for device in ("/dev/null", str(files)):
        argv = ("play", "--board", f"dgt:{device}", "--display", "plain")
        text = refused(*argv, "--lang", language, cwd=files)
        assert device in text and "Errno" not in text and "configure" not in text, text
        assert english_left(text) == set(), f"{language} {device}: {text}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_arbiter_boards_lines_in_the_language(language: str) -> None:
    """`arbiter boards`: an unknown device's hint and "no board found" in the language; the
    devices' names and discovery's notes stay as found."""
    import io

    from arbiter.cli.boards import report
    from firmware_bridge.discovery import Discovery, Found

    unknown = Found("serial", "/dev/ttyUSB1", "unknown serial device", None, "1234:5678")
    out = io.StringIO()
    assert report(Discovery(found=[unknown]), out, language) == 1
    line = out.getvalue().replace("unknown serial device", " ")
    assert "--board auto:/dev/ttyUSB1" in line and english_left(line) == set(), line
    out = io.StringIO()
    assert report(Discovery(), out, language) == 1
    assert english_left(out.getvalue()) == set() and out.getvalue() != "no board found\n"
