"""Settings of a live game: defaults, then a TOML config file, then the command line.

A config file holds what an installed arbiter always uses (the systemd unit passes
`--config /etc/otb-arbiter/config.toml`), the command line what changes from game to game:

    [play]                 # the options of `arbiter play`, by their long names
    tc = "90+30"           # --tc: as clubs write it (3+2, G/90;inc30) or the contract's
                           # syntax (5400+30); see docs/time-controls.md
    rules = "fide-2023"    # --rules: the rule profile
    gpio = "rpi"           # --gpio rpi|fake|none
    pgn = "/var/lib/otb-arbiter/last.pgn"

    [start]                # any setting of the contract's `start` event (as --set KEY=VALUE)
    auto_press = false
    noise_s = 0.3

    [gpio.pins]            # BCM numbers (firmware_bridge.gpio.pins; hardware_docs/wiring.md)
    led_white = 22

Every key is checked: an unknown key, a value of the wrong type, a bad time control or an
unknown rule profile is a `ConfigError` naming the key and where it was given (the file and
table, or the option). Every key is documented in `docs/config.md`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from arbiter.errors import ConfigError
from rules.errors import ArbiterError
from rules.events import MODES, Start

#: the `[play]` keys: name -> (type, what it is)
PLAY_KEYS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "tc": (str, "time control"),
    "force_tc": (bool, "play a time control of under a minute in all"),
    "clock_start": (str, "when the clocks start: now, black_press or white_move"),
    "mode": (str, "standard, rapid or blitz"),
    "rules": (str, "rule profile"),
    "strict": (bool, "teaching mode"),
    "feedback": (bool, "LEDs and buzzer may guide the players"),
    "white": (str, "White's name"),
    "black": (str, "Black's name"),
    "event": (str, "the event (PGN Event)"),
    "site": (str, "where the game is played (PGN Site)"),
    "round": (str, "the round (PGN Round)"),
    "board_number": (str, "the board number (PGN Board)"),
    "white_elo": (int, "White's rating (PGN WhiteElo)"),
    "black_elo": (int, "Black's rating (PGN BlackElo)"),
    "white_fide_id": (str, "White's FIDE id (PGN WhiteFideId)"),
    "black_fide_id": (str, "Black's FIDE id (PGN BlackFideId)"),
    "events": (str, "a stream file played in real time ('-': stdin)"),
    "gpio": (str, "GPIO back-end"),
    "journal": (str, "journal path"),
    "pgn": (str, "PGN path"),
    "publish": (str, "the hall's broker, mqtt://HOST[:PORT]/BOARD (docs/hall.md)"),
    "board": (str, "e-board PROTOCOL:DEVICE"),
    "camera": (int, "camera number"),
    "video": (str, "video file"),
    "calibration": (str, "camera or board calibration file"),
    "capture": (str, "record what the e-board sends and receives (JSON Lines)"),
    "clock_white": (str, "DGT 3000 on the board: which side is White's, left or right"),
    "display": (str, "auto, full or plain"),
    "keyboard": (bool, "read keys from the terminal"),
    "web": (str, "serve the game's web page at [HOST:]PORT"),
    "web_token": (str, "the token of the web page's arbiter controls"),
    "speak": (bool, "say the rulings the players may hear (espeak-ng)"),
}
GPIO_BACKENDS = ("rpi", "fake", "none")
DISPLAYS = ("auto", "full", "plain")
CLOCK_STARTS = ("now", "black_press", "white_move")  # arbiter.live.start_check
#: `start` fields a setting may give (the time and the sources are the session's own)
START_KEYS: dict[str, Any] = {
    f.name: f.type for f in fields(Start) if f.name not in ("t", "sources")
}
#: [play] options that are also `start` fields, under the start's name
PLAY_TO_START = {"tc": "time_control", "mode": "mode", "rules": "rules", "strict": "strict",
                 "white": "white", "black": "black", "event": "event", "site": "site",
                 "round": "round"}  # fmt: skip
TABLES = ("play", "start", "gpio")


@dataclass(slots=True)
class Settings:
    """What a live session needs; `where[key]` says where each given value came from."""

    play: dict[str, Any] = field(default_factory=dict)
    start: dict[str, Any] = field(default_factory=dict)
    gpio_table: dict[str, Any] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)
    config_path: str | None = None

    def get(self, key: str, default: Any = None) -> Any:
        return self.play.get(key, default)

    def start_fields(self) -> dict[str, Any]:
        """The `start` fields these settings give (options first mapped to their names)."""
        out = {PLAY_TO_START[k]: v for k, v in self.play.items() if k in PLAY_TO_START}
        out.update(self.start)
        return out

    def matrix(self) -> Any:
        """The `[gpio.matrix]` settings when the config has that table (a reed-switch board
        is fitted), else None: without it the matrix lines are never scanned."""
        if "matrix" not in self.gpio_table:
            return None
        from firmware_bridge.gpio.pins import matrix_settings_from_config

        return matrix_settings_from_config(
            {"gpio": self.gpio_table}, self.config_path or "the config"
        )

    def pin_map(self) -> Any:
        """The `[gpio.pins]` pin map (defaults where the config has none)."""
        from firmware_bridge.gpio.pins import pin_map_from_config

        return pin_map_from_config({"gpio": self.gpio_table}, self.config_path or "the config")


def load_config(path: str | Path) -> Settings:
    """The settings of a TOML config file; see the module docstring."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"config {p}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"config {p}: is a folder, not a TOML file") from None
    except OSError as exc:
        raise ConfigError(f"config {p}: cannot be read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config {p}: not valid TOML ({exc})") from None
    settings = Settings(config_path=str(p))
    for key, value in data.items():
        if key not in TABLES:
            raise ConfigError(
                f"config {p}: unknown key {key!r}; the tables are {', '.join(TABLES)}"
            )
        if not isinstance(value, dict):
            raise ConfigError(f"config {p}: {key!r} must be a table ([{key}])")
    force = data.get("play", {}).get("force_tc") is True
    for key, value in data.get("play", {}).items():
        where = f"config {p} [play] {key}"
        settings.play[key] = check_play(key, value, where, force_tc=force)
        settings.where[key] = f"config {p} [play] {key}"
    for key, value in data.get("start", {}).items():
        where = f"config {p} [start] {key}"
        settings.start[key] = check_start(key, value, where, force_tc=force)
        settings.where[key] = f"config {p} [start] {key}"
    settings.gpio_table = dict(data.get("gpio", {}))
    if settings.gpio_table:
        settings.pin_map()  # checks [gpio.pins] and [gpio.matrix] now, naming the file
        settings.matrix()
    return settings


def check_play(key: str, value: Any, where: str, *, force_tc: bool = False) -> Any:
    """A `[play]` value, checked (a time control read as clubs write it and kept in the
    contract's form); raises ConfigError naming `where`."""
    if key not in PLAY_KEYS:
        raise ConfigError(f"{where}: unknown setting; known: {', '.join(sorted(PLAY_KEYS))}")
    kind, what = PLAY_KEYS[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}: {what} must be a {_type_name(kind)}, not {value!r}")
    if key == "tc":
        value = club_standard(str(value), where, force_tc)
    elif key == "rules":
        check_rules(str(value), where)
    elif key == "mode" and value not in MODES:
        raise ConfigError(f"{where}: the mode must be one of {', '.join(MODES)}, not {value!r}")
    elif key == "gpio" and value not in GPIO_BACKENDS:
        raise ConfigError(
            f"{where}: the GPIO back-end must be one of {', '.join(GPIO_BACKENDS)}, not {value!r}"
        )
    elif key == "clock_start" and value not in CLOCK_STARTS:
        raise ConfigError(
            f"{where}: the clocks start 'now', at Black's press ('black_press') or when"
            f" White's first move is made ('white_move'), not {value!r}"
        )
    elif key == "display" and value not in DISPLAYS:
        raise ConfigError(f"{where}: the display must be one of {', '.join(DISPLAYS)}")
    return value


def check_start(key: str, value: Any, where: str, *, force_tc: bool = False) -> Any:
    """A `start` field's value, checked by the contract's own rules (rules.events.Start);
    a `time_control` may be written as clubs write it (kept in the contract's form)."""
    if key not in START_KEYS:
        raise ConfigError(
            f"{where}: {key!r} is not a setting of the 'start' event; known: "
            f"{', '.join(sorted(START_KEYS))}"
        )
    kind = str(START_KEYS[key])
    if "str" in kind and isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)  # `--set round=3`
    if "float" in kind and isinstance(value, int) and not isinstance(value, bool):
        try:
            value = float(value)
        except OverflowError:
            raise ConfigError(f"{where}: {key!r} is too large a number") from None
    if key == "time_control" and isinstance(value, str):
        value = club_standard(value, where, force_tc)
    try:
        Start(t=0.0, **{key: value})
    except (ArbiterError, TypeError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if key == "rules" and value is not None:
        check_rules(value, where)
    return value


def parse_set(text: str, *, force_tc: bool = False) -> tuple[str, Any]:
    """`KEY=VALUE` of `--set`: the value read as TOML (true, 0.3, "x"), else as a string."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"--set {text!r}: write it as KEY=VALUE, e.g. --set auto_press=true")
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, check_start(key, value, f"--set {key}", force_tc=force_tc)


def club_standard(text: str, where: str, force: bool) -> str:
    """The contract's form of a time control written as clubs write it (`3+2` is 3 min +
    2 s, `arbiter.live.club_time`); an absurd one (under a minute) refused unless `force`."""
    from arbiter.live.club_time import read_club_time

    try:
        control = read_club_time(text, force=force)
    except ConfigError as exc:
        if where == "--tc":
            raise
        message = str(exc).removeprefix("--tc: ").replace(f"--tc {text!r}", repr(text))
        message = message.replace("add --force-tc", "set force_tc = true in [play]")
        raise ConfigError(f"{where}: {message}") from None
    return str(control)


def check_time_control(text: str, where: str) -> None:
    from rules.timecontrol import TimeControl

    try:
        TimeControl.parse(text)
    except ArbiterError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def check_rules(name: str, where: str) -> None:
    from rules.profiles import get_profile

    try:
        get_profile(name)
    except ArbiterError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def merge(base: Settings, options: dict[str, Any], sets: list[str] | None = None) -> Settings:
    """`base` (the config file) overridden by command-line `options` (None: not given) and
    `--set` pairs, each checked and remembered with where it came from."""
    out = Settings(
        play=dict(base.play),
        start=dict(base.start),
        gpio_table=dict(base.gpio_table),
        where=dict(base.where),
        config_path=base.config_path,
    )
    force = bool(options.get("force_tc") or base.play.get("force_tc"))
    for key, value in options.items():
        if value is None:
            continue
        where = f"--{key}"
        out.play[key] = check_play(key, value, where, force_tc=force)
        out.where[key] = where
        start_key = PLAY_TO_START.get(key)
        if start_key is not None:
            out.start.pop(start_key, None)  # the option wins over the file's [start]
    for text in sets or []:
        key, value = parse_set(text, force_tc=force)
        out.start[key] = value
        out.where[key] = f"--set {key}"
    return out


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {str: "string", bool: "true or false", int: "whole number", float: "number"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


__all__ = [
    "PLAY_KEYS",
    "START_KEYS",
    "ConfigError",
    "Settings",
    "check_play",
    "check_start",
    "load_config",
    "merge",
    "parse_set",
]
