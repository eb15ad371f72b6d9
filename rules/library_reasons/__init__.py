"""A library's reason for a failure, said in our own catalogued words.

An error of ours often carries, inside its sentence, a reason another library gave: the
system's (`OSError.strerror`: "No such file or directory"), Python's JSON decoder's
("Expecting value"), tomllib's ("Invalid value (at line 3, column 9)"). Their words are
English whatever the reader's language. `reason_of(exc)` turns such a reason into a
`Reason`: as a `str` it is our English sentence for it, and `say(language)` is the same
sentence in the reader's language (the rules' catalogue, where these words are marked), so
that `arbiter.i18n.error_text` and every other place that says a field can say it.

One module per family keeps its table: `os_errors` by the error number (never by the
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

from collections.abc import Callable, Mapping

from rules.i18n import localized, translations

__all__ = ["Reason", "reason_of"]


class Reason(str):
    """A library's reason in our words: the English as a `str`, any language by `say`.

    `template` is a message id of the rules' catalogue (None: the library's own text, not
    in our tables, said as it is); `fields` fill it, and may be `Reason`s themselves (a
    JSON fault and its position).
    """

    template: str | None
    fields: Mapping[str, object]

    def __new__(cls, template: str | None, text: str = "", **fields: object) -> Reason:
        said = super().__new__(cls, text if template is None else template.format(**fields))
        said.template = template
        said.fields = fields
        return said

    def __reduce__(self) -> tuple[object, tuple[str, str | None, dict[str, object]]]:
        """Copied and pickled as it is (its English is not a template to fill again)."""
        return _rebuilt, (str(self), self.template, dict(self.fields))

    @classmethod
    def library(cls, text: str) -> Reason:
        """A reason none of our tables knows: the library's text, in every language."""
        return cls(None, text)

    @classmethod
    def recorded(cls, text: str, template: str, **fields: object) -> Reason:
        """A reason whose English is `text` as a record keeps it (a link's `disconnected`
        detail in the journal, with the library's words), and `template` filled with
        `fields` in the other languages."""
        return _rebuilt(text, template, fields)

    def say(self, language: str, other: Callable[[object], object] | None = None) -> str:
        """This reason in `language` (English: the `str` itself); `other` says a field that
        is no `Reason` (an error of ours inside it), where the caller knows how."""
        if self.template is None or language == "en":
            return str(self)
        template = translations(language).gettext(self.template)
        fields = {
            name: value.say(language, other)
            if isinstance(value, Reason)
            else (value if other is None else other(value))
            for name, value in self.fields.items()
        }
        return template.format_map(localized(fields, language))


def _rebuilt(text: str, template: str | None, fields: dict[str, object]) -> Reason:
    said = str.__new__(Reason, text)
    said.template = template
    said.fields = fields
    return said


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
        return ble_errors.ble_reason(exc)
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
