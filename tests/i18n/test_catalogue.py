"""The catalogues are whole: every message marked in the source is translated in every
language, with the same placeholders, the compiled `.mo` say what the `.po` say, and the
plural forms are right for 1, 2, 5 and 21 (and fractions)."""

from __future__ import annotations

import re

import pytest
from catalogue_files import (
    DOMAINS,
    compiled,
    extracted,
    fields,
    messages,
    msgid,
    po_path,
    read_catalog,
)

from rules.i18n import LANGUAGES
from rules.messages import EN, Plural, message

TRANSLATED = [code for code in LANGUAGES if code != "en"]
CASES = [(d, lang) for d in DOMAINS for lang in TRANSLATED]


@pytest.mark.parametrize(("domain", "language"), CASES)
def test_every_message_is_translated(domain: str, language: str) -> None:
    catalog = read_catalog(po_path(domain, language), language)
    have = {(m.context, msgid(m)): m for m in messages(catalog)}
    wanted = extracted(domain)
    missing = wanted - set(have)
    assert not missing, f"{language} {domain}.po lacks {sorted(missing, key=str)[:5]}"
    stale = set(have) - wanted
    assert not stale, f"{language} {domain}.po has messages the source no longer has: {stale}"
    for m in have.values():
        forms = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        assert all(forms) and not m.fuzzy, f"{language}: {msgid(m)!r} is not translated"
        if isinstance(m.id, tuple | list):
            assert len(forms) == catalog.num_plurals, f"{language}: {msgid(m)!r} plural forms"
    share = 100 * sum(1 for m in have.values() if m.string) / len(have)
    print(f"{language} {domain}: {len(have)} messages, {share:.0f} % translated")
    assert share == 100


#: pairs of languages whose translations are of different words (sr and bs share many)
UNLIKE = [("sr", "cs"), ("sr", "pl"), ("cs", "pl"), ("sr", "mk"), ("bs", "pl"), ("sr", "sr_Cyrl")]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize(("one", "other"), UNLIKE)
def test_each_language_has_its_own_words(domain: str, one: str, other: str) -> None:
    """A catalogue filled with another language's sentences would pass every test above: few
    of two unlike languages' translations may be the same (a placeholder line, "mat", "pat")."""

    def strings(language: str) -> dict[tuple[str | None, str], str]:
        catalog = read_catalog(po_path(domain, language), language)
        return {(m.context, msgid(m)): str(m.string) for m in messages(catalog)}

    first, second = strings(one), strings(other)
    same = sorted(
        k[1]
        for k in first
        if first[k] == second.get(k) and re.search(r"[^\W\d_]", re.sub(r"\{[^}]*\}", "", first[k]))
    )
    assert len(same) <= len(first) // 10, f"{one} and {other} say the same in {same[:8]}"


@pytest.mark.parametrize(("domain", "language"), CASES)
def test_placeholders_are_those_of_the_english(domain: str, language: str) -> None:
    for m in messages(read_catalog(po_path(domain, language), language)):
        ids = [str(i) for i in (m.id if isinstance(m.id, tuple | list) else [m.id])]
        forms = [str(f) for f in (m.string if isinstance(m.string, tuple | list) else [m.string])]
        want = fields(ids[-1])
        assert all(fields(i) == want for i in ids), f"English forms differ: {ids}"
        for form in forms:
            assert fields(form) == want, f"{language}: {form!r} has not the fields of {ids[0]!r}"


@pytest.mark.parametrize(("domain", "language"), CASES)
def test_the_compiled_catalogue_is_that_of_the_po(domain: str, language: str) -> None:
    catalog = read_catalog(po_path(domain, language), language)
    mo = compiled(domain, language)
    assert mo.info()["plural-forms"] == catalog.plural_forms
    want: dict[object, object] = {}
    for m in messages(catalog):
        key = msgid(m) if m.context is None else f"{m.context}\x04{msgid(m)}"
        if isinstance(m.string, tuple | list):
            for i, form in enumerate(m.string):
                want[(key, i)] = form
        else:
            want[key] = m.string
    got = {k: v for k, v in mo._catalog.items() if k != ""}  # type: ignore[attr-defined]
    assert got == want, "the .mo is out of date: compile it again (docs/languages.md)"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_is_that_of_the_source(domain: str) -> None:
    pot = read_catalog(DOMAINS[domain] / "locale" / f"{domain}.pot")
    assert {(m.context, msgid(m)) for m in messages(pot)} == extracted(domain)


#: the word for "seconds" after 1, 2, 5, 21 and 2.5 in each language
SECONDS = {
    "en": ("1 second ", "2 seconds ", "5 seconds ", "21 seconds ", "2.5 seconds "),
    "sr": ("1 sekundu ", "2 sekunde ", "5 sekundi ", "21 sekundu ", "2,5 sekunde "),
    "bs": ("1 sekundu ", "2 sekunde ", "5 sekundi ", "21 sekundu ", "2,5 sekunde "),
    "mk": ("1 секунда ", "2 секунди ", "5 секунди ", "21 секунда ", "2,5 секунди "),
    "cs": ("1 sekundu ", "2 sekundy ", "5 sekund ", "21 sekund ", "2,5 sekundy "),
    "pl": ("1 sekundę ", "2 sekundy ", "5 sekund ", "21 sekund ", "2,5 sekundy "),
    "sr_Cyrl": ("1 секунду ", "2 секунде ", "5 секунди ", "21 секунду ", "2,5 секунде "),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", [k for k, v in EN.items() if isinstance(v, Plural)])
def test_plural_forms_for_1_2_5_21(language: str, key: str) -> None:
    for seconds, words in zip((1, 2, 5, 21, 2.5), SECONDS[language], strict=True):
        text = message(key, language, side="white", seconds=float(seconds), article="7.5.5")
        assert words in text, f"{language}: {text!r} should read {words!r}"


def test_every_plural_form_is_used() -> None:
    """1, 2, 5 and 21 reach every form each language has (three, or two in Macedonian)."""
    from rules.i18n import translations

    for language in TRANSLATED:
        tr = translations(language)
        forms = {tr.ngettext("s", "p", n) for n in (1, 2, 5, 21)}  # English fallback: s or p
        plural = tr.ngettext(*_first_plural(), 5)
        assert plural != _first_plural()[1], language
        assert forms <= {"s", "p"}
        got = {tr.ngettext(*_first_plural(), n) for n in (1, 2, 5, 21)}
        assert len(got) == (2 if language == "mk" else 3), (language, got)


def _first_plural() -> tuple[str, str]:
    entry = next(v for v in EN.values() if isinstance(v, Plural))
    return entry.singular, entry.plural
