"""`arbiter boards`: the e-boards found on USB, serial ports and Bluetooth LE, each with the
`--board` value that opens it.

The search is `firmware_bridge.discovery` (imported only when the command runs; bleak only
when Bluetooth is searched). What could not be searched (no bleak, no adapter, no hidraw) is
said in a line of its own, not as an error: a machine without a radio still lists its USB
boards. `--probe` also asks unknown serial ports what they are (DGT `4D`, Millennium `V`, and
listening for Certabo and Sentio; never `4E` or `T`), about 5 s each when nothing answers.
Exit status 0 when at least one board was found, 1 when none.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from arbiter.cli.localize import argv_error
from arbiter.errors import ConfigError
from arbiter.i18n import error_text, gettext, language_for
from rules.i18n import N_

HELP = "list the e-boards found on USB, serial ports and Bluetooth LE, with their --board value"

_LINKS = {"serial": "serial", "hid": "USB HID", "ble": "Bluetooth LE"}
#: the command's own words (the devices' names stay as found; the notes of discovery are
#: `firmware_bridge.discovery`'s templates)
NOT_SECONDS = N_("not a number of seconds: {text!r}")
SECONDS_RANGE = N_("between 0 and 120 seconds, not {text}")
UNKNOWN_DEVICE = N_("unknown: try {option}")
NO_BOARD = N_("no board found")
NOTE = N_("note: {note}")


def _scan_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        said = ConfigError.of(NOT_SECONDS, text=text)
        raise argparse.ArgumentTypeError(argv_error(said)) from None
    if not 0 <= value <= 120:
        raise argparse.ArgumentTypeError(argv_error(ConfigError.of(SECONDS_RANGE, text=text)))
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scan-s",
        type=_scan_seconds,
        default=5.0,
        metavar="S",
        help="how long to listen for Bluetooth LE boards (default 5 s)",
    )
    parser.add_argument(
        "--no-bluetooth", action="store_true", help="do not search for Bluetooth LE boards"
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="ask unknown serial ports what they are (about 5 s a port that does not answer)",
    )


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.discovery import discover

    found = discover(ble_timeout=args.scan_s, probe=args.probe, bluetooth=not args.no_bluetooth)
    return report(found, sys.stdout, language_for())


def report(found: object, out: TextIO, language: str = "en") -> int:
    """Write the devices found and the notes (the command's words in `language`); 0 if a
    board was found, else 1."""
    from firmware_bridge.discovery import Discovery

    unknown = gettext(UNKNOWN_DEVICE, language)

    assert isinstance(found, Discovery)
    rows = [
        (
            _LINKS.get(f.link, f.link),
            f.device,
            (f.what if f.said is None else error_text(f.said, language))
            + (f" ({f.detail})" if f.detail else ""),
            f"--board {f.spec}" if f.spec else unknown.format(option="--board auto:" + f.device),
        )
        for f in found.found
    ]
    if rows:
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        for row in rows:
            cells = [row[i].ljust(widths[i]) for i in range(3)]
            out.write("  ".join([*cells, row[3]]) + "\n")
    else:
        out.write(gettext(NO_BOARD, language) + "\n")
    for note in found.notes:
        out.write(gettext(NOTE, language).format(note=error_text(note, language)) + "\n")
    return 0 if found.boards else 1
