"""The hall's topic tree and its messages (docs/hall.md), shared by boards and the station.

Under a prefix (default `arbiter/hall`), each board has its own tree:

    PREFIX/BOARD/events   board -> station  {"game", "seq", "event", "rulings"?, "wall"?}  QoS 1
    PREFIX/BOARD/state    board -> station  {"game", "seq", "over", "result"}  QoS 1, retained
    PREFIX/BOARD/status   board -> station  {"online": bool}  QoS 1, retained (will: offline)
    PREFIX/BOARD/resend   station -> board  {"game", "from", "to"}  QoS 1
    PREFIX/BOARD/control  station -> board  {"id", "action": {arbiter event fields}}  QoS 1
    PREFIX/BOARD/ack      board -> station  {"id", "seq"} or {"id", "error"}  QoS 1
    PREFIX/BOARD/have     station -> board  {"game", "seq"}: the station holds the whole game

`seq` is the event's place in the board's journal (1 is `start`): the journal is the truth
and the broker a copy, so a station that sees a gap in `seq` asks for it (`resend`) and the
board answers from its journal.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from arbiter.hall.errors import HallError
from rules.i18n import N_

DEFAULT_PREFIX = "arbiter/hall"
DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883
#: a board's name is one topic level: letters, digits, `_`, `-` and `.`
BOARD_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
#: the kinds of message under a board's tree
KINDS = ("events", "state", "status", "resend", "control", "ack", "have")


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker is, and (for a board) the board's name:
    `mqtt[s]://[USER[:PASSWORD]@]HOST[:PORT][/BOARD]` (`mqtts`: TLS)."""

    host: str
    port: int = DEFAULT_PORT
    board: str | None = None
    prefix: str = DEFAULT_PREFIX
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False


def parse_address(url: str, *, prefix: str = DEFAULT_PREFIX) -> BrokerAddress:
    """`mqtt[s]://[USER[:PASSWORD]@]HOST[:PORT][/[PREFIX/]BOARD]` (or `HOST[:PORT]`) as a
    `BrokerAddress`; a PREFIX in the path replaces `prefix` (a room's own part of the
    hall). A password left out of the address is taken from the environment variable
    `ARBITER_MQTT_PASSWORD` (so that it is not shown in the list of processes).

    Raises:
        HallError: the address is not of that form, or the board's name is not one topic
        level.
    """
    text = url.strip()
    if "://" not in text:
        text = "mqtt://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise HallError.of(N_("broker address {url!r}: {reason}"), url=url, reason=exc) from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise HallError.of(
            N_("broker address {url!r}: write mqtt://... or mqtts://... (TLS)"), url=url
        )
    if not parts.hostname:
        raise HallError.of(
            N_("broker address {url!r}: no host (write mqtt://HOST[:PORT][/BOARD])"), url=url
        )
    if parts.query or parts.fragment or "#" in text:
        raise HallError.of(
            N_("broker address {url!r}: write mqtt://HOST[:PORT][/BOARD], with no '?' or '#'"),
            url=url,
        )
    levels = [level for level in parts.path.strip("/").split("/") if level]
    board = check_board_name(levels[-1]) if levels else None
    if len(levels) > 1:  # mqtt://HOST/PREFIX/.../BOARD: a hall's part under its own prefix
        prefix = "/".join(levels[:-1])
        if any(c in prefix for c in "+#"):
            raise HallError.of(
                N_("broker address {url!r}: a topic prefix has no '+' or '#'"), url=url
            )
    tls = parts.scheme == "mqtts"
    password = parts.password
    if parts.username and password is None:
        password = os.environ.get("ARBITER_MQTT_PASSWORD")
    return BrokerAddress(
        parts.hostname,
        port or (DEFAULT_TLS_PORT if tls else DEFAULT_PORT),
        board,
        prefix,
        username=parts.username or None,
        password=password,
        tls=tls,
    )


def check_board_name(name: str) -> str:
    """`name` if it can be a board's topic level, else a HallError saying why."""
    if not BOARD_NAME.match(name):
        raise HallError.of(
            N_(
                "board name {name!r}: use 1 to 64 letters, digits, '_', '-' or '.' (it is a topic"
                " level, so no '/', '+' or '#')"
            ),
            name=name,
        )
    return name


def topic(prefix: str, board: str, kind: str) -> str:
    """The topic of one kind of message of one board."""
    return f"{prefix}/{board}/{kind}"


def split_topic(prefix: str, name: str) -> tuple[str, str] | None:
    """(board, kind) of a topic under `prefix`, or None for a topic not of the hall's tree."""
    head = prefix + "/"
    if not name.startswith(head):
        return None
    rest = name[len(head) :].split("/")
    if len(rest) != 2 or rest[1] not in KINDS or not BOARD_NAME.match(rest[0]):
        return None
    return rest[0], rest[1]


def encode(message: dict[str, Any]) -> bytes:
    """A message's payload: compact JSON, UTF-8."""
    return json.dumps(message, separators=(",", ":")).encode("utf-8")


def decode(payload: bytes) -> dict[str, Any] | None:
    """A payload's JSON object, or None if it is not one (a stranger's message is ignored,
    never a crash of the station or a board)."""
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def whole(value: object) -> int | None:
    """`value` if it is a whole number (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
