"""Which language: `--lang`, else LANGUAGE/LC_ALL/LC_MESSAGES/LANG, else the rule profile's
language, else English; and every command takes `--lang`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arbiter import i18n
from arbiter.cli import main
from rules.errors import LanguageError, ProfileError
from rules.i18n import choose_language, language_from_env, language_of
from rules.profiles import PROFILES, get_profile

ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def no_language(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No language from the environment of whoever runs the tests; no `--lang` left over."""
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.request(None)


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("sr_RS.UTF-8", "sr"),
        ("sr_RS@latin", "sr"),
        ("sr-Latn-RS", "sr"),
        ("sr-Cyrl", "sr_Cyrl"),
        ("sr_RS@cyrillic", "sr_Cyrl"),
        ("sr_Cyrl", "sr_Cyrl"),
        ("pl_PL.UTF-8", "pl"),
        ("cs", "cs"),
        ("MK", "mk"),
        ("bs_BA.utf8", "bs"),
        ("en_GB.UTF-8", "en"),
        ("de_DE.UTF-8", None),
        ("C", None),
        ("", None),
    ],
)
def test_language_of_a_locale_name(tag: str, code: str | None) -> None:
    assert language_of(tag) == code


def test_the_environment_as_gettext_reads_it() -> None:
    assert language_from_env({}) is None
    assert language_from_env({"LANG": "C.UTF-8"}) is None
    assert language_from_env({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert language_from_env({"LANG": "pl_PL.UTF-8", "LC_MESSAGES": "cs_CZ.UTF-8"}) == "cs"
    assert language_from_env({"LC_MESSAGES": "cs_CZ", "LC_ALL": "mk_MK.UTF-8"}) == "mk"
    assert language_from_env({"LANGUAGE": "de:sr", "LC_ALL": "pl_PL"}) == "sr"
    assert language_from_env({"LANG": "de_DE.UTF-8"}) == "en"  # a language we lack: English
    assert language_from_env({"LC_ALL": "C", "LANG": "pl_PL.UTF-8"}) is None


def test_lang_over_environment_over_profile() -> None:
    env = {"LANG": "cs_CZ.UTF-8"}
    assert choose_language("sr", env, "pl") == "sr"
    assert choose_language(None, env, "pl") == "cs"
    assert choose_language(None, {"LANG": "C"}, "pl") == "pl"
    assert choose_language(None, {}, None) == "en"
    with pytest.raises(LanguageError, match=r"unknown language 'xx'.*sr"):
        choose_language("xx", env, None)


def test_the_profiles_of_the_seeds_speak_their_language() -> None:
    assert {name: p.language for name, p in PROFILES.items()} == {
        "fide-2023": None,
        "bs": "bs",
        "pl": "pl",
        "cs": "cs",
    }
    assert i18n.language_for("pl") == "pl"
    assert i18n.language_for("fide-2023") == "en"
    assert i18n.language_for("no-such-profile") == "en"


def test_a_translated_error_message() -> None:
    with pytest.raises(ProfileError) as caught:
        get_profile("xy")
    assert i18n.error_text(caught.value, "pl").startswith("nieznany profil przepisów 'xy'")
    assert i18n.error_text(caught.value, "en") == str(caught.value)
    assert i18n.error_text(ValueError("plain"), "sr") == "plain"


def _stream(tmp_path: Path, rules: str | None = None) -> Path:
    start: dict[str, object] = {"t": 0, "type": "start", "time_control": "300+2"}
    if rules:
        start["rules"] = rules
    lines = [
        start,
        {"t": 1, "type": "lift", "square": "b1", "piece": "N"},
        {"t": 2, "type": "place", "square": "b3", "piece": "N"},
        {"t": 3, "type": "press", "side": "white"},
    ]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_replay_with_lang(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _stream(tmp_path)
    assert main(["replay", str(path), "--lang", "cs"]) == 0
    out = capsys.readouterr().out
    assert "Bílý dokončil nelegální tah" in out and "(čl. 7.5.1)" in out
    assert main(["replay", str(path), "--json", "--lang", "mk"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert any("недозволен" in x["message"] for x in lines)
    assert main(["replay", str(path), "--json"]) == 0
    assert "completed an illegal move" in capsys.readouterr().out


def test_replay_follows_lang_env_then_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["replay", str(_stream(tmp_path, rules="pl"))]) == 0
    assert "Białe zakończyły nielegalny ruch" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "sr_RS.UTF-8")
    assert main(["replay", str(_stream(tmp_path, rules="pl"))]) == 0
    assert "Beli je završio neispravan potez" in capsys.readouterr().out
    monkeypatch.setenv("LC_ALL", "C")
    assert main(["replay", str(_stream(tmp_path))]) == 0
    assert "White completed an illegal move" in capsys.readouterr().out


def test_every_command_takes_lang(capsys: pytest.CaptureFixture[str]) -> None:
    from arbiter.cli import COMMANDS, _available

    for name in _available():
        with pytest.raises(SystemExit):
            main([name, "--help"])
        assert "--lang" in capsys.readouterr().out, name
    assert set(_available()) <= set(COMMANDS)


def test_an_unknown_language_and_a_missing_file_are_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "none.jsonl"), "--lang", "xx"]) == 2
    err = capsys.readouterr().err
    assert "unknown language 'xx'; known languages: en, sr, bs, mk, cs, pl, sr_Cyrl" in err
    assert main(["replay", str(tmp_path / "none.jsonl"), "--lang", "sr"]) == 2
    assert "none.jsonl: ne postoji takva datoteka" in capsys.readouterr().err


def test_lang_before_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _stream(tmp_path)
    assert main(["--lang", "cs", "replay", str(path)]) == 0
    assert "Bílý dokončil nelegální tah" in capsys.readouterr().out
    assert main(["--lang=bs", "replay", str(tmp_path / "none.jsonl")]) == 2
    assert "ne postoji takva datoteka" in capsys.readouterr().err
