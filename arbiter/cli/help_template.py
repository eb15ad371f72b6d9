"""The template of the `help` catalogue: every help text of every command, and argparse's own
words, as `pybabel` writes a `.pot` (`arbiter/locale/help.pot`).

    python -m arbiter.cli.help_template > arbiter/locale/help.pot

A developer's tool, apart from `arbiter.cli.localize` so that the command line imports only
one way (`arbiter.cli` -> `localize`): building every command's parser needs the first, and
the texts and their translation the second. Babel (a `dev` dependency) is imported here only.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence

from arbiter.cli import _available, build_parser
from arbiter.cli.localize import (
    ARGPARSE_PLURALS,
    ARGPARSE_WORDS,
    DOMAIN,
    help_texts,
    use_language,
)

__all__ = ["all_commands_parser", "template"]


def all_commands_parser() -> argparse.ArgumentParser:
    """The `arbiter` parser with every command installed here (in English)."""
    use_language("en")
    parser, _ = build_parser(_available())
    return parser


def template(texts: Sequence[str]) -> str:
    """The catalogue template of `texts` and argparse's words (sorted, as pybabel writes)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(project="otb-arbiter", domain=DOMAIN)
    for text in (*ARGPARSE_WORDS, *texts):
        catalog.add(text)
    for singular, plural in ARGPARSE_PLURALS:
        catalog.add((singular, plural))
    out = io.BytesIO()
    write_po(out, catalog, omit_header=True, sort_output=True, width=100, no_location=True)
    return out.getvalue().decode("utf-8")


if __name__ == "__main__":
    sys.stdout.write(template(help_texts(all_commands_parser())))
