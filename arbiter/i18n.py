"""The language of the `arbiter` command, and the catalogue of its own words.

The rulings' sentences are in the rules core's catalogue (`rules.messages`, `rules.i18n`);
the words of the program around them (the display's headings, the ruling types in a line,
the demo's last lines, the common error messages) are in this package's catalogue, domain
`arbiter` (`arbiter/locale/LANG/LC_MESSAGES/arbiter.mo`).

Which language: `--lang` (every command has it; `request` keeps it for the run), else the
environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else the language of the game's rule
profile (`bs`, `pl`, `cs`), else English. `language_for(rules)` says which, once the game's
profile is known.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from pathlib import Path

from rules.errors import ArbiterError, EventError, ProfileError
from rules.i18n import DOMAIN as RULES_DOMAIN
from rules.i18n import (
    N_,
    Counted,
    Joined,
    Nn_,
    Np_,
    Word,
    choose_language,
    localized,
    translations,
)
from rules.library_reasons import Reason
from rules.profiles import get_profile

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "Localized",
    "error_text",
    "gettext",
    "language_for",
    "request",
    "requested",
    "type_label",
]

DOMAIN = "arbiter"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")

_requested: str | None = None


def request(language: str | None) -> None:
    """Keep the `--lang` of this run (None: not given). Raises `LanguageError` if unknown."""
    global _requested
    _requested = None if language is None else choose_language(language)


def requested() -> str | None:
    """The language `--lang` asked for, or None."""
    return _requested


def language_for(rules: str | None = None) -> str:
    """The language to speak for a game under the profile `rules` (see the module docstring)."""
    try:
        profile_language = get_profile(rules).language
    except ProfileError:
        profile_language = None  # the game itself will say the profile is unknown
    return choose_language(_requested, os.environ, profile_language)


def gettext(message: str, language: str) -> str:
    """`message` (an English text marked with `N_`) in `language`."""
    return translations(language, DOMAIN, str(LOCALE_DIR)).gettext(message)


#: the ruling types as a line of the display or of `arbiter replay` labels them
TYPE_LABELS: dict[str, tuple[str, str]] = {
    "move": Np_("ruling type", "move"),
    "obligation": Np_("ruling type", "obligation"),
    "violation": Np_("ruling type", "violation"),
    "illegal": Np_("ruling type", "illegal"),
    "reinstate": Np_("ruling type", "reinstate"),
    "penalty": Np_("ruling type", "penalty"),
    "mismatch": Np_("ruling type", "mismatch"),
    "claim": Np_("ruling type", "claim"),
    "clock": Np_("ruling type", "clock"),
    "flag": Np_("ruling type", "flag"),
    "draw_offer": Np_("ruling type", "draw_offer"),
    "game_over": Np_("ruling type", "game_over"),
    "note": Np_("ruling type", "note"),
}


def type_label(ruling_type: str, language: str) -> str:
    """The label of a ruling type in `language` (English: the contract's own name)."""
    named = TYPE_LABELS.get(ruling_type)
    if named is None:
        return ruling_type
    return translations(language, DOMAIN, str(LOCALE_DIR)).pgettext(*named)


def error_text(exc: BaseException, language: str) -> str:
    """The message of an error of ours in `language`, where it was raised with a template
    (`ArbiterError.of`); any other error's message as it is (English)."""
    if isinstance(exc, EventError) and exc.line is not None:
        fault = _own_text(exc, language) if exc.template is not None else exc.reason
        return gettext(AT_LINE, language).format(line=exc.line, fault=fault)
    if not isinstance(exc, ArbiterError) or exc.template is None:
        return str(exc)
    return _own_text(exc, language)


def _own_text(exc: ArbiterError, language: str) -> str:
    """The template of `exc` (raised with `ArbiterError.of`) in `language`, filled."""
    assert exc.template is not None
    template = translations(language, DOMAIN, str(LOCALE_DIR)).gettext(exc.template)
    if template == exc.template:  # raised in the rules core: its catalogue has it
        template = translations(language, RULES_DOMAIN).gettext(exc.template)
    fields = {name: _field_text(value, language) for name, value in exc.fields.items()}
    try:
        return template.format_map(localized(fields, language))
    except (KeyError, IndexError, ValueError):
        return str(exc).removeprefix(f"line {getattr(exc, 'line', None)}: ")


class Said(str):
    """A warning or a message in English (as a `str`) that keeps the error of ours it says,
    so that the command can say it in the user's language (`text_in`)."""

    error: BaseException

    def __new__(cls, error: BaseException) -> Said:
        said = super().__new__(cls, str(error))
        said.error = error
        return said

    def text_in(self, language: str) -> str:
        return error_text(self.error, language)


def said_in(text: str, language: str) -> str:
    """`text` in `language` when it is `Said`, else as it is."""
    return text.text_in(language) if isinstance(text, Said) else text


#: a warning of a command (`arbiter replay: warning: ...`)
WARNING = N_("warning: {message}")


class Localized:
    """A field of an error message said in the reader's language: `say(language)` makes it;
    formatted as it stands (the error's English message), it is the English."""

    def __init__(self, say: Callable[[str], str]) -> None:
        self.say = say

    def __format__(self, spec: str) -> str:
        return format(self.say("en"), spec)

    def __str__(self) -> str:
        return self.say("en")


def _field_text(value: object, language: str) -> object:
    """A field of an error message in `language`: an error of ours inside an error (`--tc:
    {error}`) in its own words, a `Localized` value said in `language`; others as they are."""
    if isinstance(value, Localized | Reason):  # a library's reason, in our words
        return value.say(language)
    if isinstance(value, Word):  # a word of the rules' catalogue ("increment"), or of ours
        said = translations(language).gettext(value)
        return gettext(value, language) if said == value else said
    if isinstance(value, Counted):  # a counted phrase ("2 boards"), in its plural form
        said = value.said(translations(language, DOMAIN, str(LOCALE_DIR)).ngettext)
        if language != "en" and said == str(value):  # a phrase of the rules' catalogue
            said = value.said(translations(language).ngettext)
        return said
    if isinstance(value, Joined):  # several fields in a row (the squares a calibration misreads)
        return type(value)(_field_text(item, language) for item in value)
    if isinstance(value, ArbiterError):
        return error_text(value, language)
    if isinstance(value, ValueError) and language != "en":  # a library's, not ours
        return _library_reason(value, language)
    return value


#: python-chess's reasons for a FEN it cannot read (its `ValueError`s, `chess.Board(fen)`) and
#: for a move of a PGN file it cannot play (`parse_san`),
#: said in the reader's language where one fills an error of ours (`bad FEN {fen!r}: {reason}`)
CHESS_REASONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"^empty fen$", N_("the FEN is empty")),
        (r"^expected 8 rows in position part of fen", N_("the placement needs 8 ranks")),
        (
            r"^expected 8 columns per row in position part of fen",
            N_("each rank of the placement needs 8 squares"),
        ),
        (
            r"^invalid character in position part of fen",
            N_("the placement has a letter that is no piece"),
        ),
        (
            r"^two subsequent digits in position part of fen",
            N_("the placement has two digits in a row"),
        ),
        (r"^expected 'w' or 'b' for turn part of fen", N_("the side to move must be w or b")),
        (r"^invalid castling part in fen", N_("the castling rights cannot be read")),
        (r"^invalid en passant part in fen", N_("the en passant square cannot be read")),
        (r"^invalid half-?move clock in fen", N_("the halfmove clock cannot be read")),
        (r"^half-?move clock cannot be negative", N_("the halfmove clock cannot be negative")),
        (r"^invalid fullmove number in fen", N_("the move number cannot be read")),
        (r"^fullmove number cannot be negative", N_("the move number cannot be negative")),
        (r"^fen string has more parts than expected", N_("the FEN has more parts than six")),
        # a move of a PGN file it cannot play (`chess.Board.parse_san`: `arbiter simulate`)
        (
            r"^illegal san: (?P<move>'[^']*') in (?P<fen>\S.*)$",
            N_("the move {move} is illegal in {fen}"),
        ),
        (
            r"^ambiguous san: (?P<move>'[^']*') in (?P<fen>\S.*)$",
            N_("the move {move} is ambiguous in {fen}"),
        ),
        (
            r"^missing promotion piece type: (?P<move>'[^']*') in (?P<fen>\S.*)$",
            N_("the move {move} does not say what the pawn promotes to, in {fen}"),
        ),
        (r"^invalid san: (?P<move>'[^']*')$", N_("the move {move} cannot be read")),
        (
            r"^unsupported multi-leg move: (?P<move>'[^']*')$",
            N_("the move {move} has several legs"),
        ),
    )
)
#: python-chess's names of what makes a position impossible (`chess.Status`), as
#: `rules.winnability.board_from_fen` gives them (`Word`s)
CHESS_FAULTS = (
    N_("no white king"),
    N_("no black king"),
    N_("too many kings"),
    N_("too many white pawns"),
    N_("too many black pawns"),
    N_("pawns on backrank"),
    N_("too many white pieces"),
    N_("too many black pieces"),
    N_("bad castling rights"),
    N_("invalid ep square"),
    N_("opposite check"),
    N_("empty"),
    N_("race check"),
    N_("race over"),
    N_("race material"),
    N_("too many checkers"),
    N_("impossible check"),
)


def _library_reason(exc: ValueError, language: str) -> object:
    """A library's reason inside an error of ours in `language`, where it is one we know
    (python-chess's FEN and SAN faults); any other as the library says it."""
    text = str(exc)
    for pattern, template in CHESS_REASONS:
        found = pattern.search(text)
        if found:  # the move and the position it names, as python-chess gives them
            return gettext(template, language).format(**found.groupdict())
    return exc


#: the errors `firmware_bridge` raises with templates (`firmware_bridge.transport`), marked
#: here so that this catalogue says them (tests/i18n checks the two lists agree)
DEVICE_ERRORS = (
    N_("cannot open the board's port {url}: there is no such device"),
    N_(
        "cannot open the board's port {url}: permission denied"
        " (the user must be in the 'dialout' group)"
    ),
    N_("cannot open the board's port {url}: another program is using it"),
    N_("cannot open the board's port {url}: {reason}"),
    N_("cannot open the board's port {url}: it is not a serial port"),
    N_("cannot open the board's port {url}: it is a folder"),
    N_("reading the board on {device} failed: {reason}"),
    # the GPIO pin map, the reed matrix's settings, RPi.GPIO (`firmware_bridge.gpio.messages`)
    N_("{where}: {key!r} needs 8 GPIOs (or none), not {count}"),
    N_("{where}: 'matrix_rows' and 'matrix_cols' must both be set or empty"),
    N_("{where}: {use!r} must be a BCM number, not {number!r}"),
    N_("{where}: {use!r} = {number}: header GPIOs are BCM {first}–{last}"),
    N_("{where}: GPIO {number} is given to both {first!r} and {second!r}"),
    N_("{where} must be a table of pin names, not {kind}"),
    N_("{where}: unknown pin name {key!r}; known names: {known}"),
    N_("{where}: {key!r} must be a list of 8 BCM numbers"),
    N_("{path}: not valid TOML ({reason})"),
    N_("{where}: [gpio] must be a table"),
    N_("{where} must be a table"),
    N_("{where}: unknown setting {key!r}; known settings: {known}"),
    N_("{where}: 'a1_corner' = {value!r}; choose one of {choices}"),
    N_("{where}: 'scan_hz' = {value!r}; it must be a number, 50 or more"),
    N_("{where}: 'stable_scans' = {value!r}; it must be 1 to 10"),
    N_("{where}: 'idle_rows' = {value!r}; 'float' or 'high'"),
    N_(
        "RPi.GPIO is not installed: pip install 'otb-arbiter[pi]'; on a Raspberry Pi 5 "
        "install rpi-lgpio"
    ),
    N_("RPi.GPIO cannot run here: {reason}"),
    N_(
        "RPi.GPIO could not {what} GPIO {number} ({name!r}): {reason}; is the user in the"
        " 'gpio' group? On Raspberry Pi OS Bookworm or a Pi 5, replace RPi.GPIO with "
        "rpi-lgpio"
    ),
    # a board capture (`firmware_bridge.capture`)
    N_("{path}: cannot write the capture ({reason})"),
    N_("{path}: the capture was closed"),
    N_("{where}: not JSON ({reason})"),
    N_("{where}: not JSON (nested too deeply)"),
    N_('{where}: expected an object like {{"t": 1.5, "rx": "42"}}'),
    N_("{where}: 't' must be a number of seconds, 0 or more, not {shown}"),
    N_("{shown}... (too large)"),
    N_('{where}: \'link\' must be "disconnected" or "reconnected", not {status!r}'),
    N_("{where}: 'detail' must be text, not {detail!r}"),
    N_("{where}: needs exactly one of 'rx', 'tx' or 'link'"),
    N_("{where}: '{direction}' must be hex bytes, not {value!r}"),
    N_(
        "{name}: line {line}: t={t} comes before the previous line's t={last} (times must"
        " not run backwards)"
    ),
    N_("{name}: line {line}: not UTF-8 text ({reason})"),
    N_("{name}: line {line}"),
    # a Certabo calibration file (`firmware_bridge.codecs.certabo_calibration`)
    N_("a calibration file must be JSON ({reason})"),
    N_('not a calibration file (no "format": "{format}")'),
    N_("unknown calibration version {version!r}"),
    N_('a calibration file needs a "pieces" object'),
    N_("{key!r}: the letter must be a string"),
    N_("{path}: cannot read the calibration: no such file"),
    N_("{path}: cannot read the calibration ({reason})"),
    N_("{path}: {error}"),
    # a board's protocol and `--board` (`firmware_bridge.registry`)
    N_("unknown board protocol {name!r}; known: {known}"),
    N_("--calibration is for Certabo boards; a {protocol} board needs none"),
    N_("--board {spec!r}: expected PROTOCOL:DEVICE, e.g. dgt:/dev/ttyUSB0 (protocols: {known})"),
    N_("--board {spec!r}: no device after {protocol!r}"),
    # `--board auto` and `auto:DEVICE` (`firmware_bridge.source`, `firmware_bridge.transport`),
    # and what the search could not reach (`firmware_bridge.discovery`)
    N_("--board auto: no board found"),
    N_("--board auto: no board found; {notes}"),
    N_("--board auto: {boards} found ({specs}): name one with --board"),
    N_("{url}: the port failed while detecting the board: {reason}"),
    N_("no known board answered on {url} (tried {tried})"),
    N_("{protocol} at {baud} baud"),
    N_("serial ports: not searched (pyserial is missing)"),
    N_("USB HID: not searched (no /sys/class/hidraw on this system)"),
    N_("Bluetooth LE: not searched ({error})"),
    N_("DGT board"),
    N_("FTDI bridge: an older DGT board?"),
    N_("CP210x bridge: a Certabo board?"),
    N_("Bluetooth serial port"),
    N_("unknown serial device"),
    N_("no board answered ({error})"),
    N_("{protocol} board (it answered)"),
    # a board on USB HID or Bluetooth LE (`firmware_bridge.hid_transport`, `.ble`)
    N_("a Chessnut board on USB needs hidapi: pip install 'otb-arbiter[hid]'"),
    N_(
        "cannot open the USB HID board {path}: {reason} (is there a udev rule giving this "
        "user access to it? see hardware_docs/install.md)"
    ),
    N_("cannot open the USB HID board {path}: there is no such device (is it plugged in?)"),
    N_("Bluetooth LE boards need the bleak package: pip install 'otb-arbiter[ble]'"),
    N_("cannot scan for Bluetooth LE boards: {reason}"),
    N_("cannot connect to the Bluetooth LE board {address}: {reason}"),
    # a reed-switch board without its matrix, a Certabo calibration's entries, a virtual board
    N_(
        "a reed-switch board needs 'matrix_rows' and 'matrix_cols' in [gpio.pins]; "
        "the pin map has none"
    ),
    N_("{key!r} is not an identifier (five numbers from 0 to 255)"),
    N_("{ident} is an empty-square reading"),
    N_("{letter!r} is not a FEN piece letter"),
    N_("no virtual board speaks {protocol!r}; virtual boards: {known}"),
)
#: the words inside them (what RPi.GPIO could not do to a pin)
DEVICE_WORDS = (N_("set up"), N_("watch edges on"))
#: the counted phrases inside them (`rules.i18n.Counted`: `firmware_bridge.source.BOARDS`)
DEVICE_COUNTED = (Nn_("{count} board", "{count} boards", "count"),)

#: the errors `vision` raises with templates (`vision.sources`, `vision.calibration`)
VISION_ERRORS = (
    N_("camera {index}: cannot open it (is it connected and free?)"),
    N_("camera {index}: no frame (disconnected?)"),
    N_("{path}: no such video file"),
    N_("{path}: cannot read this video (unknown format?)"),
    N_("{where}: not an OTB Arbiter vision calibration"),
    N_(
        "{where}: calibration version {version!r}, this one reads {reads}: recalibrate"
        " (arbiter calibrate)"
    ),
    N_("{where}: the calibration lacks {field}"),
    N_("{path}: not valid JSON ({reason})"),
    N_("{where}: the calibration's {field!r} cannot be read"),
    # the camera's calibration, geometry and pictures (`vision.messages`)
    N_('corners {text!r} must be four "x,y" pairs separated by spaces'),
    N_('corners {text!r} must be exactly four "x,y" pairs'),
    N_("need 4 corners (TL, TR, BR, BL), got {count}"),
    N_(
        "corners {corners} are not a convex quadrilateral in the order top-left, "
        "top-right, bottom-right, bottom-left"
    ),
    N_(
        "the {name} corner ({x:g}, {y:g}) is off the picture ({width}x{height}): give the"
        " corners of this picture"
    ),
    N_("white_at must be one of {sides}, not {white_at!r}"),
    N_(
        "cannot serve the corner picker on {host}:{port} ({reason}): choose another "
        "--port, or give --corners"
    ),
    N_(
        "no corners were clicked within {seconds:g} s: run again with --pick, or give "
        'them with --corners "x,y x,y x,y x,y"'
    ),
    N_(
        "corner picking stopped (Ctrl-C) before four corners were sent: run again with "
        '--pick, or give them with --corners "x,y x,y x,y x,y"'
    ),
    N_("the corner picker stopped without corners"),
    N_("the frame could not be encoded as JPEG for the corner picker"),
    N_('send JSON: {{"corners": [[x, y], [x, y], [x, y], [x, y]]}}'),
    N_("click exactly four corners (top-left, top-right, bottom-right, bottom-left)"),
    N_("a corner must be [x, y] in pixels, not {value}"),
    N_("corner ({x:g}, {y:g}) is far outside the picture"),
    N_("two corners are (almost) the same point: undo and click again"),
    N_(
        "the four corners do not make a convex quadrilateral: start again and click the "
        "playing area's top-left, top-right, bottom-right and bottom-left corners"
    ),
    N_("send the corners as application/json, from the picker's own page"),
    N_("the page must be opened by this machine's address, not {host!r}"),
    N_("the page must be opened by this machine's address; the request names none"),
    N_("a request from another site ({origin}) is refused"),
    N_("no such page: {path}"),
    N_("corners were already received"),
    N_("the request has no Content-Length"),
    N_("the request body must be 1 to {most} bytes"),
    N_("corners received: calibration goes on in the terminal; you may close this page"),
    N_(
        "no chessboard found in the picture: give the four corners of the playing area "
        '(--corners "x,y x,y x,y x,y", image top-left, top-right, bottom-right, '
        "bottom-left) or click them in a browser (--pick)"
    ),
    N_("calibration needs a colour frame (H x W x 3)"),
    N_("the calibration position must say every square: no '?'"),
    N_("position {placement!r} looks the same from several sides: give --white-at"),
    N_("the calibration position needs empty squares of both colours to measure the light"),
    N_(
        "with White at the {white_at}, White's pieces look darker than Black's: is White "
        "at the {opposite}? (--white-at)"
    ),
    N_(
        "with White at the {white_at}, the corner squares at the players' right are dark:"
        " the corners or --white-at are a quarter turn off (White at the {one} or "
        "{other}?); corners go top-left, top-right, bottom-right, bottom-left of the "
        "picture"
    ),
    N_(
        "the board stands a quarter turn off: each player must have a light square at the"
        " right-hand corner (FIDE Art. 2.1); turn the board and set the pieces up again"
    ),
    N_(
        "the calibration misreads its own photo on {count} square(s): {squares}. Check "
        "the position given (--fen) and that no hand or shadow is on the board, then take"
        " the photo again (more even light), or keep it anyway with --accept-misread"
    ),
    N_("{square} read as {read}, not {told}"),
    N_(
        "the picture is {width}x{height} pixels: too small to find a board in (at least "
        "{least} on each side; a camera's 640x480 or more is what calibration needs)"
    ),
    N_(
        "--empty {path}: the picture is {width}x{height}, the calibration frame "
        "{cal_width}x{cal_height}: take both with the same camera at the same size"
    ),
    N_("the source gave no frame"),
    N_("{path}: the video gave no frame"),
    N_(
        "the calibration position has no empty square to learn from; use a position with "
        "white and black pieces and empty squares"
    ),
    N_(
        "the calibration position has no white piece to learn from; use a position with "
        "white and black pieces and empty squares"
    ),
    N_(
        "the calibration position has no black piece to learn from; use a position with "
        "white and black pieces and empty squares"
    ),
    N_("the square model lacks {field}"),
    N_("the calibration's square model cannot be read"),
    N_("the calibration's reference image is not base64"),
    N_("the calibration's reference image is not a PNG"),
    N_(
        "a hand or arm is over the board: something crossing its edge hides {count} "
        "squares ({squares}). Take the picture again with nothing over the board (a "
        "shadow moving across it looks the same)"
    ),
    N_(
        "with these corners the squares at the players' right are dark: they are a "
        "quarter turn off; give the picture's top-left, top-right, bottom-right, "
        "bottom-left corners of the playing area"
    ),
    N_(
        "the picture is {width}x{height}, the calibration's {cal_width}x{cal_height}, and"
        " no board was found in it: give --corners"
    ),
    N_(
        "the board found in this picture stands a quarter turn from the calibration's: "
        "give --corners"
    ),
    N_(
        "the board found in this picture does not look like the calibration's (another "
        "board or camera?): give --corners, or calibrate on it"
    ),
    N_("the calibration has no reference frame: give --corners"),
    N_(
        "the picture is {width}x{height}, the calibration's {cal_width}x{cal_height}: "
        "give --corners"
    ),
    N_("the board is not where the calibration has it: give --corners"),
    N_(
        "frames are {width}x{height} but the calibration was made at {cal_width}x{cal_height},"
        " and the board could not be found in them ({error}): set the camera to that size or "
        "recalibrate"
    ),
    N_(
        "the board moved by about {squares:.1f} squares since the calibration: give "
        "--corners or recalibrate"
    ),
    N_("placement {placement!r} must have 8 ranks separated by '/'"),
    N_("placement {placement!r}: bad letter {letter!r} on rank {rank}"),
    N_("placement {placement!r}: rank {rank} has {count} squares"),
    N_("{path}: no such image file"),
    N_("{path}: not an image OpenCV can read"),
    N_("{path}: the video does not say its frame rate; give --fps"),
    N_("{path}: no such folder"),
    N_("{path}: no images ({suffixes})"),
    N_("camera must be a device number or {picam!r}, not {value!r}"),
    N_(
        "--camera picam needs picamera2: on Raspberry Pi OS, sudo apt install "
        "python3-picamera2, and make the virtual environment with --system-site-packages "
        "(or use --camera 0 for a USB camera)"
    ),
    N_("Pi camera: cannot open it ({reason}); is it connected and enabled?"),
    N_("Pi camera: no frame ({reason})"),
    N_("Pi camera: no frame (disconnected?)"),
    N_(
        "the camera commands need {module} ({reason}); install the camera extra: pip "
        "install 'otb-arbiter[camera]'"
    ),
)
#: the corner picker page's own words (`vision.messages.PICK_PAGE`: `arbiter calibrate --pick`)
PICK_PAGE_WORDS = (
    N_("OTB Arbiter: click the board's corners"),
    N_("Undo"),
    N_("Start again"),
    N_("Send corners"),
    N_(
        "Click the corners of the 8x8 playing area (not the board's frame), as seen in the"
        " picture: {corners}."
    ),
    N_("next: {corner} corner"),
    N_("four corners: send them, or undo"),
    N_("the picture could not be loaded"),
    N_("could not send: {error}"),
)
#: the words inside them (`vision.messages`: the corners' names, what a square was read as)
VISION_WORDS = (
    N_("top-left"),
    N_("top-right"),
    N_("bottom-right"),
    N_("bottom-left"),
    N_("empty"),
    N_("a white piece"),
    N_("a black piece"),
)
#: a file the system cannot open, by the error number (the system's own words otherwise)
FILE_ERRORS = {
    errno.ENOENT: N_("{path}: no such file"),
    errno.EACCES: N_("{path}: permission denied"),
    errno.EISDIR: N_("{path}: is a folder"),
}

#: the program's frames around an error (`arbiter COMMAND: ...`)
INTERRUPTED = N_("interrupted")
#: a malformed event, by the line of its stream (`EventError.line`)
AT_LINE = N_("line {line}: {fault}")


# ---------------------------------------------------------------- a live game's own lines

#: the title line of a live game (`arbiter play`, `resume`, `demo`)
TITLE_SIDES = (Np_("title", "White"), Np_("title", "Black"))
VERSUS = N_("{white} v {black}")
NO_CLOCK = N_("no clock")
STRICT = N_("strict")
#: the end of `arbiter play` / `arbiter resume`
GAME_OVER = N_("game over: {result} ({reason})")
STOPPED = N_("stopped; the game goes on with `arbiter resume`")
JOURNAL_AT = N_("journal: {path}")
PGN_AT = N_("PGN: {path}")
HALL_PAGE_AT = N_("the hall's page: {url}   (the arbiter's token: {token})")
LIVECHESS_FEED_AT = N_("LiveChess feed for relays (WebSocket): {url}")
#: how `--tc` was read, printed before the game
TIME_CONTROL_READ = N_("time control: {reading} ({standard})")
#: the keys line of a live game at the keyboard: `arbiter.inputs.base.KEYS_HELP` in English
KEYS_LINE = N_(
    "keys: space press  p pause  c claim  t touch-move claim  j j'adoube"
    "  o/a/d offer/accept/decline  w/b +60 s  :command (:resign)  q stop"
)
#: the line of typed commands (`arbiter.live.commands.COMMANDS_HELP`): the commands stay
TYPE_COMMANDS = N_("type: {commands}")


def game_title(
    white: str | None, black: str | None, control: str | None, extras: list[str], language: str
) -> str:
    """`Ana v Bojan   5400+30   fide-2023, strict`, in `language` (names as given)."""
    _ = translations(language, DOMAIN, str(LOCALE_DIR))
    names = _.gettext(VERSUS).format(
        white=white or _.pgettext(*TITLE_SIDES[0]), black=black or _.pgettext(*TITLE_SIDES[1])
    )
    said = [_.gettext(STRICT) if extra == "strict" else extra for extra in extras]
    return f"{names}   {control or _.gettext(NO_CLOCK)}   {', '.join(said)}"


def keys_line(language: str) -> str:
    """The keys of a live game at the keyboard, in `language`."""
    return gettext(KEYS_LINE, language)


def commands_line(commands_help: str, language: str) -> str:
    """The typed commands' line (`type: e2e4 | lift e2 | ...`) with its lead word in
    `language`; the commands are typed in English in every language."""
    return gettext(TYPE_COMMANDS, language).format(commands=commands_help.removeprefix("type: "))


def game_over_line(result: str, reason: str, language: str) -> str:
    """`game over: 1-0 (checkmate)` in `language`: the reason as the contract names it in
    English (`time`, `checkmate`), in the rules' words in the other languages."""
    from rules.messages import REASONS

    reason_text = reason
    if language != "en" and reason in REASONS:
        reason_text = translations(language).gettext(REASONS[reason])
    return gettext(GAME_OVER, language).format(result=result, reason=reason_text)
