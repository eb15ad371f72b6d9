"""A library's reason for a failure, said in our own catalogued words.

An error of ours often carries, inside its sentence, a reason another library gave: the
system's (`OSError.strerror`: "No such file or directory"), Python's JSON decoder's
("Expecting value"), tomllib's ("Invalid value (at line 3, column 9)"). Their words are
English whatever the reader's language. `reason_of(exc)` turns such a reason into a
`Reason`: as a `str` it is our English sentence for it, and `say(language)` is the same
sentence in the reader's language (the rules' catalogue, where these words are marked), so
that `arbiter.i18n.error_text` and every other place that says a field can say it.

`Reason` lives in `reason`, which every table imports; this package's `reason_of` (and
`ble_reason`, for a Bluetooth LE operation) picks the table, so imports point one way. One
module per family keeps its table: `os_errors` by the error number (never by the
English text, which differs between systems), `json_errors` and `toml_errors` by the fixed
message forms of CPython's `json.decoder`/`_json` and `tomllib._parser`, with the position
numbers kept, `codec_errors` by the UTF-8 decoder's fixed reasons; for the boards' links,
`serial_errors` (pyserial), `ble_errors` (bleak, Bluetooth LE) and `hid_errors` (hidapi, USB
HID), each by its library's exception classes (known by name: none is imported here) and
fixed texts, the system's error number inside them by `os_errors`. A reason not in its
table stays as the library says it (the fallback); tests/i18n/test_library_reasons.py
lists what each table covers.

The package reads nothing and writes nothing: it only names what others ran into.
"""

from __future__ import annotations

from rules.library_reasons.reason import Reason

__all__ = ["Reason", "ble_reason", "reason_of"]


def reason_of(exc: BaseException) -> Reason:
    """The reason `exc` gives, in our words where its family's table knows it.

    bleak's (Bluetooth LE) and pyserial's exceptions by their own tables; OSError (and
    socket's address errors) by number; `json.JSONDecodeError`, `tomllib.TOMLDecodeError`
    and `UnicodeDecodeError` by their fixed messages, JSON's `RecursionError` and too many
    digits, hidapi's numberless texts (`open failed`); anything else as its text.
    """
    import json
    import tomllib

    from rules.library_reasons import (
        ble_errors,
        codec_errors,
        hid_errors,
        json_errors,
        os_errors,
        serial_errors,
        toml_errors,
    )

    if len(exc.args) == 1 and isinstance(exc.args[0], Reason):  # raised with our words
        return exc.args[0]
    if ble_errors.is_bleak(exc):
        return ble_errors.bleak_reason(exc)
    if serial_errors.is_serial(exc):
        return serial_errors.serial_reason(exc)
    if isinstance(exc, json.JSONDecodeError):
        return json_errors.json_reason(exc)
    if isinstance(exc, tomllib.TOMLDecodeError):
        return toml_errors.toml_reason(exc)
    if isinstance(exc, UnicodeDecodeError):
        return codec_errors.decode_reason(exc)
    if isinstance(exc, RecursionError):  # json.loads of a value nested too deeply
        return Reason(json_errors.NESTED)
    if isinstance(exc, ValueError) and (digits := json_errors.digits_reason(exc)) is not None:
        return digits
    if (hid := hid_errors.hid_reason(exc)) is not None:
        return hid
    if isinstance(exc, OSError):
        return os_errors.os_reason(exc)
    return Reason.library(str(exc) or type(exc).__name__)


def ble_reason(exc: BaseException) -> Reason:
    """The reason a Bluetooth LE operation failed, in our words: bleak's by its tables, the
    system's around it (no D-Bus socket: no Bluetooth service; a timeout: no answer; another
    `OSError` by its number), anything else as its text."""
    from rules.library_reasons import ble_errors

    around = ble_errors.around_bleak(exc)
    return around if around is not None else reason_of(exc)
