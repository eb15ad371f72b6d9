"""Errors and the hall's lines in the reader's language (issue 15 item 1, issue 14's alarms):
a malformed event line, a bad setting in a config file, a board's port that cannot be
opened, a hall alarm, and `arbiter hall`'s start lines, each run through the `arbiter`
command in this process, with no English word of ours left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter import i18n
from arbiter.hall.alarms import Wording
from arbiter.hall.station import Station
from arbiter.hall.topics import BrokerAddress, encode
from firmware_bridge import transport
from rules.i18n import LANGUAGES
from tests.cli_inprocess import run_cli

TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: English words of the messages under test; none may be left in a translated line
ENGLISH = {
    "line", "must", "not", "the", "event", "events", "stream", "config", "unknown", "key",
    "tables", "are", "setting", "known", "true", "false", "cannot", "open", "board",
    "boards", "there", "such", "device", "alarms", "connection", "dropped",
    "message", "from", "embedded", "simulated", "journals", "journal", "comes", "before",
    "previous", "times", "run", "backwards", "negative", "type", "has", "time", "square",
    "name", "string", "number", "whole", "position", "wrong",
    "disconnected", "silent", "claim", "flag", "illegal", "move", "results", "file",
    "calibration", "vision", "camera", "folder", "permission", "denied", "online", "offline",
    "ply", "result", "link", "none", "connected", "retrying", "topic", "prefix", "needs",
    "how", "long", "was", "down", "seconds", "give", "one", "both", "them", "more", "write",
    "address", "host", "header", "found", "nothing", "pairings",
}  # fmt: skip
#: what stays as typed in every language: paths, quoted values (the contract's words:
#: 'start', "white"), lists of names (the settings a config knows), options, the command's
#: name, host:port, t=1.5, true and false
KEPT = re.compile(
    r"\S*/\S*|'[^']*'|\"[^\"]*\"|(?:[\w-]+, )+[\w-]+|--[\w-]+|\S*=\S*|arbiter \w+|\S+:\d+|\bt=\S+"
    r"|\btrue\b|\bfalse\b"
)


def english_left(text: str) -> set[str]:
    said = KEPT.sub(" ", text)
    return {w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in ENGLISH}


def refused(*argv: str, cwd: Path | None = None) -> str:
    """The one line `arbiter ARGV` says on standard error, after checking it refused (in the
    folder `cwd`: where `arbiter play` would keep its journal)."""
    done = run_cli(*argv, cwd=cwd)
    assert done.returncode == 2, (argv, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    lines = {
        "side": '{"type": "press", "t": 1, "side": "green"}',
        "kind": '{"type": "shout", "t": 1}',
        "no_t": '{"type": "press", "side": "white"}',
        "square": '{"type": "lift", "t": 1, "square": "z9"}',
        "backwards": '{"type": "press", "t": 5, "side": "white"}\n'
        '{"type": "press", "t": 2, "side": "black"}',
    }
    files = {}
    for name, line in lines.items():
        files[name] = folder / f"{name}.jsonl"
        files[name].write_text('{"t": 0, "type": "start"}\n' + line + "\n", encoding="utf-8")
    configs = {
        "table": '[plya]\ntc = "300"\n',
        "setting": "[play]\nbuzz = 1\n",
        "kind": "[play]\nstrict = 3\n",
        "mode": '[play]\nmode = "bullet"\n',
        "start": "[start]\nmax_plies = 0\n",
    }
    for name, text in configs.items():
        files[f"config_{name}"] = folder / f"{name}.toml"
        files[f"config_{name}"].write_text(text, encoding="utf-8")
    return files


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_malformed_event_line_is_said_with_its_file_and_line(
    language: str, bad_files: dict[str, Path]
) -> None:
    for name in ("side", "kind", "no_t", "square", "backwards"):
        path = str(bad_files[name])
        text = refused("replay", path, "--lang", language)
        english = refused("replay", path, "--lang", "en")
        assert path in text and re.search(r"\b[23]\b", text), text  # the file and the line
        assert english_left(text) == set(), f"{language}: {text}"
        assert text != english


def test_a_malformed_line_reads_as_before_in_english(bad_files: dict[str, Path]) -> None:
    text = refused("replay", str(bad_files["side"]), "--lang", "en")
    assert text.endswith(": line 2: 'side' must be \"white\" or \"black\", not 'green'\n"), text


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bad_config_is_said_in_the_language(language: str, bad_files: dict[str, Path]) -> None:
    for name in ("table", "setting", "kind", "mode", "start"):
        config = bad_files[f"config_{name}"]
        path = str(config)
        text = refused("play", "--config", path, "--lang", language, cwd=config.parent)
        assert path in text, text
        assert english_left(text) == set(), f"{language}: {text}"


def test_bad_config_lines_in_serbian_and_polish(bad_files: dict[str, Path]) -> None:
    folder = bad_files["config_table"].parent
    sr = refused("play", "--config", str(bad_files["config_table"]), "--lang", "sr", cwd=folder)
    assert "nepoznat ključ 'plya'; tabele su play, start, gpio" in sr
    pl = refused("play", "--config", str(bad_files["config_kind"]), "--lang", "pl", cwd=folder)
    assert "[play] strict: musi być true albo false, a nie 3" in pl


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_missing_board_device_is_said_in_the_language(language: str, tmp_path: Path) -> None:
    device = str(tmp_path / "no-such-board")
    argv = ("play", "--board", f"dgt:{device}", "--display", "plain", "--lang", language)
    text = refused(*argv, cwd=tmp_path)
    assert device in text and english_left(text) == set(), f"{language}: {text}"


def test_a_missing_board_device_in_serbian_and_polish(tmp_path: Path) -> None:
    spec = f"dgt:{tmp_path / 'ttyX'}"
    (tmp_path / "sr").mkdir()
    (tmp_path / "pl").mkdir()
    sr = refused("play", "--board", spec, "--lang", "sr", cwd=tmp_path / "sr")
    pl = refused("play", "--board", spec, "--lang", "pl", cwd=tmp_path / "pl")
    assert "takav uređaj ne postoji" in sr and "nie ma takiego urządzenia" in pl


def _raised_templates(package: str) -> set[str]:
    """Every template `package` raises with `ArbiterError.of(TEMPLATE, ...)` where TEMPLATE is
    a literal or a name of its module (a template chosen at run time is left to the caller)."""
    import ast
    import importlib

    root = Path(__file__).resolve().parents[2] / package
    found: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        module_name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "of"
            and node.args
        ]
        if not calls:
            continue
        namespace = vars(importlib.import_module(module_name))
        for call in calls:
            try:
                value = eval(ast.unparse(call.args[0]), dict(namespace))
            except NameError:
                continue  # a local variable (transport's port templates: listed below)
            if isinstance(value, str):
                found.add(value)
    return found


def _constants(module: object, *, words: bool) -> set[str]:
    """The templates (or, with `words`, the `Word`s) a messages module defines."""
    from rules.i18n import Word

    values: list[object] = []
    for name, value in vars(module).items():
        if name.isupper():
            values += list(value.values()) if isinstance(value, dict) else [value]
            values += list(value) if isinstance(value, tuple) else []
    return {v for v in values if isinstance(v, str) and isinstance(v, Word) == words}


def test_the_errors_of_firmware_bridge_are_in_the_catalogue() -> None:
    """Every template `firmware_bridge` raises is marked again in `arbiter.i18n` (the port
    errors, the board read, a capture, a Certabo calibration, the GPIO pin map), and
    translated; the words inside them too."""
    from firmware_bridge import discovery, source
    from firmware_bridge.gpio import messages

    templates = {transport.PORT_MISSING, transport.PORT_DENIED, transport.PORT_BUSY}
    templates |= {transport.PORT_FAILED, source.READ_FAILED}
    templates |= {transport.PORT_NOT_SERIAL, transport.PORT_FOLDER}
    templates |= {discovery.DGT_BOARD, discovery.FTDI_BRIDGE, discovery.CP210X_BRIDGE}
    templates |= {discovery.BLUETOOTH_SERIAL, discovery.UNKNOWN_SERIAL}
    templates |= _raised_templates("firmware_bridge") | _constants(messages, words=False)
    assert templates == set(i18n.DEVICE_ERRORS)
    assert _constants(messages, words=True) == set(i18n.DEVICE_WORDS)
    assert set(i18n.DEVICE_COUNTED) == {source.BOARDS}  # the counted phrases (`Counted`)
    for language in TRANSLATED:
        for template in (*i18n.DEVICE_ERRORS, *i18n.DEVICE_WORDS):
            if re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", template)):  # words to say
                assert i18n.gettext(template, language) != template, (language, template)


@pytest.mark.parametrize("language", TRANSLATED)
def test_camera_errors_are_said_in_the_language(language: str, tmp_path: Path) -> None:
    not_one = tmp_path / "not-one.json"
    not_one.write_text('{"format": "something else"}', encoding="utf-8")
    for calibration in (tmp_path / "missing.json", not_one):
        argv = ("play", "--camera", "0", "--calibration", str(calibration), "--lang", language)
        text = refused(*argv, cwd=tmp_path)
        assert str(calibration) in text and english_left(text) == set(), f"{language}: {text}"


def test_the_vision_errors_are_in_the_catalogue() -> None:
    """Every template `vision` raises, and every one of `vision.messages` (some raised by
    `arbiter calibrate`, some kept by an error type), is marked again in `arbiter.i18n` and
    translated; the words inside them too."""
    from vision import messages

    templates = _raised_templates("vision") | _constants(messages, words=False)
    assert templates == set(i18n.VISION_ERRORS) | set(i18n.PICK_PAGE_WORDS)
    assert set(messages.PICK_PAGE.values()) == set(i18n.PICK_PAGE_WORDS)
    assert _constants(messages, words=True) == set(i18n.VISION_WORDS)
    for language in TRANSLATED:
        for template in (*i18n.VISION_ERRORS, *i18n.VISION_WORDS, *i18n.PICK_PAGE_WORDS):
            assert i18n.gettext(template, language) != template, (language, template)


def _station_with_alarms() -> Station:
    """A station that saw board 7 go online, then drop, and board 8 fall silent (a board
    known to be offline is not also silent)."""
    now = [0.0]
    station = Station(BrokerAddress("broker", 1883), mono=lambda: now[0])
    for board, online in (("7", True), ("8", True), ("7", False)):
        payload = encode({"online": online})
        message = type("M", (), {"topic": f"arbiter/hall/{board}/status", "payload": payload})
        station._on_message(None, None, message)
    now[0] = 10 * station.silent_s
    station.tick(now[0])
    return station


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_hall_alarm_is_said_in_the_language(
    language: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arbiter.cli.hall import _draw

    station = _station_with_alarms()
    assert [a.kind for a in station.alarms] == ["disconnected", "silent"]
    i18n.request(language)
    try:
        assert _draw(station, {}, tty=False, shown=0) == 2
    finally:
        i18n.request(None)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert english_left(line) == set(), f"{language}: {line}"
    assert lines[0] != f"alarm: board 7 disconnected: {station.alarms[0].text}"


def test_hall_alarms_in_serbian_and_polish() -> None:
    dropped, silent = _station_with_alarms().alarms
    assert dropped.text == "the board's connection dropped"
    assert dropped.text_in("sr") == "veza sa tablom je prekinuta"
    assert dropped.text_in("pl") == "połączenie z szachownicą zostało zerwane"
    assert silent.text_in("sr").startswith("od table nema poruke već ")
    assert silent.text_in("pl").startswith("od szachownicy nie ma wiadomości od ")
    made = Wording("the station cannot follow the game: {reason}", {"reason": "x"})
    assert made.say("cs") == "stanice nemůže partii sledovat: x"


@pytest.mark.parametrize("language", ["sr", "pl"])
def test_the_hall_start_lines_in_the_language(language: str, tmp_path: Path) -> None:
    done = run_cli(
        "--lang", language, "hall", "--demo", "1", "--duration", "1", "--speed", "50",
        "--display", "plain", "--journals", str(tmp_path / "j"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(
        {"sr": "ugrađeni broker (amqtt) na ", "pl": "wbudowany broker"}[language]
    ), lines
    want = {"sr": "simulirane table: 1, brzina 50x; dnevnici u ", "pl": "symulowane szachownice: 1"}
    assert lines[1].startswith(want[language]), lines
    summary = {"sr": r"table: 1, uzbune: \d+", "pl": r"szachownice: 1, alarmy: \d+"}
    assert re.fullmatch(summary[language], lines[-1]), lines
    for line in lines:
        assert english_left(line) == set(), f"{language}: {line}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_folder_given_as_a_stream_is_said_in_the_language(language: str, tmp_path: Path) -> None:
    text = refused("replay", str(tmp_path), "--lang", language)
    assert str(tmp_path) in text and english_left(text) == set(), f"{language}: {text}"
    assert refused("replay", str(tmp_path), "--lang", "en").endswith(
        ": is a folder, not a stream file\n"
    )


@pytest.mark.parametrize("language", ["sr", "pl"])
def test_the_hall_grid_in_the_language(language: str) -> None:
    from arbiter.hall.view import render

    text = render(_station_with_alarms(), {}, language)
    assert english_left(text.replace("broker", " ")) == set(), f"{language}: {text}"
    english = render(_station_with_alarms(), {}, "en")
    assert "NOT CONNECTED (retrying)" in english and "board 7 disconnected:" in english


@pytest.mark.parametrize("language", ["sr", "pl"])
def test_a_torn_last_line_is_warned_in_the_language(language: str, tmp_path: Path) -> None:
    torn = tmp_path / "torn.jsonl"
    torn.write_text(
        '{"t": 0, "type": "start"}\n{"t": 1, "type": "press", "side": "white"}\n{"t": 2, "ty',
        encoding="utf-8",
    )
    done = run_cli("replay", str(torn), "--lang", language)
    assert done.returncode == 0, done.stderr
    warning = {"sr": "upozorenje: ", "pl": "ostrzeżenie: "}[language]
    assert done.stderr.startswith(f"arbiter replay: {warning}{torn}: "), done.stderr
    said = done.stderr.split("(", 1)[0] + done.stderr.rsplit(")", 1)[1]  # the parser's words
    assert english_left(said) == set(), done.stderr


@pytest.mark.parametrize("language", TRANSLATED)
def test_option_errors_of_a_live_game_are_said_in_the_language(
    language: str, tmp_path: Path
) -> None:
    cases = [
        ("resume", str(tmp_path / "j.jsonl"), "--counted"),
        ("resume", str(tmp_path / "j.jsonl"), "--gap", "-3"),
        ("play", "--camera", "0", "--video", "v.mp4"),
    ]
    for argv in cases:
        text = refused(*argv, "--lang", language, cwd=tmp_path)
        assert english_left(text) == set(), f"{language} {argv}: {text}"


@pytest.mark.parametrize("language", ["sr", "pl"])
def test_hall_option_errors_in_the_language(language: str, tmp_path: Path) -> None:
    pairings = tmp_path / "round.csv"
    pairings.write_text("table,name\n1,Ann\n", encoding="utf-8")
    cases = [
        ("hall", "--broker", "http://x", "--duration", "1"),
        ("hall", "--broker", "mqtt://", "--duration", "1"),
        ("hall", "--board", "nothing-here", "--broker", "mqtt://127.0.0.1:1", "--duration", "1"),
        ("hall", "--pairings", str(pairings), "--broker", "mqtt://h", "--duration", "1"),
    ]
    for argv in cases:
        text = refused(*argv, "--lang", language, cwd=tmp_path)
        assert english_left(text) == set(), f"{language} {argv}: {text}"
