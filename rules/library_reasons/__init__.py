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
numbers kept, `codec_errors` by the UTF-8 decoder's fixed reasons. A reason not in its
table stays as the library says it (the fallback); tests/i18n/test_library_reasons.py
lists what each table covers.

The package reads nothing and writes nothing: it only names what others ran into.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.i18n import translations

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

    def say(self, language: str) -> str:
        """This reason in `language` (English: the `str` itself)."""
        if self.template is None or language == "en":
            return str(self)
        template = translations(language).gettext(self.template)
        fields = {
            name: value.say(language) if isinstance(value, Reason) else value
            for name, value in self.fields.items()
        }
        return template.format(**fields)


def _rebuilt(text: str, template: str | None, fields: dict[str, object]) -> Reason:
    said = str.__new__(Reason, text)
    said.template = template
    said.fields = fields
    return said


def reason_of(exc: BaseException) -> Reason:
    """The reason `exc` gives, in our words where its family's table knows it.

    OSError (and socket's address errors) by number; `json.JSONDecodeError`,
    `tomllib.TOMLDecodeError` and `UnicodeDecodeError` by their fixed messages, JSON's
    `RecursionError` and too many digits; anything else as its text.
    """
    import json
    import tomllib

    from rules.library_reasons import codec_errors, json_errors, os_errors, toml_errors

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
    if isinstance(exc, OSError):
        return os_errors.os_reason(exc)
    return Reason.library(str(exc) or type(exc).__name__)
