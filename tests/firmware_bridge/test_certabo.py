"""Certabo and Sentio codecs: vectors C1-C5 byte for byte, record framing (LFs inside records,
junk, wrong counts), flicker filtering, calibration, orientation and the board models
(`eboard-protocols.md` 3)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import chess
import pytest

from firmware_bridge.codecs.certabo import CertaboCodec, SentioCodec
from firmware_bridge.codecs.certabo_calibration import CertaboCalibration
from firmware_bridge.errors import CalibrationError, CodecUsageError
from firmware_bridge.sim.certabo_board import CALIBRATION_PLACEMENT, CertaboBoard, SentioBoard
from rules.events import Event, Sensor, Snapshot

INITIAL = chess.STARTING_BOARD_FEN
C1_CELLS = (
    20 * [0]
    + [3, 0, 116, 84, 26]
    + 255 * [0]
    + [3, 0, 115, 87, 237]
    + 15 * [0]
    + [3, 0, 116, 84, 27]
    + 15 * [0]
)
C1 = (":" + " ".join(map(str, C1_CELLS)) + " \r\n").encode()
C1_CALIBRATION = CertaboCalibration(
    {(3, 0, 116, 84, 26): "k", (3, 0, 115, 87, 237): "R", (3, 0, 116, 84, 27): "K"}
)
C5 = b":255 255 0 0 0 0 247 255 \r\n"
JUNK = b"\x00\xffgarbage\r\n\x07"  # no ':' in it


def dropped(events: list[Event]) -> int:
    return sum(e.bytes or 0 for e in events if isinstance(e, Sensor) and e.status == "dropped")


def boards(events: list[Event]) -> list[str]:
    return [e.board for e in events if isinstance(e, Snapshot)]


def three_ways(make, data: bytes) -> list[tuple[list[str], int]]:  # type: ignore[no-untyped-def]
    """Feed `data` whole, byte by byte, and between junk (the junk's bytes subtracted)."""
    out = []
    ev = make().feed(data, 1.0)
    out.append((boards(ev), dropped(ev)))
    codec = make()
    ev = [e for i in range(len(data)) for e in codec.feed(data[i : i + 1], 1.0)]
    out.append((boards(ev), dropped(ev)))
    codec = make()
    ev = codec.feed(JUNK + data + JUNK, 1.0)
    # the junk's last byte ends no line: it is held back, not yet judged
    assert codec.pending == 1
    out.append((boards(ev), dropped(ev) + codec.pending - 2 * len(JUNK)))
    return out


# ---- vectors ---------------------------------------------------------------------------


def test_c1_record_decodes_with_its_calibration() -> None:
    assert len(C1) == 656
    for seen, n in three_ways(lambda: CertaboCodec(C1_CALIBRATION), C1):
        assert seen == ["4k3/8/8/8/8/8/8/R3K3"]
        assert n == 0


def test_c1_without_calibration_is_occupancy() -> None:
    assert boards(CertaboCodec().feed(C1, 0.0)) == ["4?3/8/8/8/8/8/8/?3?3"]


def test_c1_unknown_tag_is_question_mark() -> None:
    partial = CertaboCalibration({(3, 0, 116, 84, 26): "k"})
    assert boards(CertaboCodec(partial).feed(C1, 0.0)) == ["4k3/8/8/8/8/8/8/?3?3"]


def test_c1_with_lfs_inside_numbers() -> None:
    body = C1[1:-3]
    broken = b":" + b"\n".join(body[i : i + 64] for i in range(0, len(body), 64)) + b" \r\n"
    assert b"\n" in broken[:-2]
    for seen, n in three_ways(lambda: CertaboCodec(C1_CALIBRATION), broken):
        assert seen == ["4k3/8/8/8/8/8/8/R3K3"]
        assert n == 0


@pytest.mark.parametrize(
    ("squares", "rotated", "hexes"),
    [
        (["e2", "e4"], False, "00 00 00 00 10 00 10 00"),  # C2
        (["h8", "a1"], False, "80 00 00 00 00 00 00 01"),  # C3
        (  # C4: calibration prompt, ranks 8, 7, 2, 1 and d6, d3
            [chess.square_name(s) for s in range(64) if chess.square_rank(s) in (0, 1, 6, 7)]
            + ["d6", "d3"],
            False,
            "FF FF 08 00 00 08 FF FF",
        ),
        (["a8"], True, "00 00 00 00 00 00 00 80"),  # rotated: 63 - index
        (["e2", "e4"], True, "00 08 00 08 00 00 00 00"),
    ],
)
def test_c2_c3_c4_leds(squares: list[str], rotated: bool, hexes: str) -> None:
    codec = CertaboCodec(orientation="rotated" if rotated else "normal")
    assert codec.encode_leds(squares) == bytes.fromhex(hexes)
    sentio = SentioCodec(orientation="rotated" if rotated else "normal")
    assert sentio.encode_leds(squares) == bytes.fromhex(hexes)


def test_leds_off_and_misuse() -> None:
    assert CertaboCodec().encode_leds_off() == bytes(8)
    with pytest.raises(CodecUsageError):
        CertaboCodec().encode_leds(["i9"])
    with pytest.raises(CodecUsageError):
        CertaboCodec(orientation="upside")  # type: ignore[arg-type]
    with pytest.raises(CodecUsageError):
        SentioCodec(orientation="auto")  # type: ignore[arg-type]
    with pytest.raises(CodecUsageError):
        CertaboCodec(history=0)


def test_c5_sentio_initial_with_e2_lifted() -> None:
    expected = "????????/????????/8/8/8/8/????1???/????????"
    for seen, n in three_ways(SentioCodec, C5):
        assert seen == [expected]
        assert n == 0
    rotated = SentioCodec(orientation="rotated").feed(C5, 0.0)
    assert boards(rotated) == ["????????/???1????/8/8/8/8/????????/????????"]


# ---- framing ---------------------------------------------------------------------------


def test_wrong_count_and_cut_records_are_dropped_and_reported() -> None:
    codec = CertaboCodec(C1_CALIBRATION)
    short = b":1 2 3 \r\n"
    cut = C1[:300]
    events = codec.feed(short + cut + C1 + b":12 x3 \r\n", 2.0)
    assert boards(events) == ["4k3/8/8/8/8/8/8/R3K3"]
    assert dropped(events) == len(short) + len(cut) + len(b":12 x3 \r\n")
    assert isinstance(events[0], Sensor) and "3 numbers" in (events[0].detail or "")
    assert codec.pending == 0


def test_numbers_over_255_are_dropped() -> None:
    bad = C1.replace(b"116", b"316", 1)
    events = CertaboCodec(C1_CALIBRATION).feed(bad, 0.0)
    assert boards(events) == [] and dropped(events) == len(bad)


def test_flag_lines_are_not_garbage() -> None:
    codec = CertaboCodec(C1_CALIBRATION)
    events = codec.feed(b"L\r\n" + C1, 0.0)
    assert boards(events) == ["4k3/8/8/8/8/8/8/R3K3"] and dropped(events) == 0
    assert codec.led_kind == "single"


def test_endless_garbage_is_dropped_not_hoarded() -> None:
    codec = CertaboCodec()
    events = codec.feed(b"\x01" * 5000, 0.0)
    assert dropped(events) == 5000 - codec.pending
    assert codec.pending <= 2048
    events = codec.feed(b":" + b"1 " * 3000, 0.0)
    assert codec.pending <= 2048


# ---- snapshots, flicker, orientation ---------------------------------------------------


def test_only_changes_give_snapshots_and_the_first_always() -> None:
    board = CertaboBoard()
    codec = CertaboCodec(board.calibration())
    assert boards(codec.feed(board.record(), 0.0)) == [INITIAL]
    assert codec.feed(board.record() * 5, 0.1) == []
    events = codec.feed(board.lift("e2"), 0.2) + codec.feed(board.record(), 0.3)
    assert events == [Snapshot(t=0.3, board="rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR")]


def test_startup_after_reconnect_gives_a_fresh_snapshot() -> None:
    board = CertaboBoard()
    codec = CertaboCodec(board.calibration())
    assert boards(codec.feed(board.record(), 0.0)) == [INITIAL]
    assert codec.feed(board.record()[:100], 0.1) == []
    assert codec.encode_startup() == b""
    assert codec.pending == 0
    assert boards(codec.feed(board.record(), 5.0)) == [INITIAL]
    # a board changed while away shows at once, not outvoted by records from before
    codec.feed(board.record() * 2, 5.1)
    codec.encode_startup()
    assert boards(codec.feed(board.lift("e2"), 9.0)) == [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
    ]


def _e2_unread(board: CertaboBoard) -> bytes:
    """A record in which e2 reads no tag at all (`0 0 0 0 0`), its pawn still there."""
    unread = board.lift("e2")
    board.place("e2", "P")  # the same tag: the only free one
    return unread


def test_flicker_needs_two_of_three_records() -> None:
    board = CertaboBoard()
    codec = CertaboCodec(board.calibration())
    codec.feed(board.record() * 3, 0.0)
    unread = _e2_unread(board)
    # one read of e2 as empty among steady ones never shows
    events = codec.feed(unread + board.record() + board.record(), 0.1)
    assert events == []
    # two in a row do
    events = codec.feed(unread * 2, 0.2)
    assert boards(events) == ["rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"]


def test_weak_reads_keep_the_square() -> None:
    """A weak read (`0 0 x 0 0`: some byte of the tag came through) is no evidence that the
    square emptied: it keeps what the last record read there, however many come (3.1)."""
    board = CertaboBoard()
    codec = CertaboCodec(board.calibration())
    codec.feed(board.record() * 3, 0.0)
    assert codec.feed(board.record(weak=["e2"]) * 4, 0.1) == []
    # a square that read empty stays empty through weak reads of it
    board.lift("e2")
    assert boards(codec.feed(board.record() * 2, 0.2)) == [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"
    ]
    # every empty square, e2 among them, reads weakly: none fills
    weak_noise = board.record().replace(b" 0 0 0 0 0", b" 0 0 9 0 0")
    assert weak_noise.count(b" 0 0 9 0 0") == 33
    assert codec.feed(weak_noise * 3, 0.3) == []


def test_history_one_passes_every_read() -> None:
    board = CertaboBoard()
    codec = CertaboCodec(board.calibration(), history=1)
    codec.feed(board.record(), 0.0)
    assert len(boards(codec.feed(_e2_unread(board), 0.1))) == 1


@pytest.mark.parametrize("rotated", [False, True])
def test_orientation_detected_with_calibration(rotated: bool) -> None:
    board = CertaboBoard(rotated=rotated)
    codec = CertaboCodec(board.calibration())
    assert boards(codec.feed(board.record(), 0.0)) == [INITIAL]
    assert codec.rotated is rotated and codec.orientation_locked
    codec.feed(board.lift("e2") * 3, 0.1)
    (ev,) = codec.feed(board.place("e4", "P") * 3, 0.2)
    assert isinstance(ev, Snapshot)
    assert ev.board == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    board.receive(codec.encode_leds(["e2", "e4"]))
    assert board.lit_squares() == {"e2", "e4"}


def test_orientation_not_flipped_mid_game() -> None:
    board = CertaboBoard()
    codec = CertaboCodec(board.calibration())
    codec.feed(board.record(), 0.0)
    turned = CertaboBoard(rotated=True)
    (ev,) = codec.feed(turned.record() * 3, 1.0)
    assert isinstance(ev, Snapshot)
    assert ev.board == "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"
    assert not codec.rotated


# ---- calibration -----------------------------------------------------------------------


@pytest.mark.parametrize("rotated", [False, True])
def test_calibrate_from_records_then_decode(rotated: bool) -> None:
    board = CertaboBoard(CALIBRATION_PLACEMENT, rotated=rotated, line_break_every=64)
    codec = CertaboCodec()  # no calibration yet: occupancy, orientation as configured
    data = b"".join(board.record(weak=["a1"] if i == 2 else ()) for i in range(7))
    spares = "4?3" if rotated else "3?4"
    assert boards(codec.feed(data, 0.0)) == [
        f"????????/????????/{spares}/8/8/{spares}/" + "?" * 8 + "/" + "?" * 8
    ]
    calibration = codec.calibrate(rotated=rotated)
    assert len(calibration.pieces) == 34
    assert calibration.pieces == board.calibration().pieces  # every tag was seen
    assert codec.rotated is rotated and codec.orientation_locked
    events = codec.feed(board.set_placement(INITIAL), 1.0)
    # the spare queens still stand in two of the last three records
    assert boards(events) == ["rnbqkbnr/pppppppp/3q4/8/8/3Q4/PPPPPPPP/RNBQKBNR"]
    assert boards(codec.feed(board.record(), 1.1)) == [INITIAL]


def test_calibration_from_a_wrong_setup_names_the_squares() -> None:
    board = CertaboBoard("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
    records = [board.idents()] * 7
    with pytest.raises(CalibrationError, match=r"e2.*e4"):
        CertaboCalibration.from_records(records)
    with pytest.raises(CalibrationError, match="at least 7"):
        CertaboCalibration.from_records([CertaboBoard().idents()] * 6)


def test_calibration_json_round_trip(tmp_path: Path) -> None:
    calibration = CertaboBoard().calibration()
    path = tmp_path / "certabo.json"
    calibration.save(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == "otb-arbiter/certabo-calibration"
    assert CertaboCalibration.load(path) == calibration
    assert CertaboCalibration.load(path).pieces == calibration.pieces


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        b"\x80\x04K.".decode("latin-1"),  # a pickle
        '{"format": "other"}',
        '{"format": "otb-arbiter/certabo-calibration", "version": 1, "pieces": []}',
        '{"format": "otb-arbiter/certabo-calibration", "version": 1, "pieces": {"1 2": "k"}}',
        '{"format": "otb-arbiter/certabo-calibration", "version": 1, "pieces": {"1 2 3 4 5": "z"}}',
        '{"format": "otb-arbiter/certabo-calibration", "version": 1, "pieces": {"0 0 0 4 5": "k"}}',
        '{"format": "otb-arbiter/certabo-calibration", "version": 2, "pieces": {}}',
    ],
)
def test_bad_calibration_files_raise_naming_the_path(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(CalibrationError, match=r"bad\.json"):
        CertaboCalibration.load(path)


def test_missing_calibration_file() -> None:
    with pytest.raises(CalibrationError, match="cannot read"):
        CertaboCalibration.load("/nonexistent/certabo.json")


# ---- Sentio board ----------------------------------------------------------------------


@pytest.mark.parametrize("rotated", [False, True])
def test_sentio_board_round_trip(rotated: bool) -> None:
    board = SentioBoard(rotated=rotated)
    assert board.lift("e2") == (C5 if not rotated else board.record())
    codec = SentioCodec(orientation="rotated" if rotated else "normal")
    (ev,) = codec.feed(board.record(), 0.0)
    assert isinstance(ev, Snapshot)
    assert ev.board == "????????/????????/8/8/8/8/????1???/????????"
    board.receive(codec.encode_leds(["e2"]))
    assert board.lit_squares() == {"e2"}


def test_certabo_board_misuse() -> None:
    board = CertaboBoard()
    with pytest.raises(CodecUsageError):
        board.lift("e4")
    with pytest.raises(CodecUsageError):
        board.place("e4", "Z")
    with pytest.raises(CodecUsageError):
        board.set_placement("QQQQQQQQ/8/8/8/8/8/8/8")


def test_decode_throughput_beats_wire_rate() -> None:
    """38400 8N1 is 3840 bytes/s; a decoder must keep far ahead of it."""
    board = CertaboBoard(line_break_every=64)
    codec = CertaboCodec(board.calibration())
    records = [board.lift("e2"), board.place("e4", "P"), board.lift("g8"), board.place("f6", "n")]
    data = b"".join(records) * 50
    start = time.perf_counter()
    events = codec.feed(data, 0.0)
    elapsed = time.perf_counter() - start
    assert len(events) >= 4
    assert len(data) / elapsed > 10 * 3840
