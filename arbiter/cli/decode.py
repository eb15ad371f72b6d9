"""`arbiter decode --protocol NAME FILE`: a board capture as contract events (JSON Lines).

A timestamped capture (`eboard-protocols.md` 0.1: JSON Lines with `t` and `rx`/`tx`) keeps its
times, so the output replays like the live game; its `link` lines (our extension, written by
the transport when a cable is pulled) come out as `sensor` `disconnected`/`reconnected` events,
and the codec restarts at a reconnection as the live one did. A raw file of bare received
bytes has no times: each byte is stamped with the time it would arrive at the protocol's wire
rate (byte index x bits per byte / baud rate), so an event carries the time its frame's last
byte arrived; a note on stderr says such output is for reading, not for replay. Events are written
as they are decoded, so a bad capture line stops the output after everything before it. At the
end a line on stderr says how many events came out and how many bytes were dropped, in how
many places and why (the `sensor` `dropped` events carry the same counts). `decode_stream` is
the same decoder for use in-process (tests, benchmarks). `--rotated` fixes the orientation
of a board seated the other way round, which an occupancy-only Sentio cannot detect.
A raw DGT capture with a clock is timed by the clock itself (`firmware_bridge.clock_timing`):
each event gets the real time its clock readings say, so `arbiter pgn` writes the game's
`[%clk]` as the clock showed them. `--clock-white right` says White sat on the clock's right
(every press would otherwise go to the wrong side).
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO

from arbiter.errors import DecodeFileError
from arbiter.i18n import DOMAIN, LOCALE_DIR, gettext, language_for
from rules.i18n import N_, Nn_, translations

if TYPE_CHECKING:
    from firmware_bridge.clock_timing import ClockTimeline
    from firmware_bridge.codecs.base import Codec
    from rules.events import Event, Sensor

HELP = "decode a board capture (timestamped JSON Lines or raw bytes) into contract events"
#: raw files are read and fed in pieces of this many bytes (each byte keeps its own time)
_RAW_BLOCK = 65536


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--protocol",
        required=True,
        metavar="NAME",
        help="the board's protocol: dgt, millennium, certabo, sentio, chessnut, revelation",
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
    parser.add_argument(
        "--clock-white",
        dest="clock_white",
        choices=("left", "right"),
        help="DGT 3000 on the board: which side of the clock, seen from its front, is"
        " White's (default left)",
    )
    parser.add_argument(
        "--rotated",
        action="store_true",
        help="the board was seated the other way round (a Sentio cannot tell; the others"
        " find it from the initial position)",
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
        from rules.events import Sensor

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
    from arbiter.records.stream import A_CAPTURE, open_stream

    return open_stream(path, what=A_CAPTURE, error=DecodeFileError)


#: the summary line on stderr (the counts choose the plural forms)
EVENTS = Nn_("{count} event", "{count} events", "count")
CLOCK_TIMES = N_("times from the board's clock readings")
NOTHING_DROPPED = N_("nothing dropped")
DROPPED = Nn_("dropped {count} byte", "dropped {count} bytes", "count")
IN_PLACES = Nn_("in {count} place", "in {count} places", "count")
MORE_KINDS = Nn_("{count} more kind", "{count} more kinds", "count")
#: a raw file's note, and the refusals of `arbiter decode`
RAW_NOTE = N_(
    "{path} is raw bytes: events are stamped at the wire rate ({baud} baud); for reading, "
    "not for replay"
)
NO_WIRE_RATE = N_(
    "{name}: a raw {protocol} file has no wire rate to stamp it with (the board is USB HID or "
    "Bluetooth); decode a timestamped capture"
)
CLOCK_WHITE_NOT_DGT = N_("--clock-white is for a DGT board with a DGT 3000 clock")


@dataclass
class DecodeStats:
    """What a decode read and threw away, for the summary on stderr."""

    raw: bool = False
    #: a raw DGT capture whose times came from the clock's own readings
    clocked: bool = False
    events: int = 0
    dropped_bytes: int = 0
    drop_reports: int = 0
    details: list[str] = field(default_factory=list)

    def count(self, event: Event) -> None:
        from rules.events import Sensor

        if isinstance(event, Sensor) and event.status == "dropped":
            self.drop_reports += 1
            self.dropped_bytes += event.bytes or 0
            if event.detail and event.detail not in self.details and len(self.details) < 8:
                self.details.append(event.detail)
        else:
            self.events += 1

    def summary(self, name: str, language: str = "en") -> str:
        """One line for stderr: events decoded, bytes dropped (in how many places, why), in
        `language` (the codecs' reasons for a drop stay as the codec says them)."""
        _ = translations(language, DOMAIN, str(LOCALE_DIR))

        def count(said: tuple[str, str, str], n: int) -> str:
            return _.ngettext(said[0], said[1], n).format(count=n)

        text = f"arbiter decode: {name}: {count(EVENTS, self.events)}"
        if self.raw and self.clocked:
            text += f" ({_.gettext(CLOCK_TIMES)})"
        if not self.dropped_bytes:
            return f"{text}, {_.gettext(NOTHING_DROPPED)}"
        dropped = count(DROPPED, self.dropped_bytes)
        text += f"; {dropped} {count(IN_PLACES, self.drop_reports)}"
        if self.details:
            text += " (" + "; ".join(self.details[:3])
            text += (
                f"; {count(MORE_KINDS, len(self.details) - 3)})" if len(self.details) > 3 else ")"
            )
        return text


def decode_stream(
    codec: Codec,
    handle: BinaryIO,
    name: str,
    stats: DecodeStats | None = None,
    timeline: ClockTimeline | None = None,
) -> Iterator[Event]:
    """The events of the capture or raw file open in `handle`, in order, as decoded.

    A capture keeps its times; a raw file is stamped at the codec's wire rate (each byte at
    the time it would arrive, so an event carries the time its frame's last byte came),
    except a raw file of a board that reports a clock (DGT), stamped by the clock's own
    readings (`timeline`, built here from the bytes when not given).
    Consecutive drop reports are merged into one `sensor` `dropped` event.

    Raises:
        DecodeFileError: a raw file of a protocol with no wire rate (USB HID, Bluetooth).
        CaptureError: a bad capture line (after every event before it).
    """
    from firmware_bridge.capture import LinkChange, is_capture, read_capture
    from rules.events import Sensor

    stats = stats if stats is not None else DecodeStats()
    drops = _Drops()

    def sort(events: list[Event]) -> Iterator[Event]:
        for event in events:
            if isinstance(event, Sensor) and event.status == "dropped":
                drops.add(event)
                continue
            for pending in [*drops.take(), event]:
                stats.count(pending)
                yield pending

    head = handle.peek(64) if hasattr(handle, "peek") else b""
    last_t = 0.0
    if is_capture(head):
        text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
        for chunk in read_capture(text, name):
            last_t = chunk.t
            if isinstance(chunk, LinkChange):
                yield from sort([Sensor(t=chunk.t, status=chunk.status, detail=chunk.detail)])
                if chunk.status == "reconnected":
                    codec.encode_startup()  # the codec forgets what the old link left
            elif chunk.direction == "rx":
                yield from sort(codec.feed(chunk.data, chunk.t))
    else:
        if not codec.baudrate:
            raise DecodeFileError.of(NO_WIRE_RATE, name=name, protocol=codec.name)
        stats.raw = True
        per_byte = codec.bits_per_byte / codec.baudrate
        if codec.has_clock:
            # a board that reports a clock (DGT): its readings give the real times
            from firmware_bridge.clock_timing import ClockTimeline

            data = handle.read()
            timeline = timeline or ClockTimeline.from_capture(type(codec), data)
            stats.clocked = timeline.clocked
            for i in range(len(data)):
                last_t = timeline.time_at(i)
                yield from sort(codec.feed(data[i : i + 1], last_t))
        else:
            index = 0
            while block := handle.read(_RAW_BLOCK):
                for i in range(len(block)):
                    last_t = (index + i) * per_byte
                    yield from sort(codec.feed(block[i : i + 1], last_t))
                index += len(block)
    yield from sort(codec.flush(last_t))
    for event in drops.take():
        stats.count(event)
        yield event


def run(args: argparse.Namespace) -> int:
    from firmware_bridge.registry import codec_class, codec_for
    from rules.events import Start

    options: dict[str, object] = {}
    dgt = codec_class(args.protocol).name in ("dgt", "revelation")
    if args.rotated:  # eboard-protocols.md 0: the orientation, fixed
        options = {"rotated": True} if dgt else {"orientation": "rotated"}
    if args.clock_white is not None:
        if not dgt:
            raise DecodeFileError.of(CLOCK_WHITE_NOT_DGT)
        options["clock_white"] = args.clock_white
    codec = codec_for(args.protocol, calibration=args.calibration, **options)
    out = sys.stdout
    stats = DecodeStats()
    with _open(args.file) as handle:
        head = handle.peek(64) if hasattr(handle, "peek") else b""
        from firmware_bridge.capture import is_capture

        raw = codec.baudrate and not is_capture(head)
        timeline = None
        if raw and codec.has_clock:
            from firmware_bridge.clock_timing import ClockTimeline

            data = handle.read()
            timeline = ClockTimeline.from_capture(type(codec), data)
            handle = io.BufferedReader(io.BytesIO(data))  # type: ignore[assignment]
        if args.start:
            time_control = timeline.time_control if timeline is not None else None
            start = Start(t=0.0, **codec.sensor_settings)
            if time_control is not None:
                start = dataclasses.replace(start, time_control=time_control)
            out.write(start.to_json() + "\n")
        try:
            for event in decode_stream(codec, handle, args.file, stats, timeline):
                out.write(event.to_json() + "\n")
        finally:
            out.flush()
            if raw and not stats.clocked:
                note = gettext(RAW_NOTE, language_for())
                note = note.format(path=args.file, baud=codec.baudrate)
                sys.stderr.write(f"arbiter decode: {note}\n")
            sys.stderr.write(stats.summary(args.file, language_for()) + "\n")
    return 0
