"""The message catalogues as files: the template Babel extracts from the source, each
language's `.po` and its compiled `.mo` (helpers of the catalogue tests)."""

from __future__ import annotations

import gettext
import string
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
#: the two catalogues: the rulings' (rules core) and the program's (arbiter)
DOMAINS = {"rules": ROOT / "rules", "arbiter": ROOT / "arbiter"}
#: the Babel keywords of the markers in rules.i18n (as babel.cfg and docs/languages.md)
KEYWORDS = {"N_": None, "Nn_": (1, 2), "Np_": ((1, "c"), 2)}


def extracted(domain: str) -> set[tuple[str | None, str]]:
    """(context, message id) of every message marked in the domain's package source."""
    found: set[tuple[str | None, str]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        DOMAINS[domain], method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found.add((context, msgid))
    return found


def po_path(domain: str, language: str) -> Path:
    return DOMAINS[domain] / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language)


def messages(catalog: Catalog) -> list[Message]:
    """The catalogue's messages, the header left out."""
    return [m for m in catalog if m.id]


def msgid(m: Message) -> str:
    return str(m.id[0] if isinstance(m.id, tuple | list) else m.id)


def fields(text: str) -> list[str]:
    """The placeholders of a `str.format` template, with their format specs, sorted."""
    return sorted(
        f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None
    )


def compiled(domain: str, language: str) -> gettext.GNUTranslations:
    path = po_path(domain, language).with_suffix(".mo")
    with path.open("rb") as f:
        return gettext.GNUTranslations(f)
