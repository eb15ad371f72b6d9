"""The corner picker (`arbiter calibrate --pick`): a real HTTP server, real requests.

The server is started on port 0 (a free port), the page and the frame are fetched over HTTP,
bad answers get a 400 with a message while the server keeps waiting, good corners end the
wait and the calibration goes on with them exactly as with `--corners`; a timeout and Ctrl-C
end it with one clear line, no traceback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.errors import CalibrationError
from vision.pick import parse_clicks, pick_corners, urls

ROOT = Path(__file__).resolve().parents[2]


def _post(url: str, body: bytes) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        url + "corners", data=body, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class _Picker:
    """`pick_corners` running in a thread, its URL and its outcome."""

    def __init__(self, frame: Any, **kw: Any) -> None:
        self.urls: list[str] = []
        self.ready = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None

        def announce(found: list[str]) -> None:
            self.urls = found
            self.ready.set()

        def target() -> None:
            try:
                self.result = pick_corners(frame, port=0, announce=announce, **kw)
            except BaseException as exc:  # handed to the test
                self.error = exc
                self.ready.set()

        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "the picker never started"

    @property
    def url(self) -> str:
        return self.urls[0]


def test_page_frame_bad_posts_then_corners() -> None:
    import cv2

    frame = np.zeros((300, 400, 3), np.uint8)
    frame[50:250, 100:300] = (40, 160, 220)
    p = _Picker(frame, timeout=30)
    assert p.url.startswith("http://127.0.0.1:")
    with urllib.request.urlopen(p.url, timeout=10) as r:
        page = r.read().decode("utf-8")
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/html")
    assert "frame.jpg" in page and "Undo" in page and "top-left" in page
    with urllib.request.urlopen(p.url + "frame.jpg", timeout=10) as r:
        img = cv2.imdecode(np.frombuffer(r.read(), np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == frame.shape and abs(int(img[150, 200, 2]) - 220) < 8

    bad = {
        b"not json": "JSON",
        json.dumps({"corners": [[1, 2], [3, 4], [5, 6]]}).encode(): "exactly four",
        json.dumps({"corners": [[1, 2], [3, 4], [5, 6], ["x", 8]]}).encode(): "[x, y]",
        json.dumps({"corners": [[100, 50], [300, 50], [300, 250], [9000, 250]]}).encode(): "far",
        # one point inside the triangle of the others (click order does not matter: below)
        json.dumps({"corners": [[100, 50], [300, 50], [200, 100], [100, 250]]}).encode(): "convex",
        json.dumps({"corners": [[100, 50], [100, 50], [300, 250], [100, 250]]}).encode(): "same",
    }
    for body, words in bad.items():
        code, answer = _post(p.url, body)
        assert code == 400 and words in answer["error"], (body, answer)
        assert p.thread.is_alive() and p.result is None  # still waiting
    # clicked anticlockwise from the bottom-left: put in TL, TR, BR, BL order
    clicks = [[100.5, 250], [300, 251], [299, 49.5], [101, 50]]
    code, answer = _post(p.url, json.dumps({"corners": clicks}).encode())
    assert code == 200 and "terminal" in answer["message"]
    p.thread.join(10)
    assert p.error is None
    assert p.result == [(101.0, 50.0), (299.0, 49.5), (300.0, 251.0), (100.5, 250.0)]


def test_timeout_is_a_clear_error() -> None:
    p = _Picker(np.zeros((60, 80, 3), np.uint8), timeout=0.3)
    p.thread.join(10)
    assert isinstance(p.error, CalibrationError)
    assert "within 0.3 s" in str(p.error) and "--corners" in str(p.error)


def test_busy_port_is_a_clear_error() -> None:
    p = _Picker(np.zeros((60, 80, 3), np.uint8), timeout=30)
    port = int(p.url.rsplit(":", 1)[1].strip("/"))
    with pytest.raises(CalibrationError, match="another --port"):
        pick_corners(np.zeros((60, 80, 3), np.uint8), port=port, timeout=1)
    assert _post(p.url, json.dumps({"corners": [[1, 1], [70, 1], [70, 50], [1, 50]]}).encode())[0]
    p.thread.join(10)


def test_urls_for_this_machine_and_the_network() -> None:
    assert urls("127.0.0.1", 8765) == ["http://127.0.0.1:8765/"]
    every = urls("0.0.0.0", 8765)
    assert every[0] == "http://localhost:8765/"
    assert all(re.fullmatch(r"http://[\w.\-]+:8765/", u) for u in every)


def test_parse_clicks_accepts_a_board_cut_by_the_frame() -> None:
    body = json.dumps({"corners": [[-20, -15], [420, -10], [410, 310], [-5, 305]]}).encode()
    assert parse_clicks(body, 400, 300)[0] == (-20.0, -15.0)


def _start_cli(image: Path, out: Path, *extra: str) -> tuple[subprocess.Popen[str], str, str]:
    """`arbiter calibrate --pick --port 0` in a child process: it, its page's URL, and what
    it printed on stderr until it waits for the corners."""
    cmd = [sys.executable, "-m", "arbiter.cli", "calibrate", "--image", str(image)]
    cmd += ["--pick", "--port", "0", "--out", str(out), *extra]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None
    seen = ""
    for _ in range(20):
        seen += proc.stderr.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/)", seen)
        if m and "waiting for the corners" in seen:
            return proc, m.group(1), seen
    proc.kill()
    raise AssertionError(f"no URL printed: {seen!r}")


def test_cli_pick_calibrates_with_the_clicked_corners(
    images: dict[str, dict[str, Any]], vision_data: Path, tmp_path: Path
) -> None:
    ref = images["uschess/IMG_4755.jpg"]
    out = tmp_path / "cal.json"
    proc, url, before = _start_cli(vision_data / ref["file"], out, "--fen", ref["fen"])
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200
        assert _post(url, b'{"corners": 4}')[0] == 400
        code, _ = _post(url, json.dumps({"corners": ref["corners"]}).encode())
        assert code == 200
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, stderr
    result = json.loads(stdout)
    assert result["white_at"] == "bottom"
    saved = json.loads(out.read_text())
    assert saved["corners"] == ref["corners"]  # exactly the clicked corners
    assert "corners received" in stderr and "--host 0.0.0.0" in before


def test_cli_pick_ctrl_c_is_one_clean_line(vision_data: Path, tmp_path: Path) -> None:
    proc, _, _ = _start_cli(vision_data / "uschess/IMG_4755.jpg", tmp_path / "cal.json")
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 2 and stdout == ""
    assert "Traceback" not in stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("arbiter calibrate: corner picking stopped (Ctrl-C)")
    assert "--corners" in last and "--pick" in last
    assert not (tmp_path / "cal.json").exists()


def test_no_board_error_names_both_ways(tmp_path: Path) -> None:
    import cv2

    img = tmp_path / "grey.png"
    cv2.imwrite(str(img), np.full((240, 320, 3), 128, np.uint8))
    proc = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "calibrate", "--image", str(img), "--out", "c.json"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--corners" in proc.stderr and "--pick" in proc.stderr


def test_picker_loads_no_opencv_until_used() -> None:
    """`vision.pick` and `arbiter calibrate --help` import neither OpenCV nor numpy."""
    code = (
        "import sys, vision.pick, arbiter.cli.calibrate, arbiter.cli as c\n"
        "try:\n    c.main(['calibrate', '--help'])\nexcept SystemExit:\n    pass\n"
        "print('cv2' in sys.modules or 'numpy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"


_HARNESS = r"""
const els = {};
function el(id) {
  if (!els[id]) els[id] = { textContent: "", className: "", disabled: false, width: 0, height: 0,
    listeners: {}, addEventListener(t, f) { this.listeners[t] = f; },
    getContext() { return ctx; },
    getBoundingClientRect() { return { left: 10, top: 20, width: this.width / 2,
                                       height: this.height / 2 }; } };
  return els[id];
}
const arcs = [];
const ctx = new Proxy({}, { get: (t, k) => (k in t ? t[k] : (...a) => {
  if (k === "arc") arcs.push(a); }), set: (t, k, v) => { t[k] = v; return true; } });
const keys = {};
globalThis.document = { getElementById: el, addEventListener: (t, f) => { keys[t] = f; } };
globalThis.Image = class { set src(v) { this.naturalWidth = 1000; this.naturalHeight = 800;
                                        setTimeout(() => this.onload(), 0); } };
let posted = null;
globalThis.fetch = async (url, opts) => { posted = [url, JSON.parse(opts.body)];
  return { ok: true, json: async () => ({ message: "corners received" }) }; };
eval(require("fs").readFileSync(0, "utf8"));
setTimeout(async () => {
  const cv = el("c"), log = [];
  // shown at half size at (10, 20); the picture sits `margin` (50 px) inside the canvas
  const click = (x, y) => cv.listeners.click({ clientX: 10 + (x + 50) / 2,
                                               clientY: 20 + (y + 50) / 2 });
  log.push([cv.width, cv.height, el("msg").textContent]);
  click(100, 80); click(900, 90); click(910, 700); click(500, 500);
  el("undo").onclick();
  keys.keydown({ key: "Backspace", preventDefault() {} });
  log.push([el("msg").textContent, el("send").disabled]);
  click(910, 700); click(-20, 710); click(0, 0);
  log.push([el("msg").textContent, el("send").disabled]);
  await el("send").onclick();
  log.push(posted, [el("msg").textContent, el("msg").className, arcs.length > 0]);
  console.log(JSON.stringify(log));
}, 10);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_page_script_clicks_undo_and_send(tmp_path: Path) -> None:
    """The page's own script, run by node with a stand-in DOM: clicks map to picture pixels
    (canvas scaled and with a margin), undo (button and Backspace) removes the last, a fifth
    click is ignored, Send posts the four to `corners`."""
    from vision.pick import PAGE

    script = re.search(r"<script>(.*)</script>", PAGE, re.S)
    assert script is not None
    harness = tmp_path / "harness.js"
    harness.write_text(_HARNESS)
    out = subprocess.run(
        ["node", str(harness)], input=script.group(1), capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    log = json.loads(out.stdout)
    assert log[0] == [1100, 900, "next: top-left corner"]
    assert log[1] == ["next: bottom-right corner", True]
    assert log[2] == ["four corners: send them, or undo", False]
    assert log[3] == ["corners", {"corners": [[100, 80], [900, 90], [910, 700], [-20, 710]]}]
    assert log[4] == ["corners received", "ok", True]


def _raw_post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(url + "corners", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_cross_site_and_malformed_posts_get_a_400_and_the_picker_keeps_waiting() -> None:
    """D15 (issue 17): another site's page, a DNS-rebound name, a form post, deep nesting
    and a 4,300-digit number are each refused with a 400 naming why; the page's own POST
    then goes through."""
    frame = np.zeros((480, 640, 3), np.uint8)
    p = _Picker(frame, timeout=30)
    good = json.dumps({"corners": [[10, 10], [600, 12], [610, 470], [8, 460]]}).encode()
    host = p.url.split("/")[2]
    cases = [
        ({"Content-Type": "text/plain"}, good, "application/json"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, good, "application/json"),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, good,
         "another site"),
        ({"Content-Type": "application/json", "Origin": "null"}, good, "another site"),
        ({"Content-Type": "application/json", "Host": "evil.example:80"}, good,
         "this machine's address"),
        ({"Content-Type": "application/json"}, b"[" * 9000, "send JSON"),
        ({"Content-Type": "application/json"}, b'{"corners": ' + b"1" * 5000 + b"}",
         "send JSON"),
    ]  # fmt: skip
    for headers, body, says in cases:
        status, answer = _raw_post(p.url, body, headers)
        assert status == 400 and says in answer["error"], (headers, status, answer)
    status, _ = _raw_post(
        p.url, good, {"Content-Type": "application/json", "Origin": f"http://{host}"}
    )
    assert status == 200
    p.thread.join(10)
    assert p.error is None and p.result is not None


@pytest.mark.parametrize("language", ["pl", "sr_Cyrl", "mk"])
def test_the_page_s_answers_are_in_the_command_s_language(language: str) -> None:
    """`arbiter calibrate --pick --lang xx` hands `pick_corners` its way of saying an error
    (`say`): every answer the page shows, refusals and the last one, is in that language."""
    from arbiter.i18n import error_text

    frame = np.zeros((300, 400, 3), np.uint8)
    p = _Picker(frame, timeout=30, say=lambda error: error_text(error, language))
    english = {"send", "click", "exactly", "four", "corners", "corner", "pixels", "far",
               "outside", "picture", "same", "point", "undo", "again", "convex", "page",
               "opened", "machine", "address", "request", "another", "site", "refused",
               "received", "terminal", "close", "such", "must", "be", "not"}  # fmt: skip
    bad = [
        b"not json",
        json.dumps({"corners": [[1, 2], [3, 4], [5, 6]]}).encode(),
        json.dumps({"corners": [[1, 2], [3, 4], [5, 6], ["x", 8]]}).encode(),
        json.dumps({"corners": [[100, 50], [300, 50], [300, 250], [9000, 250]]}).encode(),
        json.dumps({"corners": [[100, 50], [100, 50], [300, 250], [100, 250]]}).encode(),
    ]
    answers = [_post(p.url, body)[1]["error"] for body in bad]
    answers.append(_raw_post(p.url, b"{}", {"Content-Type": "text/plain"})[1]["error"])
    other_site = {"Content-Type": "application/json", "Origin": "http://x.y"}
    answers.append(_raw_post(p.url, b"{}", other_site)[1]["error"])
    good = {"corners": [[1, 1], [390, 1], [390, 290], [1, 290]]}
    code, done = _post(p.url, json.dumps(good).encode())
    assert code == 200
    answers.append(done["message"])
    p.thread.join(10)
    assert p.error is None and p.result is not None
    kept = re.compile(r'\[[^\]]*\]|"[^"]*"|\([^)]*\)|application/json|http://\S+|JSON')
    for answer in answers:
        left = {w for w in re.findall(r"[^\W\d_]+", kept.sub(" ", answer)) if w in english}
        assert left == set(), (language, answer)


@pytest.mark.parametrize("language", ["sr", "pl", "mk"])
def test_the_page_s_own_words_are_in_the_command_s_language(language: str) -> None:
    """`arbiter calibrate --pick --lang xx`: the page's title, buttons, help line and
    prompts (with the corners' names) are in that language, the English page as before."""
    from arbiter.i18n import gettext
    from vision.pick import PAGE, page

    english = page()
    assert english == PAGE and '<button id="undo" title="Backspace">Undo</button>' in english
    assert "<b>top-left, top-right, bottom-right, bottom-left</b>" in english
    said = page(lambda text: gettext(text, language), language)
    words = {
        "sr": ("Poništi", "Pošalji uglove", "<b>gore levo, gore desno,",
               '"sledeći: ugao {corner}"'),
        "pl": ("Cofnij", "Wyślij narożniki", "<b>lewy górny, prawy górny,",
               '"następny: róg {corner}"'),
        "mk": ("Поништи", "Испрати ги аглите", "<b>горе лево, горе десно,",
               '"следно: аголот {corner}"'),
    }[language]  # fmt: skip
    for word in words:
        assert word in said, (language, word)
    assert f'<html lang="{language}">' in said
    visible = re.sub(r"<script>.*</script>|<style>.*</style>|<[^>]+>", " ", said, flags=re.S)
    english_words = {"click", "the", "corners", "undo", "start", "again", "send", "of", "board"}
    left = {w for w in re.findall(r"[^\W\d_]+", visible) if w.lower() in english_words}
    assert left == set(), (language, left)
