"""`arbiter calibrate` and `arbiter snapshot` from the command line; OpenCV stays lazy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arbiter.cli import main
from vision.placement import to_sensed

ROOT = Path(__file__).resolve().parents[2]


def _corners(label: dict[str, Any]) -> str:
    return " ".join(f"{x},{y}" for x, y in label["corners"])


def test_calibrate_then_snapshot(
    images: dict[str, dict[str, Any]],
    vision_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ref = images["uschess/IMG_4755.jpg"]
    cal = tmp_path / "cal.json"
    argv = ["calibrate", "--image", str(vision_data / ref["file"]), "--corners", _corners(ref)]
    assert main([*argv, "--fen", ref["fen"], "--out", str(cal)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["white_at"] == "bottom" and out["board"] == to_sensed(ref["fen"])
    assert Path(out["preview"]).is_file() and cal.is_file()

    other = images["uschess/IMG_4818.jpg"]
    argv = ["snapshot", "--image", str(vision_data / other["file"]), "--calibration", str(cal)]
    assert main([*argv, "--corners", _corners(other), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["board"] == to_sensed(other["fen"]) and 0 < got["confidence"] <= 1

    # the plain line a person reads: the placement and the confidence, in their language
    assert main([*argv, "--corners", _corners(other)]) == 0
    plain = capsys.readouterr().out
    assert plain == f"{got['board']}  (confidence {got['confidence']:.2f})\n"
    assert main([*argv, "--corners", _corners(other), "--lang", "cs"]) == 0
    czech = f"{got['board']}  (jistota {got['confidence']:.2f})\n".replace(".", ",")
    assert capsys.readouterr().out == czech


def test_corners_off_the_picture_are_refused_by_name(
    images: dict[str, dict[str, Any]],
    vision_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Corners meant for another picture would read whatever lies there (before: a board of
    black pieces, confidence 1.00); a board cut a little by the picture's edge still reads."""
    ref = images["uschess/IMG_4755.jpg"]
    image = str(vision_data / ref["file"])
    far = "-5000,-5000 9000,-5000 9000,9000 -5000,9000"
    cal = tmp_path / "cal.json"
    assert main(["calibrate", "--image", image, "--corners", far, "--out", str(cal)]) == 2
    err = capsys.readouterr().err
    assert "top-left corner (-5000, -5000) is off the picture" in err and not cal.exists()
    assert (
        main(
            [
                "calibrate",
                "--image",
                image,
                "--corners",
                _corners(ref),
                "--fen",
                ref["fen"],
                "--out",
                str(cal),
            ]
        )
        == 0
    )
    capsys.readouterr()
    argv = ["snapshot", "--image", image, "--calibration", str(cal), "--corners"]
    assert main([*argv, far]) == 2
    assert "off the picture (1024x976)" in capsys.readouterr().err
    (x0, y0), *rest = ref["corners"]
    cut = " ".join(f"{x},{y}" for x, y in [(x0 - 10, y0 - 10), *rest])
    assert main([*argv, cut, "--json"]) == 0


def test_calibrate_from_the_video(
    vision_data: Path, video: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cal = tmp_path / "cal.json"
    argv = ["calibrate", "--video", str(vision_data / video["file"]), "--corners"]
    assert main([*argv, _corners(video), "--out", str(cal)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["white_at"] == "right" and out["board"] == to_sensed(video["segments"][1]["fen"])


def test_errors_are_one_clean_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nothing.jpg"
    code = main(["snapshot", "--image", str(missing), "--calibration", str(tmp_path / "c.json")])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("arbiter snapshot:") and "\n" not in err
    bad = tmp_path / "cal.json"
    bad.write_text("{not json")
    img = tmp_path / "x.png"
    img.write_bytes(b"")
    assert main(["snapshot", "--image", str(img), "--calibration", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_other_commands_never_import_opencv() -> None:
    """Importing any vision module (as the CLI's parser does) loads neither OpenCV nor numpy."""
    code = (
        "import sys, arbiter.cli as c\n"
        "import vision.tracker, vision.stream, vision.sources, vision.detect, vision.follow\n"
        "import vision.render, vision.synth, vision.preview, arbiter.cli.calibrate\n"
        "import arbiter.cli.snapshot\n"
        "try:\n    c.main(['replay', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('cv2' in sys.modules or 'numpy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.stdout.strip().endswith("False"), out.stderr


def test_without_opencv_the_camera_commands_say_how_to_install(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['cv2'] = None\n"  # makes `import cv2` fail
        "from arbiter.cli import main\n"
        "sys.exit(main(['snapshot', '--image', 'x.jpg', '--calibration', 'c.json']))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 2
    assert "pip install 'otb-arbiter[camera]'" in out.stderr


def test_snapshot_follows_a_small_camera_move(
    images: dict[str, dict[str, Any]],
    vision_data: Path,
    video: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without --corners, a picture from a slightly bumped camera is re-registered."""
    import cv2

    from vision import synth

    cal = tmp_path / "cal.json"
    argv = ["calibrate", "--video", str(vision_data / video["file"]), "--corners"]
    assert main([*argv, _corners(video), "--out", str(cal)]) == 0
    capsys.readouterr()
    label = images["pcwawc/scholarsmate_f125.jpg"]
    img = cv2.imread(str(vision_data / label["file"]))
    bumped = tmp_path / "bumped.png"
    cv2.imwrite(str(bumped), synth.rotate(img, 1.5, 7, -5))
    for path, least, most in ((vision_data / label["file"], 0.0, 1.5), (bumped, 6.0, 20.0)):
        argv = ["snapshot", "--image", str(path), "--calibration", str(cal), "--json"]
        assert main(argv) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["board"] == to_sensed(label["fen"])
        assert least <= got["moved_px"] <= most

    # moved by two squares: too far to follow, found again by its squares
    cv2.imwrite(str(bumped), synth.shift(img, 80, 40))
    argv = ["snapshot", "--image", str(bumped), "--calibration", str(cal), "--json"]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["board"] == to_sensed(label["fen"]) and got["located"].startswith("found again")

    far = images["uschess/IMG_4755.jpg"]
    argv = ["snapshot", "--image", str(vision_data / far["file"]), "--calibration", str(cal)]
    assert main(argv) == 2
    assert "--corners" in capsys.readouterr().err


def test_an_empty_board_picture_teaches_every_square_its_empty_look(
    vision_data: Path, video: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--empty`: the same camera's empty board (emptyBoard001.avi) teaches the squares the
    start position covers; g1, a lighter-grained dark square, is then read empty too."""
    from vision.cvload import cv2
    from vision.sources import video_frames

    empty_video = vision_data / "pcwawc" / "emptyBoard001.avi"
    still = tmp_path / "still.png"  # not next to a calibration: its preview is CAL.png
    cv2().imwrite(str(still), [f for _, f in video_frames(str(empty_video))][30])
    base = ["calibrate", "--video", str(vision_data / video["file"]), "--corners", _corners(video)]
    snapshot = ["snapshot", "--image", str(still), "--corners", _corners(video), "--json"]
    boards = {}
    for name, extra in (("plain", []), ("empty", ["--empty", str(empty_video)])):
        cal = tmp_path / f"{name}.json"
        assert main([*base, *extra, "--out", str(cal)]) == 0
        assert json.loads(capsys.readouterr().out)["empty_learned"] == (name == "empty")
        assert main([*snapshot, "--calibration", str(cal)]) == 0
        boards[name] = json.loads(capsys.readouterr().out)["board"]
    assert boards["plain"] != "8/8/8/8/8/8/8/8"  # g1 taken for a piece
    assert boards["empty"] == "8/8/8/8/8/8/8/8"
    small = tmp_path / "small.png"
    cv2().imwrite(str(small), cv2().imread(str(still))[:240, :320])
    assert main([*base, "--empty", str(small), "--out", str(tmp_path / "x.json")]) == 2
    assert "same camera at the same size" in capsys.readouterr().err


def test_a_calibration_that_misreads_its_own_photo_is_refused_by_square(
    images: dict[str, dict[str, Any]],
    vision_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """IMG_4768 reads its white pawn on g2 as empty: refused, naming g2; kept on request."""
    ref = images["uschess/IMG_4768.jpg"]
    cal = tmp_path / "cal.json"
    argv = ["calibrate", "--image", str(vision_data / ref["file"]), "--corners", _corners(ref)]
    argv += ["--fen", ref["fen"], "--out", str(cal)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "g2 read as empty, not a white piece" in err and "--accept-misread" in err
    assert not cal.exists()
    assert main([*argv, "--accept-misread"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["misread"] == ["g2"] and "warning" in captured.err
    assert cal.is_file()


def test_white_given_a_quarter_or_half_turn_off_is_refused(
    images: dict[str, dict[str, Any]], vision_data: Path, tmp_path: Path
) -> None:
    from vision.calibration import calibrate
    from vision.errors import CalibrationError
    from vision.sources import read_image

    ref = images["uschess/IMG_4755.jpg"]
    img = read_image(str(vision_data / ref["file"]))
    corners = [tuple(p) for p in ref["corners"]]
    for side in ("left", "right"):
        with pytest.raises(CalibrationError, match="quarter turn"):
            calibrate(img, corners, side, ref["fen"])
    with pytest.raises(CalibrationError, match="darker"):
        calibrate(img, corners, "top", ref["fen"])
    # turned corners with White found from the pieces still calibrate: the same grid
    from vision.geometry import canonical_corners

    turned = calibrate(img, corners[1:] + corners[:1], None, ref["fen"])
    assert canonical_corners(turned.corners, turned.white_at) == canonical_corners(
        corners, "bottom"
    )


def test_snapshot_reads_a_resized_or_cropped_picture_and_refuses_turned_corners(
    images: dict[str, dict[str, Any]],
    vision_data: Path,
    video: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import cv2

    cal = tmp_path / "cal.json"
    argv = ["calibrate", "--video", str(vision_data / video["file"]), "--corners"]
    assert main([*argv, _corners(video), "--out", str(cal)]) == 0
    capsys.readouterr()
    label = images["pcwawc/scholarsmate_f125.jpg"]
    img = cv2.imread(str(vision_data / label["file"]))
    for name, pic, how in (
        ("small.png", cv2.resize(img, (480, 360)), "resized"),
        ("crop.png", img[20:470, 60:620], "found again"),
    ):
        cv2.imwrite(str(tmp_path / name), pic)
        argv = ["snapshot", "--image", str(tmp_path / name), "--calibration", str(cal), "--json"]
        assert main(argv) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["board"] == to_sensed(label["fen"]) and got["located"].startswith(how)
        assert got["complete"] is True
    # another board, cropped to another shape: refused, not read with this calibration
    other = cv2.imread(str(vision_data / "pcwawc" / "chessBoard012.jpg"))
    for turn, why in ((None, "quarter turn"), (cv2.ROTATE_90_CLOCKWISE, "does not look like")):
        pic = other if turn is None else cv2.rotate(other, turn)
        cv2.imwrite(str(tmp_path / "other.png"), pic[10:-10, 40:-40])
        argv = ["snapshot", "--image", str(tmp_path / "other.png"), "--calibration", str(cal)]
        assert main(argv) == 2
        assert why in capsys.readouterr().err
    pts = label["corners"]
    turned = " ".join(f"{x},{y}" for x, y in pts[1:] + pts[:1])
    argv = ["snapshot", "--image", str(vision_data / label["file"]), "--calibration", str(cal)]
    assert main([*argv, "--corners", turned]) == 2
    assert "quarter turn" in capsys.readouterr().err


def _arm(frame: Any, corners: list[list[int]], reach_sq: float) -> Any:
    """`frame` with a skin-coloured arm one square wide, from the picture's bottom edge to
    `reach_sq` squares into the board across its bottom side (blurred edges)."""
    import cv2
    import numpy as np

    (x0, _), (x1, _), (_, y2), _ = corners
    square = abs(x1 - x0) / 8
    h, w = frame.shape[:2]
    cx, tip = (x0 + x1) / 2, y2 - reach_sq * square
    band = np.zeros((h, w), np.float32)
    cv2.line(band, (int(cx + 10), h + 20), (int(cx), int(tip)), 1.0, int(square))
    cv2.circle(band, (int(cx), int(tip)), int(square / 2), 1.0, -1)
    band = cv2.GaussianBlur(band, (0, 0), 3)[..., None]
    skin = np.array([120, 150, 205], np.float32)  # BGR
    return (frame * (1 - band) + skin * band).astype(np.uint8)


def test_snapshot_refuses_a_hand_over_the_board_with_or_without_corners(
    frames: list[Any],
    vision_data: Path,
    video: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A real hand (frame 244, over 34 squares) and a painted arm reaching four squares in
    give no reading, with `--corners` too (before: read as a position there), exit status 3;
    a fingertip over three squares gives `?` on them; a clean frame reads complete."""
    import cv2

    from arbiter.cli.snapshot import HAND_EXIT

    cal = tmp_path / "cal.json"
    corners = _corners(video)
    argv = ["calibrate", "--video", str(vision_data / video["file"]), "--corners", corners]
    assert main([*argv, "--out", str(cal)]) == 0
    capsys.readouterr()
    pictures = {
        "hand": frames[244],
        "arm": _arm(frames[3], video["corners"], 4.0),
        "finger": _arm(frames[3], video["corners"], 1.5),
        "clean": frames[3],
    }
    for name, picture in pictures.items():
        cv2.imwrite(str(tmp_path / f"{name}.png"), picture)
    for given in ([], ["--corners", corners]):
        base = ["snapshot", "--calibration", str(cal), *given, "--json", "--image"]
        for name in ("hand", "arm"):
            assert main([*base, str(tmp_path / f"{name}.png")]) == HAND_EXIT, (name, given)
            captured = capsys.readouterr()
            assert captured.out == ""
            assert captured.err.startswith("arbiter snapshot: a hand or arm is over the board")
            assert "\n" not in captured.err.strip()
        assert main([*base, str(tmp_path / "finger.png")]) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["complete"] is False and 1 <= len(got["hidden"]) <= 4
        assert got["board"].count("?") >= len(got["hidden"])
        assert main([*base, str(tmp_path / "clean.png")]) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["complete"] is True and got["board"] == to_sensed(video["segments"][1]["fen"])


def test_the_hand_check_needs_the_calibration_camera_s_view(
    images: dict[str, dict[str, Any]], vision_data: Path
) -> None:
    """Against the calibration's frame only a picture from the same camera place is checked
    for a hand: a photo from another place (the same size, the view tilted by 60 px) is read,
    not refused (every handheld uschess photo would look like an arm against IMG_4755); a
    tilt of 5 px still counts as the same place and shows no hand either."""
    import cv2
    import numpy as np

    from vision.calibration import calibrate
    from vision.follow import same_view
    from vision.picture import read_picture
    from vision.sources import read_image

    ref = images["uschess/IMG_4755.jpg"]
    img = read_image(str(vision_data / ref["file"]))
    corners = [tuple(p) for p in ref["corners"]]
    cal = calibrate(img, corners, ref["white_at"], ref["fen"])
    assert same_view(img, cal, corners) is not None
    h, w = img.shape[:2]
    edge = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    for px, same in ((5, True), (60, False)):
        step = np.array([[px, 0], [-px, px], [0, 0], [0, -px]], np.float32)
        tilt = cv2.getPerspectiveTransform(edge, edge + step)
        tilted = cv2.warpPerspective(img, tilt, (w, h))
        at = cv2.perspectiveTransform(np.array([corners], np.float32), tilt)[0]
        moved = [(float(x), float(y)) for x, y in at]
        assert (same_view(tilted, cal, moved) is not None) is same, px
        assert read_picture(tilted, cal, moved).hidden == (), px
