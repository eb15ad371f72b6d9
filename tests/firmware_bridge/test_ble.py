"""Bluetooth LE boards through the seam: the fake radio, `BleTransport`, the board profiles,
the DGT Pegasus codec, and whole games on virtual BLE boards read back through the real
transport and ruled on.

Byte vectors are built from the protocol facts of independent sources, cited where used;
none is a recording.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import chess
import pytest

from firmware_bridge.ble.central import Advert, Notifications
from firmware_bridge.ble.fake import FakeCentral, FakePeripheral
from firmware_bridge.ble.profiles import PROFILES, profile_for_advert
from firmware_bridge.ble.transport import BleTransport, central_for
from firmware_bridge.codecs.chessnut import ChessnutCodec
from firmware_bridge.codecs.pegasus import PegasusCodec
from firmware_bridge.errors import BleUnavailableError, TransportError
from firmware_bridge.registry import codec_for, link_kind, parse_board_spec
from firmware_bridge.sim.chessnut_board import ChessnutBoard
from firmware_bridge.sim.pegasus_board import PegasusBoard
from firmware_bridge.source import BoardSource
from firmware_bridge.testing import dropped
from firmware_bridge.virtual import VirtualBoard, moves_to_events
from rules.events import Event, Lift, Place, Sensor, Snapshot, Start
from rules.replay import replay

INITIAL_OCCUPANCY = "????????/????????/8/8/8/8/????????/????????"


def pegasus_message(msg_id: int, body: bytes) -> bytes:
    """A Pegasus reply as DGTCentaurMods `emulators/pegasus.py` `send_packet` frames it:
    type, then the length (payload + 3) in two 7-bit bytes, then the payload."""
    size = len(body) + 3
    return bytes([msg_id, size >> 7 & 0x7F, size & 0x7F]) + body


def occupancy_dump(placement: str) -> bytes:
    """`86 00 43` + 64 bytes, 01 occupied / 00 empty, a8 first (DGTCentaurMods
    `emulators/pegasus.py` `board_dump`; the index is `board.rotateFieldHex`: a8 = 0)."""
    board = chess.BaseBoard(placement)
    body = bytes(1 if board.piece_at(chess.square(i % 8, 7 - i // 8)) else 0 for i in range(64))
    return pegasus_message(0x86, body)


# -- the Pegasus codec -----------------------------------------------------------------------


def test_pegasus_dump_is_occupancy_never_white_pawns() -> None:
    codec = PegasusCodec()
    events = codec.feed(occupancy_dump(chess.STARTING_BOARD_FEN), 1.0)
    assert events == [Snapshot(t=1.0, board=INITIAL_OCCUPANCY)]
    assert codec.board == INITIAL_OCCUPANCY


def test_pegasus_field_updates_are_lifts_and_places_of_unknown_pieces() -> None:
    # `8E 00 05 <field> <0 lift | 1 place>`: DGTCentaurMods `emulators/pegasus.py`
    # `handle_manager_event` (piece_event 0 = lift, 1 = place); e2 = 52, e4 = 36
    codec = PegasusCodec()
    codec.feed(occupancy_dump(chess.STARTING_BOARD_FEN), 0.0)
    lift = codec.feed(bytes([0x8E, 0x00, 0x05, 52, 0x00]), 1.0)
    place = codec.feed(bytes([0x8E, 0x00, 0x05, 36, 0x01]), 2.0)
    assert lift == [Lift(t=1.0, square="e2")]
    assert place == [Place(t=2.0, square="e4", piece="?")]


def test_pegasus_rotated_board_is_configured() -> None:
    codec = codec_for("pegasus", rotated=True)
    events = codec.feed(bytes([0x8E, 0x00, 0x05, 52, 0x00]), 1.0)
    assert events == [Lift(t=1.0, square="d7")]  # index 52 from the other side


def test_pegasus_piece_codes_are_garbage() -> None:
    """A dump or update with a code other than 00/01 is not a Pegasus's: dropped, reported."""
    codec = PegasusCodec()
    body = bytearray(occupancy_dump(chess.STARTING_BOARD_FEN))
    body[3] = 0x08  # a DGT piece code (black rook)
    events = codec.feed(bytes(body), 1.0) + codec.feed(bytes([0x8E, 0, 5, 10, 0x0A]), 1.0)
    events += codec.flush(1.0)
    assert not [e for e in events if isinstance(e, Snapshot | Lift | Place)]
    assert dropped(events) == len(body) + 5


def test_pegasus_startup_version_and_keepalive() -> None:
    """Start-up `40 4D 42 44` (reset, version, dump, updates: the DGT app's packet in
    DGTCentaurMods `emulators/pegasus.py` has 40, 42 and 44); no clock command follows; the
    version reply `93 00 05 01 00` (same file, VERSION) proves the link; the keep-alive is
    `4D` once a second."""
    codec = PegasusCodec()
    assert codec.encode_startup() == bytes([0x40, 0x4D, 0x42, 0x44])
    assert not codec.has_clock and codec.occupancy_only
    codec.feed(pegasus_message(0x93, bytes([1, 0])), 0.0)
    assert codec.version == (1, 0)
    assert codec.poll(0.0) == b""
    assert codec.poll(1.0) == bytes([0x4D])


def test_pegasus_is_reached_over_ble_only() -> None:
    assert parse_board_spec("pegasus:F0:0D:00:00:00:01") == ("pegasus", "F0:0D:00:00:00:01")
    assert link_kind("pegasus") == link_kind("chessnut-ble") == "ble"
    assert link_kind("millennium-ble") == "ble" and link_kind("dgt") == "serial"
    from firmware_bridge.transport import SerialTransport

    with pytest.raises(TransportError, match="not a serial device"):
        SerialTransport("/dev/null", PegasusCodec())


# -- profiles --------------------------------------------------------------------------------


def test_adverts_are_matched_by_name_or_service() -> None:
    chessnut = PROFILES["chessnut-ble"]
    assert profile_for_advert("Chessnut Air", ()) is chessnut
    # a renamed Chessnut still offers its service (4.1)
    assert profile_for_advert("my board", (chessnut.service.upper(),)) is chessnut
    assert profile_for_advert("DGT_PEGASUS_12345", ()) is PROFILES["pegasus"]
    # the Nordic UART service alone is any serial gadget, not a Pegasus
    assert profile_for_advert("ChessUp", (PROFILES["pegasus"].service,)) is None
    assert profile_for_advert("MILLENNIUM CHESS", ()) is PROFILES["millennium-ble"]
    assert profile_for_advert(None, ()) is None


# -- the fake radio and BleTransport ---------------------------------------------------------


def test_notifications_hand_over_what_came_then_report_the_loss() -> None:
    box = Notifications()
    box.put(b"\x01")
    box.put(b"\x02")
    box.lost("gone")
    assert box.take(0.0) == b"\x01\x02"
    with pytest.raises(ConnectionError, match="gone"):
        box.take(0.0)


def test_a_position_cut_by_the_default_mtu_is_read_whole() -> None:
    """At the default MTU (23) a 38-byte Chessnut position arrives as 20 + 18 bytes (4.1);
    the transport joins the notifications into one stream for the codec."""
    board = ChessnutBoard()
    peripheral = FakePeripheral("fake-cn", PROFILES["chessnut-ble"], mtu=23, on_write=board.receive)
    with peripheral:
        transport = BleTransport("fake-cn", ChessnutCodec(), clock=lambda: 1.0)
        transport.open()
        assert peripheral.writes == [bytes([0x21, 0x01, 0x00])]
        assert [len(n) for n in peripheral.notified] == [20, 18]
        events = transport.read_events(1.0)
        assert events == [Snapshot(t=1.0, board=chess.STARTING_BOARD_FEN)]
        transport.close()


def test_writes_are_cut_to_the_mtu() -> None:
    peripheral = FakePeripheral("fake-peg", PROFILES["pegasus"], mtu=23)
    with peripheral:
        connection = FakeCentral().connect("fake-peg", PROFILES["pegasus"], 1.0)
        connection.write(bytes(range(45)))
        assert [len(w) for w in peripheral.writes] == [20, 20, 5]
        assert peripheral.take_written(0.0) == bytes(range(45))
        connection.close()


def test_a_board_switched_off_and_on_is_found_again_with_a_fresh_start_up() -> None:
    now = [0.0]
    board = PegasusBoard()
    peripheral = FakePeripheral("fake-peg", PROFILES["pegasus"], on_write=board.receive)
    with peripheral:
        transport = BleTransport(
            "fake-peg", PegasusCodec(), clock=lambda: now[0], backoff_s=(0.5, 1.0)
        )
        transport.open()
        assert transport.read_events(0.5) == [Snapshot(t=0.0, board=INITIAL_OCCUPANCY)]
        peripheral.power_off()
        board.mode = "bus"  # a board switched off forgets it was asked for updates
        board.lift("e2")  # moved while the board was off: it reports it when back
        board.place("e4", "P")
        now[0] = 1.0
        lost = transport.step(0.0)
        assert [e.status for e in lost if isinstance(e, Sensor)] == ["disconnected"]
        now[0] = 1.2
        assert transport.step(0.0) == []  # refused: the board is still off
        peripheral.power_on()
        now[0] = 3.0
        back = transport.step(0.0) + transport.read_events(0.5)
        assert isinstance(back[0], Sensor) and back[0].status == "reconnected"
        assert back[1] == Snapshot(t=3.0, board="????????/????????/8/8/4?3/8/????1???/????????")
        assert peripheral.writes.count(bytes([0x40, 0x4D, 0x42, 0x44])) == 2
        transport.close()


def test_an_address_without_a_fake_goes_to_bleak_or_says_it_is_missing() -> None:
    if importlib.util.find_spec("bleak") is not None:
        pytest.skip("bleak is installed here: the real central would be made")
    with pytest.raises(BleUnavailableError, match=r"pip install 'otb-arbiter\[ble\]'"):
        central_for("F0:0D:00:00:00:01")
    source = BoardSource("pegasus:F0:0D:00:00:00:01")
    with pytest.raises(BleUnavailableError):
        source.start()
    source.close()


def test_a_fake_central_refuses_the_wrong_kind_of_board() -> None:
    with FakePeripheral("fake-mil", PROFILES["millennium-ble"]):
        scan = FakeCentral().scan(0.0)
        service = PROFILES["millennium-ble"].service
        assert Advert("fake-mil", "MILLENNIUM CHESS", (service,), -50) in scan
        with pytest.raises(TransportError, match="not a pegasus board"):
            FakeCentral().connect("fake-mil", PROFILES["pegasus"], 1.0)
    with pytest.raises(TransportError, match="no Bluetooth LE board answers"):
        FakeCentral().connect("fake-mil", PROFILES["millennium-ble"], 1.0)


# -- whole games on virtual BLE boards -------------------------------------------------------

SPEED = 10.0
GAP_S = 1.5
#: the first hand moves this long (stream seconds) after the board is switched on: a radio
#: drops what a board says before the central is connected (a pty would keep it)
LEAD_S = 5.0
#: captures, en passant and both castlings in 18 plies
GAME = [
    "e4",
    "c6",
    "e5",
    "d5",
    "exd6",
    "Qxd6",
    "d4",
    "Bf5",
    "Nc3",
    "Nd7",
    "Nf3",
    "O-O-O",
    "Be2",
    "e5",
    "O-O",
    "exd4",
    "Nb5",
    "cxb5",
]


def game_moves() -> list[chess.Move]:
    board = chess.Board()
    moves = []
    for san in GAME:
        move = board.parse_san(san)
        moves.append(move)
        board.push(move)
    return moves


def read_back(board: VirtualBoard) -> list[Event]:
    """Play `board`'s stream and read it through `BoardSource` (the real BLE transport) on
    the stream's clock until it is done."""

    def clock() -> float:
        return time.monotonic() * board.speed

    board.start()
    assert board.started_at is not None
    source = BoardSource(
        f"{board.board_protocol}:{board.path}",
        clock=clock,
        zero=board.started_at * board.speed,
        step_s=0.003,
    )
    source.start()
    events: list[Event] = []
    try:
        budget = time.monotonic() + 60
        while not board.wait_done(0):
            events += source.poll_events(0.05)
            assert time.monotonic() < budget, "the virtual game did not finish"
        end = time.monotonic() + 1.5 / board.speed
        while time.monotonic() < end:
            events += source.poll_events(0.02)
    finally:
        source.close()
        board.close()
    return events


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["pegasus", "chessnut-ble", "millennium-ble"])
def test_a_game_on_a_virtual_ble_board_gives_its_moves(kind: str) -> None:
    moves = game_moves()
    events_in = moves_to_events(moves, first_t=LEAD_S, gap_s=GAP_S)
    board = VirtualBoard(kind, events_in, speed=SPEED)
    events = read_back(board)
    assert board.skipped == [] and board.lost_bytes == 0
    assert not [e for e in events if isinstance(e, Sensor)]
    settings = dict(codec_for(board.board_protocol).sensor_settings)
    rulings = replay([Start(t=0.0, auto_press=True, **settings), *events])
    got = [r.uci for r in rulings if r.type == "move"]
    others = [r.to_dict() for r in rulings if r.type not in ("move", "obligation")]
    assert got == [m.uci() for m in moves], others[:6]
    if kind == "pegasus":  # occupancy: never a piece's letter
        assert all(e.board.strip("?/12345678") == "" for e in events if isinstance(e, Snapshot))
        assert {e.piece for e in events if isinstance(e, Place)} == {"?"}


@pytest.mark.slow
def test_a_ble_board_switched_off_mid_game_gives_the_same_moves(tmp_path: Path) -> None:
    moves = game_moves()[:12]
    before = moves_to_events(moves[:6], first_t=LEAD_S, gap_s=GAP_S)
    position = chess.Board()
    for move in moves[:6]:
        position.push(move)
    off = before[-1].t + 0.5
    during = moves_to_events(moves[6:7], first_t=off + 0.3, board=position)
    position.push(moves[6])
    on = during[-1].t + 0.3
    after = moves_to_events(moves[7:], first_t=off + 6.0, board=position, gap_s=GAP_S)
    board = VirtualBoard("chessnut-ble", before + during + after, speed=SPEED, outages=[(off, on)])
    events = read_back(board)
    sensors = [e.status for e in events if isinstance(e, Sensor)]
    assert sensors == ["disconnected", "reconnected"]
    rulings = replay([Start(t=0.0, auto_press=True), *events])
    assert [r.uci for r in rulings if r.type == "move"] == [m.uci() for m in moves]
