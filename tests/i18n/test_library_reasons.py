"""The libraries' reasons in our words (`rules.library_reasons`): which reasons each table
covers, that it covers every fixed form the library's source can raise, that the numbers
(error numbers, positions) decide and stay, and that a reason no table knows is left as
the library says it."""

from __future__ import annotations

import errno
import json
import re
import socket
import tomllib
from pathlib import Path

import pytest

from rules.i18n import LANGUAGES
from rules.library_reasons import Reason, reason_of
from rules.library_reasons.codec_errors import DECODE_REASONS
from rules.library_reasons.json_errors import JSON_REASONS
from rules.library_reasons.os_errors import ADDRESS_REASONS, OS_REASONS
from rules.library_reasons.toml_errors import TOML_REASONS

TRANSLATED = [code for code in LANGUAGES if code != "en"]

#: the system's reasons a user of the arbiter meets (docs/languages.md lists them)
OS_COVERED = {
    "ENOENT", "EACCES", "EPERM", "EBUSY", "ENOSPC", "EDQUOT", "EFBIG", "EISDIR", "ENOTDIR",
    "ENOTEMPTY", "EEXIST", "EROFS", "EXDEV", "ENAMETOOLONG", "ELOOP", "EMFILE", "EIO", "ENXIO",
    "ENODEV", "ENOTTY", "EINVAL", "EAGAIN", "EPIPE", "EADDRINUSE", "EADDRNOTAVAIL",
    "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH",
}  # fmt: skip
ADDRESS_COVERED = {"EAI_NONAME", "EAI_AGAIN", "EAI_FAIL", "EAI_FAMILY", "EAI_SERVICE"}


def _said_everywhere(reason: Reason) -> dict[str, str]:
    said = {language: reason.say(language) for language in LANGUAGES}
    for language in TRANSLATED:
        assert said[language] != said["en"], (language, said["en"])
    return said


def test_the_tables_cover_what_they_say() -> None:
    assert {errno.errorcode[n] for n in OS_REASONS} == OS_COVERED
    assert {n for n in ADDRESS_COVERED if getattr(socket, n) in ADDRESS_REASONS} == (
        ADDRESS_COVERED
    )
    assert set(DECODE_REASONS) == {
        "invalid start byte",
        "invalid continuation byte",
        "unexpected end of data",
    }
    print(
        f"covered: {len(OS_REASONS)} error numbers, {len(ADDRESS_REASONS)} address errors, "
        f"{len(JSON_REASONS)} JSON forms, {len(TOML_REASONS)} TOML forms, "
        f"{len(DECODE_REASONS)} UTF-8 reasons"
    )


@pytest.mark.parametrize("name", sorted(OS_COVERED))
def test_a_system_reason_is_said_by_its_number(name: str) -> None:
    number = getattr(errno, name)
    system = "Some words the C library chose"
    reason = reason_of(OSError(number, system))
    assert reason.template == OS_REASONS[number] and str(reason) == OS_REASONS[number]
    said = _said_everywhere(reason)
    assert all(system not in text for text in said.values())


def test_a_subclass_and_pyserial_style_errors_go_by_their_number_too() -> None:
    assert reason_of(FileNotFoundError(errno.ENOENT, "x")) == "no such file or folder"
    # pyserial: SerialException(errno, "could not open port /dev/x: [Errno 16] ...")
    busy = OSError(errno.EBUSY, "could not open port /dev/ttyACM0: [Errno 16] Device busy")
    assert reason_of(busy) == "the device is busy"
    lookup = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert reason_of(lookup) == "no such host name"


def test_a_number_not_in_the_table_keeps_the_system_s_words() -> None:
    odd = OSError(errno.ENOLINK, "Link has been severed")
    reason = reason_of(odd)
    assert reason.template is None
    assert {reason.say(language) for language in LANGUAGES} == {"Link has been severed"}
    assert reason_of(OSError("no number at all")) == "no number at all"
    assert reason_of(RuntimeError("what a library said")) == "what a library said"


# ---------------------------------------------------------------------------------- JSON


def _decode_error(text: str) -> json.JSONDecodeError:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc
    raise AssertionError(f"{text!r} is valid JSON")


def _json_forms_of_the_source() -> set[str]:
    """Every message `json.decoder` raises, its `{0!r}` filled (the C scanner's are the
    same or shorter, listed in the test below)."""
    lines = Path(json.decoder.__file__).read_text(encoding="utf-8").splitlines()
    source = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    forms = set(re.findall(r'JSONDecodeError\(\s*"([^"]+)"', source))
    forms |= {m.replace("{0!r}", "'x'") for m in re.findall(r'msg = "([^"]+)"', source)}
    return {form.replace("\\\\", "\\") for form in forms}


def test_every_json_form_of_the_decoder_is_covered() -> None:
    forms = _json_forms_of_the_source() | {
        "Invalid control character at",  # the C scanner (_json) of CPython
        "Invalid \\escape",
        "Illegal trailing comma before end of object",  # 3.13
        "Illegal trailing comma before end of array",
    }
    assert len(forms) >= 10, forms
    for form in sorted(forms):
        reason = reason_of(json.JSONDecodeError(form, "[1, 2]", 3))
        assert reason.template is not None, form


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("", "a value was expected, at column 1"),
        ("{", "a name in double quotes was expected, at column 2"),
        ('{"a" 1}', "':' was expected, at column 6"),
        ("[1 2]", "',' was expected, at column 4"),
        ('"abc', "a string that is never closed, at column 1"),
        ('"a\x01"', "a control character inside a string, at column 3"),
        ('"\\q"', "a '\\' that escapes nothing known, at column 2"),
        ('"\\u12"', "a \\uXXXX escape without four hex digits, at column 3"),
        ('{"a": 1} x', "more text after the value, at column 10"),
        ('{"type": "start"\n', "',' was expected, at column 17"),  # a line with its newline
        ('{\n  "a": 1,\n  "b" 2\n}', "':' was expected, at line 3, column 7"),
    ],
)
def test_a_json_reason_keeps_its_position_in_every_language(text: str, english: str) -> None:
    reason = reason_of(_decode_error(text))
    assert str(reason) == english
    numbers = re.findall(r"\d+", english)
    for language, said in _said_everywhere(reason).items():
        assert re.findall(r"\d+", said) == numbers, (language, said)


def test_a_json_form_not_in_the_table_keeps_the_decoder_s_words() -> None:
    exc = json.JSONDecodeError("Something new", '{"a": 1}', 3)
    assert reason_of(exc) == "Something new: line 1 column 4 (char 3)"
    assert reason_of(exc).say("pl") == "Something new: line 1 column 4 (char 3)"


# ---------------------------------------------------------------------------------- TOML


def _toml_forms_of_the_source() -> set[str]:
    """Every message `tomllib._parser` raises through `suffixed_err`, its fields filled."""
    import tomllib._parser as parser

    source = Path(parser.__file__).read_text(encoding="utf-8")
    found = re.findall(r'suffixed_err\(\s*src,\s*[\w +]+,\s*f?"((?:[^"\\]|\\.)*)"', source)
    forms = set()
    for form in found:
        form = re.sub(r"\{[^}]*!r\}", "'x'", form)
        form = re.sub(r"\{[^}]*\}", "('a', 'b')", form)
        forms.add(form.replace("\\\\", "\\"))
    return forms


def test_every_toml_form_of_the_parser_is_covered() -> None:
    forms = _toml_forms_of_the_source()
    assert len(forms) >= 20, forms
    for form in sorted(forms):
        for where in ("line 3, column 7", "end of document"):
            reason = reason_of(tomllib.TOMLDecodeError(f"{form} (at {where})"))
            assert reason.template is not None, form


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("a", "'=' was expected after the key, at the end of the file"),
        ("[play]\nstrict = yes\n", "a value that cannot be read (is it text without quotes?)"
         ", at line 2, column 10"),
        ("a = 1\na = 2\n", "a key is given a value twice, at line 2, column 6"),
        ("a = 1 b", "more on the line after a value, where the line should end, at line 1, "
         "column 7"),
        ("= 1", "a line that is no key = value nor [table], at line 1, column 1"),
        ("a = {b=1, b=2}", "the key 'b' is given twice, at line 1, column 14"),
        ("a = '''x", "\"'''\" was expected, at the end of the file"),
        ("a = 1979-02-30", "a date or time that does not exist, at line 1, column 5"),
    ],
)  # fmt: skip
def test_a_toml_reason_keeps_its_position_in_every_language(text: str, english: str) -> None:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason = reason_of(exc)
    else:
        raise AssertionError(f"{text!r} is valid TOML")
    assert str(reason) == english
    numbers = re.findall(r"\d+", english)
    for language, said in _said_everywhere(reason).items():
        assert re.findall(r"\d+", said) == numbers, (language, said)
        assert "'b'" in said or "'b'" not in english  # a quoted key stays as the file has it


def test_a_toml_form_not_in_the_table_keeps_the_parser_s_words() -> None:
    exc = tomllib.TOMLDecodeError("Something new (at line 1, column 2)")
    assert reason_of(exc).say("cs") == "Something new (at line 1, column 2)"


# ----------------------------------------------------------------------------- UTF-8


@pytest.mark.parametrize(
    ("raw", "english"),
    [
        (b"\xff", "a byte that cannot begin a character"),
        (b"\xc3\x28", "a byte that cannot continue a character"),
        (b"\xe2\x82", "the text ends inside a character"),
    ],
)
def test_a_utf8_reason_in_every_language(raw: bytes, english: str) -> None:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = reason_of(exc)
    assert str(reason) == english
    _said_everywhere(reason)


def test_json_nesting_and_too_many_digits_in_every_language() -> None:
    try:
        json.loads("[" * 100_000)
    except RecursionError as exc:
        nested = reason_of(exc)
    assert nested == "nested too deeply"
    _said_everywhere(nested)
    try:
        json.loads("1" * 5000)
    except ValueError as exc:
        digits = reason_of(exc)
    assert digits == "a number of 5000 digits (at most 4300 can be read)"
    for language, said in _said_everywhere(digits).items():
        assert re.findall(r"\d+", said) == ["5000", "4300"], (language, said)


def test_a_reason_is_copied_and_pickled_as_it_is() -> None:
    import copy
    import pickle

    reason = reason_of(json.JSONDecodeError("Illegal trailing comma before end of object", "{}", 1))
    assert reason == "a comma before the '}', at column 2"
    for again in (copy.deepcopy(reason), pickle.loads(pickle.dumps(reason))):
        assert again == reason and again.say("pl") == reason.say("pl") != reason
