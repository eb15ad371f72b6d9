"""Noisy captures: a real game as each board would send it, damaged as real lines damage it.

`board_wire(protocol, moves)` plays a game's moves by hand on a board model of this package
(`DgtBoardModel`, `MillenniumBoard`, `CertaboBoard`, `SentioBoard`, `ChessnutBoard`) and
records the frames the board sends, each with the time its last byte arrived:

- DGT (`eboard-protocols.md` 1.6): the start-up replies (`93`, `86`, the clock's version ACK),
  one `8E` per lift or place, and the `86` dump the host asks for after the quiet period
  (0.25 s after the last field update, as `DgtCodec.poll` does);
- Millennium (2.4): the start-up replies (`w`, `s`, `v`) and one `s` report per change
  (report-on-change mode);
- Certabo (3.1): a record of the whole board every `record_s` (0.2 s: a 656-byte record
  takes 0.17 s at 38400 baud), changed or not; Sentio (3.4) likewise, occupancy only;
- Chessnut (4.2): one position message per change, after the `21 01 00` start-up.

`damage(wire, kind, seed)` then damages the frames, seeded, one kind at a time or all
(`combined`): line noise between frames, bit flips, cut frames, unsolicited messages (DGT `8D`
clock times every second, the keep-alive's `91` serial, `93`, `A0`, `8F` EEPROM drains;
Millennium `v`/`l`/`x`/`w` replies; Certabo flag lines; Chessnut battery replies), frames
with a wrong XOR check or parity bit (Millennium, 2.1), repeated reports. Kinds that change
how the board is played rather than its bytes are options of `board_wire`: a board turned
round (`rotated`, 0, 1.4, 2.3), DGT's odd update orders (`odd_order`: a place reported before
its lift, a capture whose square never shows empty, 1.6), pieces slid across squares
(`slide`: Millennium/Chessnut positions mid-slide, DGT updates of each square crossed) and
Certabo partial reads (`partial`: weak reads and LFs inside records, 3.1).

The board's last report of the game is never damaged by `damage` (`protect_last`): on a board
that reports only changes nothing after it could restore it, and the tests treat that case
on its own. A `Wire` writes itself as a timestamped capture (0.1 JSON Lines, one `rx` line a
frame) or as raw bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import chess

from firmware_bridge.codecs.certabo_calibration import CertaboCalibration
from firmware_bridge.codecs.millennium import to_wire, with_parity
from firmware_bridge.errors import CodecUsageError
from firmware_bridge.sim.certabo_board import CertaboBoard, SentioBoard
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from firmware_bridge.sim.dgt_board import DgtBoardModel, clock_times, message
from firmware_bridge.sim.millennium_board import MillenniumBoard

__all__ = [
    "BOARD_KINDS",
    "DAMAGE_KINDS",
    "PROTOCOLS",
    "Frame",
    "Wire",
    "board_wire",
    "damage",
    "noisy_wire",
]

PROTOCOLS = ("dgt", "millennium", "certabo", "sentio", "chessnut")
#: damage done to the bytes (`damage`), per protocol
DAMAGE_KINDS: dict[str, tuple[str, ...]] = {
    "dgt": ("noise", "bitflip", "cut", "unsolicited", "repeat"),
    "millennium": ("noise", "bitflip", "cut", "unsolicited", "bad_check", "bad_parity", "repeat"),
    "certabo": ("noise", "bitflip", "cut", "unsolicited", "repeat"),
    "sentio": ("noise", "bitflip", "cut", "unsolicited", "repeat"),
    "chessnut": ("noise", "bitflip", "cut", "unsolicited", "repeat"),
}
#: damage done by how the board is played (`board_wire` options), per protocol
BOARD_KINDS: dict[str, tuple[str, ...]] = {
    "dgt": ("rotated", "odd_order", "slide"),
    "millennium": ("rotated", "slide"),
    "certabo": ("rotated", "partial"),
    "sentio": ("rotated",),
    "chessnut": ("rotated", "slide"),
}
#: bytes a second on the wire (10 bits a byte: 9600 and 38400 baud, 1.1, 2.1, 3.1)
WIRE_RATE: dict[str, float] = {
    "dgt": 960.0,
    "millennium": 3840.0,
    "certabo": 3840.0,
    "sentio": 3840.0,
}
DGT_QUIET_S = 0.25


@dataclass(frozen=True)
class Frame:
    """Bytes the board sent, `t` the time their last byte arrived.

    `role`: `startup`, `update` (a change: `8E`, `s`, a position), `dump` (DGT `86` asked
    after the quiet period, or at once after lost bytes), `record` (Certabo), `info`
    (unsolicited), `noise`. `last` marks
    the board's final report of the game (see the module docstring).
    """

    t: float
    data: bytes
    role: str
    last: bool = False
    #: a later frame restores what this one says, were it lost (see `damage`)
    restorable: bool = True
    #: the ply (0-based) whose hand made the change this frame reports; -1 for none
    ply: int = -1


@dataclass
class Wire:
    """What a board sent during a game: frames in time order, and what decoding it needs."""

    protocol: str
    frames: list[Frame]
    moves: list[str]
    rotated: bool = False
    calibration: CertaboCalibration | None = None
    #: what `damage` did, kind -> count (frames touched or inserted)
    damaged: dict[str, int] = field(default_factory=dict)
    #: DGT: the board's dump after each change, (time, bytes), for the dumps a host asks
    #: for when it lost bytes (`DgtCodec` asks at once, `damage` answers)
    states: list[tuple[float, bytes]] = field(default_factory=list)

    def dump_at(self, t: float) -> bytes:
        """DGT: the dump the board sends when asked at `t`."""
        best = self.states[0][1]
        for when, dump in self.states:
            if when > t:
                break
            best = dump
        return best

    def raw(self) -> bytes:
        """The bytes alone, as a raw capture file holds them."""
        return b"".join(f.data for f in self.frames)

    def capture_lines(self) -> str:
        """The capture (`eboard-protocols.md` 0.1): one `{"t", "rx"}` JSON line a frame."""
        return "".join(
            json.dumps({"t": round(f.t, 6), "rx": f.data.hex()}) + "\n"
            for f in self.frames
            if f.data
        )


# ---- the hands ---------------------------------------------------------------------------


def _path(move: chess.Move) -> list[int]:
    """Squares a sliding piece crosses between from and to (none for knights and steps)."""
    df = chess.square_file(move.to_square) - chess.square_file(move.from_square)
    dr = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
    if not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return []
    n = max(abs(df), abs(dr))
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    f, r = chess.square_file(move.from_square), chess.square_rank(move.from_square)
    return [chess.square(f + sf * i, r + sr * i) for i in range(1, n)]


def move_steps(
    board: chess.Board, move: chess.Move, *, slide: bool = False, odd: str = ""
) -> list[tuple[str, str, str]]:
    """The hand's steps for `move` on `board`: ("lift"|"place", square, piece letter).

    The taken piece comes off first, then the mover; castling moves king then rook. `slide`
    drags the piece over the squares between (put down and lifted on each). `odd` is a DGT
    scan's odd order (1.6): `place_first` reports the place before the lift, `no_empty` never
    shows a capture's square empty (the place replaces the taken piece).
    """
    mover = board.piece_at(move.from_square)
    if mover is None:
        raise CodecUsageError(f"no piece on {chess.square_name(move.from_square)}")
    letter = mover.symbol()
    if move.promotion:
        letter = chess.Piece(move.promotion, mover.color).symbol()
    name = chess.square_name
    steps: list[tuple[str, str, str]] = []
    if board.is_capture(move):
        taken = move.to_square
        if board.is_en_passant(move):
            taken = chess.square(
                chess.square_file(move.to_square), chess.square_rank(move.from_square)
            )
        victim = board.piece_at(taken)
        if not (odd == "no_empty" and taken == move.to_square):
            steps.append(("lift", name(taken), victim.symbol() if victim else "?"))
    body = [("lift", name(move.from_square), mover.symbol())]
    if slide and not board.is_capture(move):
        for sq in _path(move):
            body += [("place", name(sq), mover.symbol()), ("lift", name(sq), mover.symbol())]
    body.append(("place", name(move.to_square), letter))
    if odd == "place_first" and len(body) == 2:
        body.reverse()
    steps += body
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        rook = "R" if mover.color == chess.WHITE else "r"
        steps += [
            ("lift", name(chess.square(7 if kingside else 0, rank)), rook),
            ("place", name(chess.square(5 if kingside else 3, rank)), rook),
        ]
    return steps


@dataclass(frozen=True)
class _Step:
    t: float
    action: str
    square: str
    piece: str
    ply: int


def _hand_steps(
    moves: Sequence[chess.Move],
    rng: random.Random,
    *,
    slide: bool,
    odd_order: bool,
    first_t: float,
    hand_s: float,
    slide_step_s: float,
) -> list[_Step]:
    """Timed steps of a whole game: a think of 0.8–2 s before each ply, `hand_s` between the
    steps of a move (`slide_step_s` while sliding)."""
    board = chess.Board()
    out: list[_Step] = []
    t = first_t
    for ply, move in enumerate(moves):
        odd = ""
        if odd_order:
            odd = rng.choice(("", "place_first", "no_empty"))
        steps = move_steps(board, move, slide=slide, odd=odd)
        sliding = slide and len(steps) > 2 + (1 if board.is_capture(move) else 0)
        for i, (action, square, piece) in enumerate(steps):
            out.append(_Step(round(t, 6), action, square, piece, ply))
            inside = sliding and 0 < i < len(steps) - 1
            t += slide_step_s if inside else (0.05 if odd == "place_first" else hand_s)
        board.push(move)
        t += rng.uniform(0.8, 2.0)
    return out


# ---- the boards ----------------------------------------------------------------------------


def _dgt(steps: list[_Step], rotated: bool) -> tuple[list[Frame], list[tuple[float, bytes]]]:
    """The DGT frames, and the board's dump after every change (for `damage`'s host)."""
    model = DgtBoardModel(rotated=rotated)
    frames = [Frame(0.05, model.receive(b"\x4b"), "startup")]  # UPDATE_NICE: no reply
    frames.append(Frame(0.06, model.receive(b"\x4d"), "startup"))  # 93 version
    frames.append(Frame(0.14, model.receive(b"\x42"), "startup"))  # 86 dump
    frames.append(Frame(0.2, model.receive(bytes.fromhex("2b03030900")), "startup"))  # clock ACK
    dump_due: float | None = None
    states = [(0.0, model.dump())]
    busy_until = 0.0  # a change during a dump's 70 ms on the wire is sent after it
    for step in steps:
        if dump_due is not None and dump_due < step.t:
            busy_until = round(dump_due + 67 / 960, 6)
            frames.append(Frame(busy_until, model.dump(), "dump"))
            dump_due = None
        data = (
            model.lift(step.square)
            if step.action == "lift"
            else model.place(step.square, step.piece)
        )
        t = max(step.t, round(busy_until + 5 / 960, 6))
        frames.append(Frame(t, data, "update", ply=step.ply))
        states.append((step.t, model.dump()))
        dump_due = t + DGT_QUIET_S
    if dump_due is not None:
        frames.append(Frame(round(dump_due + 67 / 960, 6), model.dump(), "dump", last=True))
    return [f for f in frames if f.data], states


def _reports(model: Any, steps: list[_Step], startup: list[Frame]) -> list[Frame]:
    """One whole-board report per step. A report is `restorable` when the next report, of
    the same hand's next step, says it too: the squares it changed keep their new state
    there. A piece put down and taken at the next step (a slide) is seen by this report
    only, and the last report of a move is followed by the opponent's first lift: losing it
    merges two hands into one report, which the rules core cannot yet split (see the tests).
    """
    frames = list(startup)
    for n, step in enumerate(steps):
        if step.action == "lift":
            data = model.lift(step.square)
        else:
            data = model.place(step.square, step.piece)
        later = steps[n + 1] if n + 1 < len(steps) else None
        restorable = later is not None and later.square != step.square and later.t - step.t < 0.5
        frames.append(Frame(step.t, data, "update", restorable=restorable, ply=step.ply))
    if frames:
        frames[-1] = replace(frames[-1], last=True)
    return [f for f in frames if f.data]


def _millennium(steps: list[_Step], rotated: bool) -> list[Frame]:
    model = MillenniumBoard(rotated=rotated)
    startup = [
        Frame(0.05, model.receive(to_wire("W0203")), "startup"),
        Frame(0.08, model.receive(to_wire("S")), "startup"),
        Frame(0.1, model.receive(to_wire("V")), "startup"),
    ]
    return _reports(model, steps, startup)


def _chessnut(steps: list[_Step], rotated: bool) -> list[Frame]:
    model = ChessnutBoard(rotated=rotated)
    startup = [Frame(0.05, model.receive(bytes((0x21, 0x01, 0x00))), "startup")]
    return _reports(model, steps, startup)


def _certabo(
    steps: list[_Step],
    rotated: bool,
    rng: random.Random,
    *,
    partial: bool,
    record_s: float,
    tail_s: float,
) -> tuple[list[Frame], CertaboCalibration]:
    """Certabo (3.1): a record every `record_s`; with `partial`, some tags read weakly."""
    model = CertaboBoard(rotated=rotated, line_break_every=64 if partial else 0)

    def record() -> bytes:
        weak: list[str] = []
        if partial and model.on and rng.random() < 0.15:
            squares = sorted(model.on)
            count = min(len(squares), rng.randint(1, 3))
            weak = [chess.square_name(sq) for sq in rng.sample(squares, count)]
        return model.record(weak)

    frames = _records(steps, model, record, record_s=record_s, tail_s=tail_s)
    return frames, model.calibration()


def _sentio(steps: list[_Step], rotated: bool, *, record_s: float, tail_s: float) -> list[Frame]:
    """Sentio (3.4): an occupancy record every `record_s`, changed or not."""
    model = SentioBoard(rotated=rotated)
    return _records(steps, model, model.record, record_s=record_s, tail_s=tail_s)


def _records(
    steps: list[_Step],
    model: CertaboBoard | SentioBoard,
    record: Callable[[], bytes],
    *,
    record_s: float,
    tail_s: float,
) -> list[Frame]:
    """A board that sends `record()` every `record_s`, changed or not; the hand's steps
    that fell due before each record are made on `model` first."""
    frames: list[Frame] = []
    end = (steps[-1].t if steps else 0.0) + tail_s
    t = 0.1
    i = 0
    while t <= end:
        while i < len(steps) and steps[i].t <= t:
            step = steps[i]
            if step.action == "lift":
                model.lift(step.square)
            else:
                model.place(step.square, step.piece)
            i += 1
        frames.append(Frame(round(t, 6), record(), "record"))
        t += record_s
    frames[-1] = replace(frames[-1], last=True)
    return frames


def board_wire(
    protocol: str,
    moves: Iterable[chess.Move],
    *,
    seed: int = 0,
    rotated: bool = False,
    odd_order: bool = False,
    slide: bool = False,
    partial: bool = False,
    first_t: float = 1.0,
    hand_s: float = 0.15,
    record_s: float = 0.2,
    tail_s: float = 2.0,
) -> Wire:
    """The frames `protocol`'s board sends while `moves` are played on it from the initial
    position (see the module docstring); `seed` fixes the think times and odd orders.

    Raises:
        CodecUsageError: an unknown protocol, or an option the protocol's board has not.
    """
    if protocol not in PROTOCOLS:
        raise CodecUsageError(f"no noisy capture for {protocol!r}; protocols: {PROTOCOLS}")
    if odd_order and protocol != "dgt":
        raise CodecUsageError("odd update orders are a DGT scan's (1.6)")
    if partial and protocol != "certabo":
        raise CodecUsageError("partial reads are a Certabo board's (3.1)")
    moves = list(moves)
    rng = random.Random(f"board:{protocol}:{seed}")
    steps = _hand_steps(
        moves,
        rng,
        slide=slide,
        odd_order=odd_order,
        first_t=first_t,
        hand_s=hand_s,
        slide_step_s=0.05,
    )
    calibration = None
    states: list[tuple[float, bytes]] = []
    if protocol == "dgt":
        frames, states = _dgt(steps, rotated)
    elif protocol == "millennium":
        frames = _millennium(steps, rotated)
    elif protocol == "chessnut":
        frames = _chessnut(steps, rotated)
    elif protocol == "sentio":
        frames = _sentio(steps, rotated, record_s=record_s, tail_s=tail_s)
    else:
        frames, calibration = _certabo(
            steps, rotated, rng, partial=partial, record_s=record_s, tail_s=tail_s
        )
    return Wire(protocol, frames, [m.uci() for m in moves], rotated, calibration, states=states)


# ---- the damage ----------------------------------------------------------------------------


def _noise(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))


def _dgt_info(rng: random.Random) -> bytes:
    """An unsolicited DGT message (1.3, 1.7): clock times, serial, version, battery, EEPROM.

    Clock times keep the lever where it was: a lever that moves is a press (`DgtCodec`), and
    these games are played without a clock (`auto_press`)."""
    pick = rng.random()
    if pick < 0.5:
        left, right = rng.randrange(3600), rng.randrange(3600)
        return clock_times(left, right, lever="left")  # the lever stays: no press
    if pick < 0.7:
        return message(0x91, b"12345")
    if pick < 0.8:
        return message(0x93, bytes((1, 10)))
    if pick < 0.9:
        return message(0xA0, bytes((87, 0x7F, 0x7F, 1, 2, 0, 0, 0, 0x02)))
    # an EEPROM log drained unasked: ~0x1F00 bytes of 7-bit data ending with 6B (1.3)
    size = rng.randint(0x1E00, 0x1F00)
    body = bytes(rng.randrange(0x6B) for _ in range(size - 4)) + b"\x6b"
    return message(0x8F, body)


def _millennium_info(rng: random.Random) -> bytes:
    return to_wire(rng.choice(("v0101", "l", "x", "w0203", "r0203")))


def _info(protocol: str, rng: random.Random) -> bytes:
    if protocol == "dgt":
        return _dgt_info(rng)
    if protocol == "millennium":
        return _millennium_info(rng)
    if protocol in ("certabo", "sentio"):
        return rng.choice((b"L\r\n", b"D\r\n"))
    return rng.choice((bytes((0x2A, 0x02, 0xDF, 0x00)), bytes((0x32, 0x01, 0x00))))


def _flip(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data))
    out = bytearray(data)
    out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def _bad_check(data: bytes, rng: random.Random) -> bytes:
    """A Millennium frame whose XOR check is wrong but every parity bit right (2.2)."""
    out = bytearray(data)
    i = len(out) - rng.randint(1, 2)
    code = out[i] & 0x7F
    wrong = rng.choice([c for c in b"0123456789ABCDEF" if c != code])
    out[i] = with_parity(wrong)
    return bytes(out)


def _bad_parity(data: bytes, rng: random.Random) -> bytes:
    """A Millennium frame with one parity bit (bit 7) flipped: the XOR check still passes."""
    out = bytearray(data)
    out[rng.randrange(len(out))] ^= 0x80
    return bytes(out)


def damage(wire: Wire, kind: str, seed: int = 0, *, rate: float = 0.1) -> Wire:
    """A copy of `wire` with `kind` of damage done to about `rate` of its frames, seeded.

    Kinds: `noise` (1–8 random bytes between frames), `bitflip` (one bit of a frame),
    `cut` (a frame's tail lost), `unsolicited` (protocol messages nobody asked for; DGT also
    gets a clock message every second), `bad_check` and `bad_parity` (Millennium), `repeat`
    (a frame sent twice), or `combined` (every kind of the protocol, in turn). Start-up
    frames and the board's last report are left whole.

    Damage is kept to what a later report restores, as on a line that is noisy but works:
    only `restorable` frames are damaged, and after a damaged frame the next frame that
    restores it (a DGT dump, a Millennium or Chessnut report, a Certabo record) is spared;
    noise never goes just before a frame that is not restorable. On a DGT wire the host
    (`DgtCodec`) asks for a dump when it loses bytes; the capture holds the board's answer
    (`_host_dumps`). What destroys information for good is made by hand in the tests.

    Raises:
        CodecUsageError: a kind that does not apply to the wire's protocol.
    """
    kinds = DAMAGE_KINDS[wire.protocol]
    if kind == "combined":
        out = wire
        for i, each in enumerate(kinds):
            out = damage(out, each, seed * 31 + i, rate=rate / 2)
        return out
    if kind not in kinds:
        raise CodecUsageError(f"{kind!r} damage does not apply to a {wire.protocol} board")
    rng = random.Random(f"damage:{wire.protocol}:{kind}:{seed}")
    frames: list[Frame] = []
    count = 0
    source = wire.frames
    next_clock = 1.0
    #: after a frame is damaged, the next frame that restores it is spared
    sparing = False
    restorer = {"dgt": "dump", "certabo": "record", "sentio": "record"}.get(wire.protocol, "update")
    for n, frame in enumerate(source):
        gap_end = source[n + 1].t if n + 1 < len(source) else frame.t + 0.5
        fragile = (
            frame.role in ("update", "dump", "record")
            and not frame.last
            and (frame.restorable or kind == "repeat")
            and not sparing
        )
        if sparing and frame.role == restorer:
            sparing = False
        if kind == "noise":
            frames.append(frame)
            following = source[n + 1] if n + 1 < len(source) else None
            spoils_next = following is None or not following.restorable or following.last
            if frame.role != "startup" and not spoils_next and rng.random() < rate:
                frames.append(Frame(round((frame.t + gap_end) / 2, 6), _noise(rng), "noise"))
                count += 1
            continue
        if kind == "unsolicited":
            frames.append(frame)
            if wire.protocol == "dgt":  # clock times at least every second (1.6, 1.7)
                while next_clock < gap_end:
                    if next_clock > frame.t:
                        data = clock_times(int(600 - next_clock), 600, lever="left")
                        frames.append(Frame(round(next_clock, 6), data, "info"))
                        count += 1
                    next_clock += 1.0
            if frame.role != "startup" and rng.random() < rate:
                t = round(frame.t + (gap_end - frame.t) / 3, 6)
                frames.append(Frame(t, _info(wire.protocol, rng), "info"))
                count += 1
            continue
        if not fragile or rng.random() >= rate:
            frames.append(frame)
            continue
        count += 1
        sparing = kind != "repeat"
        if kind == "bitflip":
            frames.append(replace(frame, data=_flip(frame.data, rng)))
        elif kind == "cut":
            frames.append(replace(frame, data=frame.data[: rng.randrange(1, len(frame.data))]))
        elif kind == "bad_check":
            frames.append(replace(frame, data=_bad_check(frame.data, rng)))
        elif kind == "bad_parity":
            frames.append(replace(frame, data=_bad_parity(frame.data, rng)))
        else:  # repeat
            frames.append(replace(frame, last=False))
            frames.append(replace(frame, t=round(frame.t + 0.01, 6)))
    if wire.protocol == "dgt" and kind != "repeat":
        frames = _host_dumps(wire, frames)
    frames.sort(key=lambda f: f.t)
    damaged = dict(wire.damaged)
    damaged[kind] = damaged.get(kind, 0) + count
    return Wire(
        wire.protocol, frames, wire.moves, wire.rotated, wire.calibration, damaged, wire.states
    )


def _host_dumps(wire: Wire, frames: list[Frame]) -> list[Frame]:
    """DGT: the dump a host running `DgtCodec` asks for when it dropped bytes, answered in
    the capture. The host sees the loss when the next message begins (1.3: no checksum),
    polls within 20 ms, and the 67 bytes take 70 ms at 9600 baud."""
    original = {id(f) for f in wire.frames}
    out: list[Frame] = []
    asked = False
    for frame in frames:
        out.append(frame)
        if frame.role in ("info", "startup"):
            continue
        if asked:
            t = round(frame.t + 0.02 + 67 / 960, 6)
            out.append(Frame(t, wire.dump_at(frame.t + 0.02), "dump"))
            asked = False
        if id(frame) not in original or frame.role == "noise":
            asked = True
    return out


def noisy_wire(
    protocol: str, moves: Iterable[chess.Move], kind: str, seed: int = 0, rate: float = 0.1
) -> Wire:
    """A game's wire with one kind of damage, whether of the bytes or of the play;
    `combined` turns the board round and applies every kind the protocol knows."""
    board_opts: dict[str, bool] = {}
    if kind in BOARD_KINDS[protocol]:
        board_opts[kind] = True
        return board_wire(protocol, moves, seed=seed, **board_opts)
    if kind == "combined":
        board_opts = {k: True for k in BOARD_KINDS[protocol]}
        wire = board_wire(protocol, moves, seed=seed, **board_opts)
        return damage(wire, "combined", seed, rate=rate)
    if kind == "clean":
        return board_wire(protocol, moves, seed=seed)
    return damage(board_wire(protocol, moves, seed=seed), kind, seed, rate=rate)
