"""Captures: what a board sent and was sent, with the time it happened (`eboard-protocols.md` 0.1).

A capture is JSON Lines, one chunk per line: `{"t": 12.345, "rx": "8e00053400"}` for bytes
read, `{"t": ..., "tx": "42"}` for bytes written, `t` from the transport's clock. Our own
extension records what happened to the link: `{"t": ..., "link": "disconnected", "detail":
"..."}` and `{"t": ..., "link": "reconnected"}`, so that a decoded capture carries the same
`sensor` events as the live session (and the decoder restarts the codec as the transport
did); readers of plain 0.1 captures never see such lines unless a cable was pulled. The writer
flushes every line, so a crash or a pulled plug loses at most the line being written. The
reader yields `Chunk`s and names the line of anything it cannot read, after yielding every
good line before it (nothing already recorded is lost).

A file that does not begin with `{` is a raw capture of bare received bytes; `is_capture`
tells the two apart.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

from firmware_bridge.errors import CaptureError
from rules.library_reasons import reason_of

__all__ = ["CaptureError", "CaptureWriter", "Chunk", "LinkChange", "is_capture", "read_capture"]

Direction = Literal["rx", "tx"]

#: errors a user sees, as templates of `ArbiterError.of`: the `arbiter` command says them in
#: the user's language (its catalogue marks the same English: arbiter/i18n.py DEVICE_ERRORS).
#: The field names and values in quotes are the capture format's and stay as typed.
CANNOT_WRITE = "{path}: cannot write the capture ({reason})"
CLOSED = "{path}: the capture was closed"
NOT_JSON = "{where}: not JSON ({reason})"
NOT_JSON_DEEP = "{where}: not JSON (nested too deeply)"
NOT_OBJECT = '{where}: expected an object like {{"t": 1.5, "rx": "42"}}'
BAD_T = "{where}: 't' must be a number of seconds, 0 or more, not {shown}"
TOO_LARGE = "{shown}... (too large)"
BAD_LINK = '{where}: \'link\' must be "disconnected" or "reconnected", not {status!r}'
BAD_DETAIL = "{where}: 'detail' must be text, not {detail!r}"
NO_DIRECTION = "{where}: needs exactly one of 'rx', 'tx' or 'link'"
NOT_HEX = "{where}: '{direction}' must be hex bytes, not {value!r}"
BACKWARDS = (
    "{name}: line {line}: t={t} comes before the previous line's t={last} "
    "(times must not run backwards)"
)
NOT_UTF8 = "{name}: line {line}: not UTF-8 text ({reason})"
#: where a fault is: the capture's name and the line (`{where}` above)
AT_LINE = "{name}: line {line}"



@dataclass(frozen=True, slots=True)
class Chunk:
    """Bytes read (`rx`) or written (`tx`) at time `t`; `line` is the capture line (1-based)."""

    t: float
    direction: Direction
    data: bytes
    line: int = 0

    def to_json(self) -> str:
        return json.dumps({"t": round(self.t, 6), self.direction: self.data.hex()})


@dataclass(frozen=True, slots=True)
class LinkChange:
    """The link went down (`disconnected`) or came back (`reconnected`) at time `t`."""

    t: float
    status: Literal["disconnected", "reconnected"]
    detail: str | None = None
    line: int = 0

    def to_json(self) -> str:
        obj: dict[str, object] = {"t": round(self.t, 6), "link": self.status}
        if self.detail:
            obj["detail"] = self.detail
        return json.dumps(obj)


class CaptureWriter:
    """Append chunks to a capture file, one flushed line each; thread-safe."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._handle: TextIO | None = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise CaptureError.of(CANNOT_WRITE, path=path, reason=reason_of(exc)) from None
        self._lock = threading.Lock()

    def write(self, t: float, direction: Direction, data: bytes) -> None:
        """Record `data` read (`rx`) or written (`tx`) at `t`; empty chunks are skipped."""
        if not data:
            return
        self._line(Chunk(t, direction, bytes(data)).to_json())

    def write_link(
        self, t: float, status: Literal["disconnected", "reconnected"], detail: str | None = None
    ) -> None:
        """Record that the link went down or came back at `t` (the extension above)."""
        self._line(LinkChange(t, status, detail).to_json())

    def _line(self, line: str) -> None:
        with self._lock:
            if self._handle is None:
                raise CaptureError.of(CLOSED, path=self.path)
            try:
                self._handle.write(line + "\n")
                self._handle.flush()
            except OSError as exc:
                raise CaptureError.of(CANNOT_WRITE, path=self.path, reason=reason_of(exc)) from None

    def close(self) -> None:
        with self._lock:
            if self._handle is not None:
                self._handle.close()
                self._handle = None

    def __enter__(self) -> CaptureWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def is_capture(head: bytes) -> bool:
    """Whether a file beginning with `head` is a JSON Lines capture (else raw bytes)."""
    return head.lstrip(b" \t\r\n\xef\xbb\xbf").startswith(b"{")


def _finite(value: float) -> bool:
    """Finite, and (an int) small enough for a float: no OverflowError escapes."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _parse_line(text: str, number: int, name: str) -> Chunk | LinkChange:
    where = CaptureError.of(AT_LINE, name=name, line=number)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CaptureError.of(NOT_JSON, where=where, reason=reason_of(exc)) from None
    except RecursionError:
        raise CaptureError.of(NOT_JSON_DEEP, where=where) from None
    except ValueError as exc:  # a number of 4,300 digits or more
        raise CaptureError.of(NOT_JSON, where=where, reason=reason_of(exc)) from None
    if not isinstance(obj, dict):
        raise CaptureError.of(NOT_OBJECT, where=where)
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or not _finite(t) or t < 0:
        shown: object = repr(t)
        if len(repr(t)) > 40:
            shown = CaptureError.of(TOO_LARGE, shown=repr(t)[:30])
        raise CaptureError.of(BAD_T, where=where, shown=shown)
    if "link" in obj:
        status, detail = obj["link"], obj.get("detail")
        if status not in ("disconnected", "reconnected"):
            raise CaptureError.of(BAD_LINK, where=where, status=status)
        if detail is not None and not isinstance(detail, str):
            raise CaptureError.of(BAD_DETAIL, where=where, detail=detail)
        return LinkChange(float(t), status, detail, number)
    keys = [k for k in ("rx", "tx") if k in obj]
    if len(keys) != 1:
        raise CaptureError.of(NO_DIRECTION, where=where)
    direction: Direction = "rx" if keys[0] == "rx" else "tx"
    value = obj[direction]
    try:
        data = bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        data = None
    if data is None:
        raise CaptureError.of(NOT_HEX, where=where, direction=direction, value=value)
    return Chunk(float(t), direction, data, number)


def read_capture(handle: TextIO, name: str = "capture") -> Iterator[Chunk | LinkChange]:
    """The chunks (and link changes) of a capture, in file order; blank lines are skipped.

    Raises:
        CaptureError: naming `name` and the line: bad JSON, a missing or negative `t`, a time
            running backwards, no `rx`/`tx`, bad hex. Every chunk before it was yielded.
    """
    last_t = -math.inf
    number = 0
    try:
        for number, raw in enumerate(handle, start=1):
            text = raw.strip().lstrip("\ufeff")
            if not text:
                continue
            chunk = _parse_line(text, number, name)
            if chunk.t < last_t:
                raise CaptureError.of(BACKWARDS, name=name, line=number, t=chunk.t, last=last_t)
            last_t = chunk.t
            yield chunk
    except UnicodeDecodeError as exc:
        raise CaptureError.of(NOT_UTF8, name=name, line=number + 1, reason=reason_of(exc)) from None
