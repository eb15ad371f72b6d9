"""Virtual boards: a simulated e-board speaking its protocol over a pseudo-terminal.

`VirtualBoard(protocol, events_or_game)` puts a board model of `firmware_bridge.sim` behind
the master side of a pty (`os.openpty`). The arbiter opens the *slave* side with the real
pyserial transport, so tests, benchmarks and `arbiter demo --board dgt-sim` go through the
real path end to end. A background thread answers the host's commands and turns a contract
stream into board messages at the stream's times divided by `speed`:

- `lift` / `place` change the model's pieces; DGT and Millennium boards then send what they
  send on a change (`8E` field update, `s` status report); Certabo and Sentio boards stream a
  record of the whole board every `record_s` (stream seconds), changed or not;
- `snapshot` sets the whole placement (DGT: as field updates of the squares that changed);
- other events (presses, claims, ...) are not the board's business: each is kept in `others`
  with the real time it fell due, for the caller to pass on as a clock beside the board would.

**Bluetooth LE boards** (`pegasus`, `chessnut-ble`, `millennium-ble`, see `VIRTUAL_KINDS`)
stand behind a fake peripheral (`firmware_bridge.ble.fake`) registered at `path` instead of a
pty: `--board pegasus:PATH` opens it with the real `BleTransport`, which gets the fake radio's
connection there (notifications cut to the MTU as on air); the board answers what the host
writes, and `disconnect()`/`reconnect()` switch it off and on. `eone` is a Millennium eONE on
its USB cable: the `millennium` protocol in 7-bit ASCII without the parity bit. `chessnut` is
a Chessnut on its USB cable, a HID device: a `FakeHidBoard` at `path` (one message a report),
read by the real `HidTransport`.

The stream keeps its gaps rather than its clock: when the thread is held up, the rest of the
stream waits (`lag`), so a busy machine makes the game longer, never the hands faster.

A game (`chess.pgn.Game`, or a list of moves) is first turned into such a stream by
`moves_to_events`: captured piece lifted, moving piece lifted and put down, castling's rook.

**The pulled cable.** A USB board pulled out makes its device node vanish; plugged back it comes
back under a name that may differ (`ttyACM0` -> `ttyACM1`), which is why set-ups use a udev
symlink (`eboard-protocols.md` 8). A virtual board does the same: `path` is a symlink in a
private folder, pointing at the current pty's slave. `disconnect()` closes the master (the
reader's next read fails with EIO) and removes the symlink (reopening fails, as with a missing
device); `reconnect()` makes a *new* pty and points the symlink at it, so the transport finds
the board again at the same path, with no resolver callback. A DGT model also powers up again
in bus mode, silent until the host repeats the start-up, as a real board would. Moves made
while disconnected change the model, and the board's next full report shows them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from firmware_bridge.errors import VirtualBoardError
from rules.errors import ArbiterError
from rules.events import Event, Lift, Place, Snapshot, Start

__all__ = [
    "FOLDER_PREFIX",
    "VIRTUAL_PROTOCOLS",
    "VirtualBoard",
    "VirtualBoardError",
    "is_virtual_path",
    "moves_to_events",
    "start_virtual",
]

#: virtual board -> (the protocol `--board PROTOCOL:PATH` names, how it is reached)
VIRTUAL_KINDS: dict[str, tuple[str, str]] = {
    "dgt": ("dgt", "pty"),
    "millennium": ("millennium", "pty"),
    "certabo": ("certabo", "pty"),
    "sentio": ("sentio", "pty"),
    "eone": ("millennium", "pty"),  # a Millennium eONE: 7-bit ASCII, no parity bit
    "pegasus": ("pegasus", "ble"),
    "chessnut": ("chessnut", "hid"),  # a Chessnut on its USB cable
    "chessnut-ble": ("chessnut-ble", "ble"),
    "millennium-ble": ("millennium-ble", "ble"),  # an eONE over Bluetooth LE
}
VIRTUAL_PROTOCOLS = tuple(VIRTUAL_KINDS)
#: a protocol no virtual board speaks (`arbiter teach --board foo-sim`), as a template of
#: `ArbiterError.of` (arbiter/i18n.py DEVICE_ERRORS)
NO_VIRTUAL_BOARD = "no virtual board speaks {protocol!r}; virtual boards: {known}"
#: the name prefix of the private temporary folder that holds a virtual board's `path`
FOLDER_PREFIX = "otb-virtual-"


def is_virtual_path(device: str) -> bool:
    """Is `device` the `path` of a virtual board (its folder's name says so)?

    A journal of a game played on a virtual board names that path; it lived only as long as
    the program that made the board, so `arbiter resume` must not try to reopen it.
    """
    return Path(device).parent.name.startswith(FOLDER_PREFIX)



def moves_to_events(
    moves: chess.pgn.Game | Sequence[chess.Move],
    *,
    first_t: float = 0.5,
    hand_s: float = 0.15,
    gap_s: float = 0.6,
    board: chess.Board | None = None,
) -> list[Event]:
    """Lifts and places that play `moves` on a board, one piece event every `hand_s`, the next
    move `gap_s` after the last piece of a move came down (longer than the `slide_s` of every
    board, so each move is released before the next begins)."""
    if isinstance(moves, chess.pgn.Game):
        board = moves.board()
        moves = list(moves.mainline_moves())
    board = board.copy() if board is not None else chess.Board()
    events: list[Event] = []
    t = first_t
    for move in moves:
        mover = board.piece_at(move.from_square)
        if mover is None:
            raise VirtualBoardError(f"no piece on {chess.square_name(move.from_square)}")
        letter = mover.symbol()
        if move.promotion:
            letter = chess.Piece(move.promotion, mover.color).symbol()
        steps: list[tuple[type[Lift] | type[Place], int, str]] = []
        if board.is_capture(move):
            taken = move.to_square
            if board.is_en_passant(move):
                taken = chess.square(
                    chess.square_file(move.to_square), chess.square_rank(move.from_square)
                )
            victim = board.piece_at(taken)
            steps.append((Lift, taken, victim.symbol() if victim else "?"))
        steps.append((Lift, move.from_square, mover.symbol()))
        steps.append((Place, move.to_square, letter))
        if board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            rook_from = chess.square(7 if kingside else 0, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            rook = "R" if mover.color == chess.WHITE else "r"
            steps += [(Lift, rook_from, rook), (Place, rook_to, rook)]
        for kind, square, piece in steps:
            events.append(kind(t=round(t, 6), square=chess.square_name(square), piece=piece))
            t += hand_s
        t += gap_s - hand_s
        board.push(move)
    return events


def _make_model(protocol: str, placement: str, rotated: bool) -> Any:
    if protocol == "pegasus":
        from firmware_bridge.sim.pegasus_board import PegasusBoard

        return PegasusBoard(placement, rotated=rotated)
    if protocol in ("chessnut", "chessnut-ble"):
        from firmware_bridge.sim.chessnut_board import ChessnutBoard

        return ChessnutBoard(placement, rotated=rotated, usb=protocol == "chessnut")
    if protocol in ("eone", "millennium-ble"):
        from firmware_bridge.sim.millennium_board import MillenniumBoard

        return MillenniumBoard(placement, rotated=rotated, plain_ascii=True)
    if protocol == "dgt":
        from firmware_bridge.sim.dgt_board import DgtBoardModel

        return DgtBoardModel(placement, rotated=rotated)
    if protocol == "millennium":
        from firmware_bridge.sim.millennium_board import MillenniumBoard

        return MillenniumBoard(placement, rotated=rotated)
    if protocol == "certabo":
        from firmware_bridge.sim.certabo_board import CertaboBoard

        return CertaboBoard(placement, rotated=rotated)
    if protocol == "sentio":
        from firmware_bridge.sim.certabo_board import SentioBoard

        return SentioBoard(placement, rotated=rotated)
    raise VirtualBoardError.of(
        NO_VIRTUAL_BOARD, protocol=protocol, known=", ".join(VIRTUAL_PROTOCOLS)
    )


class VirtualBoard:
    """A board model behind a pty, driven by a contract stream; see the module docstring.

    Args:
        protocol: one of `VIRTUAL_PROTOCOLS` (`VIRTUAL_KINDS` says which `--board`
            protocol reads it: `board_protocol`).
        events_or_game: contract events, a `chess.pgn.Game` or a list of moves.
        speed: stream seconds per real second (10 plays a 60 s game in 6 s).
        outages: (off, on) pairs of stream times: the cable is pulled at `off`, plugged at `on`.
        record_s: Certabo/Sentio: a record every this many stream seconds.
        placement: the position on the board before the stream (default: the initial one).
        rotated: the board is seated the other way round.
        max_late_s: when the thread finds an event overdue by more than this (stream
            seconds; a busy machine held it up), the stream waits instead (`lag` grows), so
            the gaps between a player's hand movements are never squeezed.
    """

    def __init__(
        self,
        protocol: str,
        events_or_game: Iterable[Event] | chess.pgn.Game | Sequence[chess.Move] = (),
        *,
        speed: float = 1.0,
        outages: Sequence[tuple[float, float]] = (),
        record_s: float = 0.1,
        placement: str = chess.STARTING_BOARD_FEN,
        rotated: bool = False,
        max_late_s: float = 0.05,
        mtu: int = 247,
    ) -> None:
        if not speed > 0:
            raise VirtualBoardError(f"speed must be more than 0, not {speed!r}")
        self.protocol = protocol
        self.model = _make_model(protocol, placement, rotated)
        #: what `--board PROTOCOL:PATH` names to read it, and whether it is behind a pty or
        #: a fake Bluetooth LE peripheral
        self.board_protocol, self.medium = VIRTUAL_KINDS[protocol]
        self.speed = float(speed)
        self.record_s = record_s
        self.events = self._stream(events_or_game)
        self.outages = sorted(outages)
        self._dir = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
        self.path = str(self._dir / f"{protocol}-board")
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self.peripheral: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._done = threading.Event()
        self._hand: list[str] = []
        #: real time (time.monotonic) at which the stream's t = 0 was played
        self.started_at: float | None = None
        #: real seconds the stream waited because this thread was late (see `max_late_s`)
        self.lag = 0.0
        self.max_late_s = max_late_s
        #: events played so far, and those the board could not apply (e.g. lifting nothing)
        self.played = 0
        self.skipped: list[Event] = []
        #: bytes the board could not write (nobody reading and the pty full), and the
        #: (time.monotonic() just before the write, bytes) of the last write
        self.lost_bytes = 0
        self.last_write: tuple[float, bytes] | None = None
        #: the stream's other events (presses, claims, ...), with the real time
        #: (time.monotonic) each fell due: what a clock beside the board would report
        self.others: list[tuple[float, Event]] = []
        #: connects so far (1 after `start`, 2 after one reconnect, ...)
        self.connects = 0
        if self.medium == "ble":
            self._open_peripheral(mtu)
        elif self.medium == "hid":
            from firmware_bridge.hid_transport import FakeHidBoard

            self.peripheral = FakeHidBoard(self.path).register()
            self.connects += 1
        else:
            self._open_pty()

    @staticmethod
    def _stream(source: Any) -> list[Event]:
        if isinstance(source, chess.pgn.Game):
            return moves_to_events(source)
        items = list(source)
        if items and isinstance(items[0], chess.Move):
            return moves_to_events(items)
        return [e for e in items if not isinstance(e, Start)]

    # -- the pty ------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        if self.peripheral is not None:
            return bool(self.peripheral.powered)
        return self._master is not None

    def _open_peripheral(self, mtu: int) -> None:
        """A fake Bluetooth LE peripheral at `path` (firmware_bridge.ble.fake), answering as
        the model does; it is found by the real `BleTransport` as a radio would find it."""
        from firmware_bridge.ble.fake import FakePeripheral
        from firmware_bridge.ble.profiles import PROFILES

        self.peripheral = FakePeripheral(
            self.path, PROFILES[self.board_protocol], mtu=mtu
        ).register()
        self.connects += 1

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing, no CR/LF translation: a plain wire
        os.set_blocking(master, False)
        link = Path(self.path)
        tmp = link.with_name(link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        os.replace(tmp, link)
        self._master, self._slave = master, slave
        self.connects += 1
        if self.protocol == "dgt":
            self.model.mode = "bus"  # powers up in bus mode, silent until 4B (1.6)

    def disconnect(self) -> None:
        """Pull the cable (switch a Bluetooth board off): close the pty (reads fail) and remove
        the device path, or drop the link and refuse connections."""
        with self._lock:
            if self.peripheral is not None:
                if self.peripheral.powered:
                    self.peripheral.power_off()
                return
            if self._master is None:
                return
            with contextlib.suppress(FileNotFoundError):
                Path(self.path).unlink()
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    def reconnect(self) -> None:
        """Plug the cable back (switch the board on): a new pty at the same `path`."""
        with self._lock:
            if self.peripheral is not None:
                if not self.peripheral.powered:
                    self.peripheral.power_on()
                    self.connects += 1
                    if self.protocol == "pegasus":
                        self.model.mode = "bus"  # silent until the host asks again
                return
            if self._master is None:
                self._open_pty()

    # -- the thread ---------------------------------------------------------------------

    def start(self) -> VirtualBoard:
        """Start playing the stream (t = 0 is now) in a background thread."""
        if self._thread is not None:
            raise VirtualBoardError("this virtual board was already started")
        self.started_at = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"virtual-{self.protocol}")
        self._thread.daemon = True
        self._thread.start()
        return self

    def wait_done(self, timeout: float | None = None) -> bool:
        """Wait until every event and outage was played; True if so."""
        return self._done.wait(timeout)

    def close(self) -> None:
        """Stop the thread, close the pty and remove the device path and its folder."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self.disconnect()
        if self.peripheral is not None:
            self.peripheral.unregister()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> VirtualBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stream_time(self) -> float:
        """The stream time now (0 before `start`): real time since `start`, less `lag`,
        times `speed`."""
        if self.started_at is None:
            return 0.0
        return (time.monotonic() - self.started_at - self.lag) * self.speed

    def _run(self) -> None:
        streaming = self.protocol in ("certabo", "sentio")
        next_record = 0.0
        index = 0
        outages = [(off, "off") for off, _ in self.outages] + [(on, "on") for _, on in self.outages]
        outages.sort()
        while not self._stop.is_set():
            now = self.stream_time()
            if index < len(self.events) and now - self.events[index].t > self.max_late_s:
                # this thread was held up (a busy machine): let the stream wait rather than
                # play the overdue events all at once, which would squeeze hands together
                self.lag += (now - self.events[index].t) / self.speed
                now = self.events[index].t
            while outages and outages[0][0] <= now:
                _, what = outages.pop(0)
                self.disconnect() if what == "off" else self.reconnect()
            while index < len(self.events) and self.events[index].t <= now:
                self.act(self.events[index])
                index += 1
                self.played = index
            if streaming and now >= next_record:
                with self._lock:
                    self._write(self.model.record())
                next_record = now + self.record_s
            if index >= len(self.events) and not outages:
                self._done.set()
            due = [next_record] if streaming else []
            if index < len(self.events):
                due.append(self.events[index].t)
            if outages:
                due.append(outages[0][0])
            wait = 0.05 if not due else max(0.0, (min(due) - now) / self.speed)
            self._serve(min(wait, 0.05))

    def _serve(self, wait: float) -> None:
        """Wait up to `wait` s for host bytes; answer them as the model does."""
        if self.peripheral is not None:
            data = self.peripheral.take_written(wait)
            if data:
                with self._lock:
                    self._write(self.model.receive(data))
            return
        master = self._master
        if master is None:
            time.sleep(wait)
            return
        try:
            ready, _, _ = select.select([master], [], [], wait)
        except (OSError, ValueError):
            return  # closed under us by disconnect()
        if not ready:
            return
        with self._lock:
            if self._master != master:
                return
            try:
                data = os.read(master, 4096)
            except OSError:
                return  # EIO until the host opens the slave, or EAGAIN
            reply = self.model.receive(data)
            self._write(reply)

    def _write(self, data: bytes) -> None:
        if not data:
            return
        with self._lock:
            if self.peripheral is not None:
                began = time.monotonic()
                self.lost_bytes += len(data) - self.peripheral.notify(data)
                self.last_write = (began, data)
                return
            if self._master is None:
                self.lost_bytes += len(data)
                return
            began = time.monotonic()
            try:
                written = os.write(self._master, data)
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EIO):
                    raise
                written = 0
            self.lost_bytes += len(data) - written
            self.last_write = (began, data)

    def act(self, event: Event) -> None:
        """Play `event` on the board now (thread-safe); the stream's events come here.

        Lifts and places change the pieces and send what the board sends on a change;
        an event the board cannot apply (lifting from an empty square) is kept in `skipped`.
        """
        with self._lock:
            self._play(event)

    def _play(self, event: Event) -> None:
        model = self.model
        try:
            if isinstance(event, Lift):
                piece = event.piece or self._piece_on(event.square)
                if piece:
                    self._hand.append(piece)
                out = model.lift(event.square)
            elif isinstance(event, Place):
                piece = event.piece or (self._hand.pop() if self._hand else "P")
                if event.piece and piece in self._hand:
                    self._hand.remove(piece)
                out = b""
                if self.protocol == "pegasus" and self._piece_on(event.square):
                    # a place on a piece is a capture whose victim the stream never lifted;
                    # a hand takes it off first, and a board sensing occupancy sees that
                    out = model.lift(event.square)
                out += model.place(event.square, piece)
            elif isinstance(event, Snapshot):
                out = self._set_placement(event.board)
            else:
                self.others.append((time.monotonic(), event))
                return
        except (ArbiterError, ValueError):
            self.skipped.append(event)
            return
        if self.protocol not in ("certabo", "sentio"):  # these stream records unasked
            self._write(out)

    def _piece_on(self, square: str) -> str | None:
        piece = chess.BaseBoard(self.placement()).piece_at(chess.parse_square(square))
        return piece.symbol() if piece else None

    def placement(self) -> str:
        """The FEN placement on the board now."""
        model = self.model
        if self.protocol == "pegasus":
            return str(model.board.board_fen())
        if self.protocol == "dgt":
            return str(model.placement)
        if self.protocol == "certabo":
            board = chess.BaseBoard.empty()
            for sq, ident in model.on.items():
                board.set_piece_at(sq, chess.Piece.from_symbol(model._letter(ident)))
            return board.board_fen()
        return str(model.board.board_fen())

    def _set_placement(self, placement: str) -> bytes:
        if self.protocol != "dgt":
            return bytes(self.model.set_placement(placement))
        old = chess.BaseBoard(self.model.placement).piece_map()
        new = chess.BaseBoard(placement).piece_map()
        out = bytearray()
        for sq in sorted(set(old) - set(new)):
            out += self.model.lift(chess.square_name(sq))
        for sq, piece in sorted(new.items()):
            if old.get(sq) != piece:
                out += self.model.place(chess.square_name(sq), piece.symbol())
        return bytes(out)

    # -- Certabo ------------------------------------------------------------------------

    def save_calibration(self, path: str | Path) -> None:
        """Certabo: save the calibration of this board's tag set (for `--calibration`)."""
        if self.protocol != "certabo":
            raise VirtualBoardError(f"a {self.protocol} board needs no calibration")
        self.model.calibration().save(path)


def start_virtual(
    protocol: str,
    events: Iterable[Event] | chess.pgn.Game | Sequence[chess.Move] = (),
    speed: float = 1.0,
    **options: Any,
) -> tuple[str, VirtualBoard]:
    """Make and start a virtual board; return (device path to open, the board).

    `protocol` may be written `dgt-sim` as the CLI does. Close the board when done.
    """
    name = protocol.removesuffix("-sim")
    board = VirtualBoard(name, events, speed=speed, **options)
    board.start()
    return board.path, board
