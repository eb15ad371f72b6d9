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
from arbiter.i18n import Localized, gettext
from rules.errors import ArbiterError
from rules.events import MODES, Start
from rules.i18n import N_
from rules.library_reasons import reason_of

#: where a setting was given: `--set KEY`, `--KEY`, or a table of a config file (said in the
#: user's language, `config_at`)
Where = str | Localized
#: a config file, as errors name it
CONFIG_FILE = N_("config {path}")

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
        raise ConfigError.of(N_("{path}: no such file"), path=config_at(p)) from None
    except IsADirectoryError:
        raise ConfigError.of(
            N_("{where}: is a folder, not a TOML file"), where=config_at(p)
        ) from None
    except OSError as exc:
        raise ConfigError.of(
            N_("{path}: cannot be read ({reason})"), path=config_at(p), reason=reason_of(exc)
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError.of(
            N_("{where}: not valid TOML ({reason})"), where=config_at(p), reason=reason_of(exc)
        ) from None
    settings = Settings(config_path=str(p))
    for key, value in data.items():
        if key not in TABLES:
            raise ConfigError.of(
                N_("{where}: unknown key {key!r}; the tables are {tables}"),
                where=config_at(p),
                key=key,
                tables=", ".join(TABLES),
            )
        if not isinstance(value, dict):
            raise ConfigError.of(
                N_("{where}: {key!r} must be a table ([{key}])"), where=config_at(p), key=key
            )
    force = data.get("play", {}).get("force_tc") is True
    for key, value in data.get("play", {}).items():
        where = config_at(p, f" [play] {key}")
        settings.play[key] = check_play(key, value, where, force_tc=force)
        settings.where[key] = str(where)
    for key, value in data.get("start", {}).items():
        where = config_at(p, f" [start] {key}")
        settings.start[key] = check_start(key, value, where, force_tc=force)
        settings.where[key] = str(where)
    settings.gpio_table = dict(data.get("gpio", {}))
    if settings.gpio_table:
        settings.pin_map()  # checks [gpio.pins] and [gpio.matrix] now, naming the file
        settings.matrix()
    return settings


def config_at(path: Path, table: str = "") -> Localized:
    """`config PATH` (and the table and key, `table`: ` [play] tc`) in the reader's language."""
    return Localized(lambda language: gettext(CONFIG_FILE, language).format(path=path) + table)


def check_play(key: str, value: Any, where: Where, *, force_tc: bool = False) -> Any:
    """A `[play]` value, checked (a time control read as clubs write it and kept in the
    contract's form); raises ConfigError naming `where`."""
    if key not in PLAY_KEYS:
        raise ConfigError.of(
            N_("{where}: unknown setting; known: {known}"),
            where=where,
            known=", ".join(sorted(PLAY_KEYS)),
        )
    kind, _what = PLAY_KEYS[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError.of(
            N_("{where}: must be {kind}, not {value!r}"), where=where, kind=_kind(kind), value=value
        )
    if key == "tc":
        value = club_standard(str(value), where, force_tc)
    elif key == "rules":
        check_rules(str(value), where)
    elif key == "mode" and value not in MODES:
        raise ConfigError.of(
            N_("{where}: the mode must be one of {choices}, not {value!r}"),
            where=where,
            choices=", ".join(MODES),
            value=value,
        )
    elif key == "gpio" and value not in GPIO_BACKENDS:
        raise ConfigError.of(
            N_("{where}: the GPIO back-end must be one of {choices}, not {value!r}"),
            where=where,
            choices=", ".join(GPIO_BACKENDS),
            value=value,
        )
    elif key == "clock_start" and value not in CLOCK_STARTS:
        raise ConfigError.of(
            N_(
                "{where}: the clocks start 'now', at Black's press ('black_press') or when"
                " White's first move is made ('white_move'), not {value!r}"
            ),
            where=where,
            value=value,
        )
    elif key == "display" and value not in DISPLAYS:
        raise ConfigError.of(
            N_("{where}: the display must be one of {choices}"),
            where=where,
            choices=", ".join(DISPLAYS),
        )
    return value


def check_start(key: str, value: Any, where: Where, *, force_tc: bool = False) -> Any:
    """A `start` field's value, checked by the contract's own rules (rules.events.Start);
    a `time_control` may be written as clubs write it (kept in the contract's form)."""
    if key not in START_KEYS:
        raise ConfigError.of(
            N_("{where}: {key!r} is not a setting of the 'start' event; known: {known}"),
            where=where,
            key=key,
            known=", ".join(sorted(START_KEYS)),
        )
    kind = str(START_KEYS[key])
    if "str" in kind and isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)  # `--set round=3`
    if "float" in kind and isinstance(value, int) and not isinstance(value, bool):
        try:
            value = float(value)
        except OverflowError:
            raise ConfigError.of(
                N_("{where}: {key!r} is too large a number"), where=where, key=key
            ) from None
    if key == "time_control" and isinstance(value, str):
        value = club_standard(value, where, force_tc)
    try:
        Start(t=0.0, **{key: value})
    except (ArbiterError, TypeError) as exc:
        raise ConfigError.of(N_("{where}: {error}"), where=where, error=exc) from None
    if key == "rules" and value is not None:
        check_rules(value, where)
    return value


def parse_set(text: str, *, force_tc: bool = False) -> tuple[str, Any]:
    """`KEY=VALUE` of `--set`: the value read as TOML (true, 0.3, "x"), else as a string."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError.of(
            N_("--set {text!r}: write it as KEY=VALUE, e.g. --set auto_press=true"), text=text
        )
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return key, check_start(key, value, f"--set {key}", force_tc=force_tc)


def club_standard(text: str, where: Where, force: bool) -> str:
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
        raise ConfigError.of(N_("{where}: {error}"), where=where, error=message) from None
    return str(control)


def check_time_control(text: str, where: Where) -> None:
    from rules.timecontrol import TimeControl

    try:
        TimeControl.parse(text)
    except ArbiterError as exc:
        raise ConfigError.of(N_("{where}: {error}"), where=where, error=exc) from None


def check_rules(name: str, where: Where) -> None:
    from rules.profiles import get_profile

    try:
        get_profile(name)
    except ArbiterError as exc:
        raise ConfigError.of(N_("{where}: {error}"), where=where, error=exc) from None


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


#: what a setting's value must be, by its type
KINDS: dict[type, str] = {
    str: N_("a string"),
    bool: N_("true or false"),
    int: N_("a whole number"),
    float: N_("a number"),
}


def _kind(kind: type | tuple[type, ...]) -> Localized:
    """What a value of the type(s) `kind` is (`a string`), in the reader's language."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return Localized(
        lambda language: " | ".join(gettext(KINDS.get(k, k.__name__), language) for k in kinds)
    )


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
