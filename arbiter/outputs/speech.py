"""The spoken arbiter (`--speak`): the rulings a player may hear, said by espeak-ng.

What may be said is what FIDE 12.6 lets the players' panel show (`rules.supervision`): a
sentence is spoken exactly when the panel would sound its buzzer for that ruling (a flag,
the end of the game, a completed illegal move; in strict mode or with `--feedback` also a
violation of Article 4 and an illegal move not yet completed), or, in those two modes, when
a touch-move duty begins (which the LED shows). Moves, clocks, claims in progress and offers
are never said: they would tell a player that the opponent has moved or what to do.

Speaking never holds up the session: `hear` only puts the sentence in a queue, and one
worker thread runs espeak-ng for each in turn (on a Pi through its audio output). When the
queue is full (a speaker far behind the game), the new sentence is dropped rather than
waited for. With `wav_dir`, each sentence is written to a numbered WAV file instead of
being played (`espeak-ng -w`), which the tests and a Pi without a loudspeaker use.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arbiter.errors import ConfigError
from rules.i18n import N_
from rules.messages import format_ruling
from rules.rulings import Obligation, Ruling
from rules.supervision import PanelMode, PanelState, indications

__all__ = ["VOICES", "Speaker", "Utterance", "audible", "open_speaker"]

#: the espeak-ng voice of each language of the catalogue
VOICES: dict[str, str] = {
    "en": "en",
    "sr": "sr",
    "bs": "bs",
    "mk": "mk",
    "cs": "cs",
    "pl": "pl",
    "sr_Cyrl": "sr",
}
#: sentences waiting to be said before new ones are dropped
QUEUE_SIZE = 16
ESPEAK = "espeak-ng"


def audible(ruling: Ruling, mode: PanelMode) -> bool:
    """May the players hear this ruling under FIDE 12.6 (see the module docstring)?"""
    if indications(PanelState().after([ruling]), mode).beeps:
        return True
    return mode.guides and isinstance(ruling, Obligation) and ruling.kind != "none"


@dataclass(frozen=True, slots=True)
class Utterance:
    """One sentence said: its voice, its text, the WAV written (if any), espeak-ng's status."""

    voice: str
    text: str
    wav: Path | None
    status: int


class Speaker:
    """Says rulings in `language` through espeak-ng, from a worker thread.

    Args:
        language: a code of `rules.i18n.LANGUAGES` (its espeak-ng voice is `VOICES`).
        mode: the game's panel mode (strict, feedback), which decides what may be said.
        command: the espeak-ng program (and any options before the voice).
        wav_dir: write each sentence to `NNNN.wav` there instead of playing it.
        queue_size: how many sentences may wait before new ones are dropped.
    """

    def __init__(
        self,
        language: str,
        mode: PanelMode,
        *,
        command: Sequence[str] = (ESPEAK,),
        wav_dir: Path | None = None,
        queue_size: int = QUEUE_SIZE,
    ) -> None:
        self.language = language
        self.voice = VOICES.get(language, "en")
        self.mode = mode
        self.command = list(command)
        self.wav_dir = wav_dir
        self.spoken: list[Utterance] = []
        self.dropped = 0
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=queue_size)
        self._thread = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._thread.start()

    def hear(self, rulings: Iterable[Ruling]) -> None:
        """Queue the sentences of the rulings the players may hear; returns at once."""
        for r in rulings:
            if audible(r, self.mode):
                self.say(format_ruling(r, self.language))

    def say(self, text: str) -> None:
        """Queue one sentence; dropped (and counted) if the queue is full."""
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            self.dropped += 1

    def close(self, timeout: float | None = 30.0) -> None:
        """Say what is queued, then stop the worker (at most `timeout` seconds)."""
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            return
        self._thread.join(timeout)

    def _work(self) -> None:
        n = 0
        while (text := self._queue.get()) is not None:
            n += 1
            wav = None if self.wav_dir is None else self.wav_dir / f"{n:04d}.wav"
            args = [*self.command, "-v", self.voice]
            if wav is not None:
                args += ["-w", str(wav)]
            try:
                status = subprocess.run(
                    [*args, "--", text],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=False,
                    timeout=60,
                ).returncode
            except (OSError, subprocess.TimeoutExpired):
                status = -1  # no sound is no reason to stop the game
            self.spoken.append(Utterance(self.voice, text, wav, status))


def open_speaker(language: str, mode: PanelMode, *, wav_dir: Path | None = None) -> Speaker:
    """A `Speaker`, once espeak-ng is known to be there (`ConfigError` otherwise)."""
    if shutil.which(ESPEAK) is None:
        raise ConfigError.of(
            N_(
                "--speak needs espeak-ng, which is not installed (Debian, Raspberry Pi OS:"
                " sudo apt-get install espeak-ng)"
            )
        )
    return Speaker(language, mode, wav_dir=wav_dir)
