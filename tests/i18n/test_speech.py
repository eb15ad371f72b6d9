"""The spoken arbiter: what may be said (FIDE 12.6), said in the game's language and voice,
never holding up the session. The WAV tests need espeak-ng (Debian package `espeak-ng`):
they fail in CI without it and are skipped elsewhere."""

from __future__ import annotations

import os
import shutil
import sys
import wave
from pathlib import Path

import chess
import pytest

from arbiter.errors import ConfigError
from arbiter.outputs.speech import Speaker, audible, open_speaker
from rules.events import Lift, Place, Press, Start
from rules.game import Game
from rules.rulings import ClockState, Flag, GameOver, Illegal, MoveStands, Obligation, Violation
from rules.supervision import PanelMode

DEFAULT, STRICT, FEEDBACK = PanelMode(), PanelMode(strict=True), PanelMode(feedback=True)


def needs_espeak() -> None:
    if shutil.which("espeak-ng") is None:
        if os.environ.get("CI"):
            pytest.fail("espeak-ng is missing: .ci/run installs it (apt-get install espeak-ng)")
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng); CI runs this")


def test_what_the_players_may_hear() -> None:
    fen = chess.Board().fen()
    move = MoveStands(t=1, side="white", ply=1, move=chess.Move.from_uci("e2e4"), san="e4",
                      fen=fen, made_at=1)  # fmt: skip
    duty = Obligation(t=1, side="white", article="4.3.1", kind="move_piece", square=6)
    free = Obligation(t=1, side="white", article="4.5", kind="none")
    breach = Violation(t=1, side="white", article="4.3.1", kind="touch_move", square=6)
    pending = Illegal(t=1, side="white", article="7.5.1", completed=False, defect="other", count=0)
    done = Illegal(t=1, side="white", article="7.5.1", completed=True, defect="other", count=1)
    flag = Flag(t=1, side="white", article="6.9", at=1)
    over = GameOver(t=1, article="5.1.1", result="1-0", reason="checkmate")
    clock = ClockState(t=1, white=1, black=1, running="white", paused=False)
    for mode in (DEFAULT, STRICT, FEEDBACK):
        assert audible(flag, mode) and audible(over, mode) and audible(done, mode)
        assert not audible(move, mode) and not audible(clock, mode) and not audible(free, mode)
    for r in (duty, breach, pending):
        assert not audible(r, DEFAULT)
        assert audible(r, STRICT) and audible(r, FEEDBACK)


def _stuck_espeak(tmp_path: Path) -> tuple[list[str], Path]:
    """A stand-in for espeak-ng that says nothing until the file `go` exists."""
    go = tmp_path / "go"
    script = tmp_path / "stuck_espeak.py"
    script.write_text(
        f"import os, time\nwhile not os.path.exists({str(go)!r}):\n    time.sleep(0.01)\n",
        encoding="utf-8",
    )
    return [sys.executable, str(script)], go


def test_speaking_never_holds_up_the_session(tmp_path: Path) -> None:
    command, go = _stuck_espeak(tmp_path)
    speaker = Speaker("sr", DEFAULT, command=command)
    flag = Flag(t=1, side="white", article="6.9", at=1)
    for _ in range(3):
        speaker.hear([flag])  # returns while espeak-ng has not said a word
    assert speaker.spoken == [] and speaker.dropped == 0
    go.touch()
    speaker.close()
    assert [u.text for u in speaker.spoken] == ["Beli je prekoračio vreme (čl. 6.9)."] * 3
    assert all(u.status == 0 and u.voice == "sr" for u in speaker.spoken)


def test_a_speaker_far_behind_drops_sentences(tmp_path: Path) -> None:
    command, go = _stuck_espeak(tmp_path)
    speaker = Speaker("en", DEFAULT, command=command, queue_size=2)
    for i in range(12):
        speaker.say(f"sentence {i}")
    assert speaker.dropped >= 9  # at most one being said and two waiting
    go.touch()
    speaker.close()
    assert len(speaker.spoken) + speaker.dropped == 12


def test_no_espeak_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(ConfigError, match="apt-get install espeak-ng"):
        open_speaker("en", DEFAULT)


def _illegal_game_rulings() -> list[object]:
    """1.e4, then Black's knight from g8 to g6, pressed: a completed illegal move."""
    game = Game(Start(t=0, time_control="300+2"))
    events = [
        Lift(t=1, square="e2", piece="P"),
        Place(t=2, square="e4", piece="P"),
        Press(t=3, side="white"),
        Lift(t=4, square="g8", piece="n"),
        Place(t=5, square="g6", piece="n"),
        Press(t=6, side="black"),
    ]
    return [r for e in events for r in game.handle(e)]


def _seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return float(w.getnframes()) / float(w.getframerate())


@pytest.mark.parametrize("language", ["en", "sr", "bs", "mk", "cs", "pl", "sr_Cyrl"])
def test_the_rulings_are_spoken_in_the_games_voice(tmp_path: Path, language: str) -> None:
    needs_espeak()
    speaker = Speaker(language, DEFAULT, wav_dir=tmp_path)
    speaker.hear(_illegal_game_rulings())  # type: ignore[arg-type]
    speaker.close()
    assert len(speaker.spoken) == 1, speaker.spoken  # the completed illegal move, nothing else
    said = speaker.spoken[0]
    assert said.status == 0 and said.voice == language[:2] and said.wav is not None
    length = _seconds(said.wav)
    expected = len(said.text) / 14  # espeak-ng's default 175 words a minute: ~14 letters a second
    assert 0.4 * expected < length < 2.5 * expected, (said.text, length)


def test_the_voice_is_the_languages(tmp_path: Path) -> None:
    """The same Serbian sentence in the Serbian voice and the English one sounds different."""
    needs_espeak()
    text = "Crni je završio neispravan potez; to mu je 1. neispravan potez (čl. 7.5.1)."
    sounds = []
    for language in ("sr", "en"):
        out = tmp_path / language
        out.mkdir()
        speaker = Speaker(language, DEFAULT, wav_dir=out)
        speaker.say(text)
        speaker.close()
        assert speaker.spoken[0].status == 0
        sounds.append((out / "0001.wav").read_bytes())
    assert sounds[0] != sounds[1]
