"""`arbiter decode --protocol NAME FILE`: a board capture as contract events (JSON Lines).

A timestamped capture (`eboard-protocols.md` 0.1: JSON Lines with `t` and `rx`/`tx`) keeps its
times, so the output replays like the live game; its `link` lines (our extension, written by
the transport when a cable is pulled) come out as `sensor` `disconnected`/`reconnected` events,
and the codec restarts at a reconnection as the live one did. A raw file of bare received
bytes has no times: each byte is stamped with the time it would arrive at the protocol's wire
rate (byte index x bits per byte / baud rate), so an event carries the time its frame's last
byte arrived; a note on stderr says such output is for reading, not for replay. Events are written
as they are decoded, so a bad capture line stops the output after everything before it.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import BinaryIO

from rules.errors import ArbiterError
from rules.events import Event, Sensor, Start

HELP = "decode a board capture (timestamped JSON Lines or raw bytes) into contract events"
#: raw files are read and fed in pieces of this many bytes (each byte keeps its own time)
_RAW_BLOCK = 65536


class DecodeFileError(ArbiterError):
    """The file to decode cannot be opened or read."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--protocol",
        required=True,
        metavar="NAME",
        help="the board's protocol: dgt, millennium, certabo, sentio, chessnut",
    )
    parser.add_argument("file", metavar="FILE", help="a capture (JSON Lines) or raw bytes")
    parser.add_argument(
        "--calibration", metavar="FILE", help="Certabo: which RFID tag is which piece"
    )
    parser.add_argument(
        "--start",
        action="store_true",
        help="begin with a 'start' event carrying the board's sensor settings",
    )


class _Drops:
    """Consecutive `dropped` reports merged into one: a raw file is fed a byte at a time (each
    byte keeps its own time), and some codecs report every feed's garbage at once."""

    def __init__(self) -> None:
        self._first: Sensor | None = None
        self._bytes = 0
        self._details: list[str] = []

    def add(self, event: Sensor) -> None:
        if self._first is None:
            self._first = event
        self._bytes += event.bytes or 0
        if event.detail and event.detail not in self._details:
            self._details.append(event.detail)

    def take(self) -> list[Event]:
        if self._first is None:
            return []
        details = self._details[:4] + (
            [f"{len(self._details) - 4} more"] if len(self._details) > 4 else []
        )
        merged = Sensor(
            t=self._first.t, status="dropped", bytes=self._bytes, detail="; ".join(details) or None
        )
        self._first, self._bytes, self._details = None, 0, []
        return [merged]


def _open(path: str) -> BinaryIO:
    p = Path(path)
    if not p.exists():
        raise DecodeFileError(f"{path}: no such file")
    if p.is_dir():
        raise DecodeFileError(f"{path}: is a folder, not a capture")
    try:
        return p.open("rb")
    except OSError as exc:
        raise DecodeFileError(f"{path}: cannot be read ({exc.strerror})") from None


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.capture import LinkChange, is_capture, read_capture
    from firmware_bridge.registry import codec_for

    codec = codec_for(args.protocol, calibration=args.calibration)
    out = sys.stdout

    drops = _Drops()

    def emit(events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Sensor) and event.status == "dropped":
                drops.add(event)
                continue
            for pending in [*drops.take(), event]:
                out.write(pending.to_json() + "\n")

    if args.start:
        emit([Start(t=0.0, **codec.sensor_settings)])
    with _open(args.file) as handle:
        head = handle.peek(64) if hasattr(handle, "peek") else b""
        last_t = 0.0
        if is_capture(head):
            text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
            for chunk in read_capture(text, args.file):
                last_t = chunk.t
                if isinstance(chunk, LinkChange):
                    emit([Sensor(t=chunk.t, status=chunk.status, detail=chunk.detail)])
                    if chunk.status == "reconnected":
                        codec.encode_startup()  # the codec forgets what the old link left
                elif chunk.direction == "rx":
                    emit(codec.feed(chunk.data, chunk.t))
        else:
            if not codec.baudrate:
                raise DecodeFileError(
                    f"{args.file}: a raw {codec.name} file has no wire rate to stamp it with"
                    " (the board is USB HID or Bluetooth); decode a timestamped capture"
                )
            sys.stderr.write(
                f"arbiter decode: {args.file} is raw bytes: events are stamped at the wire rate"
                f" ({codec.baudrate} baud); for reading, not for replay\n"
            )
            per_byte = codec.bits_per_byte / codec.baudrate
            index = 0
            while block := handle.read(_RAW_BLOCK):
                for i in range(len(block)):
                    last_t = (index + i) * per_byte
                    emit(codec.feed(block[i : i + 1], last_t))
                index += len(block)
        flush = getattr(codec, "flush", None)
        if callable(flush):
            emit(flush(last_t))
        emit(drops.take())
    out.flush()
    return 0
