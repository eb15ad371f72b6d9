"""The errors of `firmware_bridge`: one tree under the rules' `ArbiterError`, so that the
`arbiter` command says any of them in the user's language (`arbiter.i18n.error_text`) and a
caller can catch everything a board can go wrong with as `BoardError`.

    ArbiterError (rules.errors)
    └── BoardError                        a board, its link or its settings cannot be used
        ├── TransportError                a port cannot be opened or used (named in the message)
        │   ├── DetectionError            no known protocol answered on a port (`auto:`)
        │   ├── BleUnavailableError       no Bluetooth LE here: no bleak, no adapter, or off
        │   └── HidUnavailableError       hidapi is not installed (the `hid` extra)
        ├── CodecError                    a codec cannot do what it was asked
        │   ├── CodecUsageError           (ValueError) a bad square or time to send
        │   ├── CalibrationError          (ValueError) a Certabo calibration cannot be made
        │   └── DgtFrameError             a DGT message of impossible content (never leaves
        │                                 the codec: it drops the message and reports it)
        ├── GpioError                     the GPIO seam
        │   ├── GpioUnavailable           (RuntimeError) its library is missing, not a Pi
        │   ├── PinConfigError            (ValueError) a pin map or back-end name is wrong
        │   └── PinUsageError             (ValueError) a pin used against its set-up
        ├── UnknownProtocolError          (ValueError) a protocol no codec speaks
        ├── BoardSpecError                (ValueError) a `--board` value that cannot be used
        ├── CaptureError                  a capture file cannot be opened, read or written
        ├── VirtualBoardError             a virtual board cannot be made or driven as asked
        ├── SearchNote                    what `--board auto` could not search (a note,
        │                                 carried, not raised)
        └── Described                     what a found device is (carried, not raised)

    BleLinkLost (ConnectionError)         the Bluetooth LE link went away: the board loop's
                                          signal, said as a `disconnected` sensor event

They live here, not in the modules that raise them, so that the tree is read in one place
and a module can catch another's error without importing it.
"""

from __future__ import annotations

from rules.errors import ArbiterError

__all__ = [
    "BleLinkLost",
    "BleUnavailableError",
    "BoardError",
    "BoardSpecError",
    "CalibrationError",
    "CaptureError",
    "CodecError",
    "CodecUsageError",
    "Described",
    "DetectionError",
    "DgtFrameError",
    "GpioError",
    "GpioUnavailable",
    "HidUnavailableError",
    "PinConfigError",
    "PinUsageError",
    "SearchNote",
    "TransportError",
    "UnknownProtocolError",
    "VirtualBoardError",
]


class BoardError(ArbiterError):
    """A board, its link or its settings cannot be used (the base of this package's errors)."""


class TransportError(BoardError):
    """A port that cannot be opened or used (named in the message)."""


class DetectionError(TransportError):
    """No known protocol answered on a port (`auto:`)."""


class BleUnavailableError(TransportError):
    """No Bluetooth LE here: no `bleak` installed, no adapter, or the adapter is off."""


class HidUnavailableError(TransportError):
    """hidapi is not installed (the `hid` extra)."""


class CodecError(BoardError):
    """Base of the codecs' errors."""


class CodecUsageError(CodecError, ValueError):
    """The caller asked for something the protocol cannot say (a bad square, a bad time)."""


class CalibrationError(CodecError, ValueError):
    """A calibration cannot be built from these records, or a calibration file is bad."""


class DgtFrameError(CodecError):
    """A complete DGT message whose content is impossible (bad piece code, bad BCD).

    Raised by the message decoders and caught inside the codec, which drops the message and
    reports it; it never leaves `DgtCodec.feed`.
    """


class GpioError(BoardError):
    """Base of the GPIO seam's errors."""


class GpioUnavailable(GpioError, RuntimeError):
    """The chosen back-end cannot run here (its library is missing, or this is not a Pi)."""


class PinConfigError(GpioError, ValueError):
    """A pin map or a back-end name is wrong: an unknown name, a pin used twice, out of range."""


class PinUsageError(GpioError, ValueError):
    """A pin was used against its set-up: written as an input, read before set-up, ..."""


class UnknownProtocolError(BoardError, ValueError):
    """A protocol name that no codec speaks."""


class BoardSpecError(BoardError, ValueError):
    """A `--board` value that is not `PROTOCOL:DEVICE`, or an option the protocol lacks."""


class CaptureError(BoardError):
    """A capture file cannot be opened, read or written, or one of its lines is malformed."""


class VirtualBoardError(BoardError):
    """A virtual board that cannot be made or driven as asked."""


class SearchNote(BoardError):
    """What could not be searched, and why (a note of `Discovery`; not raised)."""


class Described(BoardError):
    """What a device is (`Found.said`; not raised)."""


class BleLinkLost(ConnectionError):
    """The Bluetooth LE link to a board was lost (the board went away or was switched off)."""
