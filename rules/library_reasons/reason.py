"""`Reason`: a library's reason for a failure in our catalogued words (the English as a `str`,
any language by `say`), the value every table of this package gives."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.i18n import localized, translations

__all__ = ["Reason"]


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
