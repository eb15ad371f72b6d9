"""Click the board's corners in a browser: the fallback when detection finds no board.

Why a web page: the Raspberry Pi runs headless with `opencv-python-headless`, which has no
GUI windows. A small HTTP server (standard library only) serves a page with the frame; the
user opens it on the Pi's own browser or from another computer, clicks the playing area's
four corners, and sends them. `pick_corners` returns them once a valid set has arrived.

The server binds to `127.0.0.1` by default (only this machine can open the page); bind to
`0.0.0.0` (all interfaces) to let another computer on the network open it. It serves only
the page, the frame and the form's answer, and stops as soon as the corners are in.

OpenCV is imported only when a frame is encoded (`vision.cvload`), never at import time.
"""

from __future__ import annotations

import html
import json
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rules.library_reasons import reason_of
from vision import messages as said
from vision.errors import CalibrationError
from vision.geometry import Corners, check_corners

DEFAULT_PORT = 8765
DEFAULT_HOST = "127.0.0.1"
#: share of the picture's size by which a click may fall outside it (board cut by the frame)
OUTSIDE = 0.25
MAX_BODY = 10_000  #: bytes: a POST of four points is far smaller

_PAGE = """<!doctype html>
<html lang="@@lang@@"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@@title@@</title>
<style>
 body { font-family: sans-serif; margin: 0.6em; background: #222; color: #eee; }
 #bar { margin-bottom: 0.5em; }
 button { font-size: 1em; margin-right: 0.4em; padding: 0.3em 0.8em; }
 #msg { margin-left: 0.6em; }
 .err { color: #f66; } .ok { color: #6f6; }
 canvas { cursor: crosshair; max-width: 100%; background: #444; }
</style></head><body>
<div id="bar">
 <button id="undo" title="Backspace">@@undo@@</button>
 <button id="reset">@@reset@@</button>
 <button id="send" disabled>@@send@@</button>
 <span id="msg"></span>
</div>
<div id="help">@@help@@</div>
<canvas id="c"></canvas>
<script>
const WORDS = @@words@@;
const NAMES = WORDS.names;
const img = new Image();
const cv = document.getElementById("c"), ctx = cv.getContext("2d");
const msg = document.getElementById("msg"), send = document.getElementById("send");
let pts = [], margin = 0, done = false;
function say(text, cls) { msg.textContent = text; msg.className = cls || ""; }
function prompt() {
  if (done) return;
  send.disabled = pts.length !== 4;
  say(pts.length < 4 ? WORDS.next.replace("{corner}", NAMES[pts.length]) : WORDS.four);
}
function draw() {
  ctx.fillStyle = "#444"; ctx.fillRect(0, 0, cv.width, cv.height);
  ctx.drawImage(img, margin, margin);
  const r = Math.max(4, img.naturalWidth / 150);
  ctx.lineWidth = Math.max(1, r / 3);
  ctx.strokeStyle = "#0f0";
  if (pts.length > 1) {
    ctx.beginPath();
    pts.forEach((p, i) => i ? ctx.lineTo(p[0] + margin, p[1] + margin)
                            : ctx.moveTo(p[0] + margin, p[1] + margin));
    if (pts.length === 4) ctx.closePath();
    ctx.stroke();
  }
  ctx.font = (3 * r) + "px sans-serif";
  pts.forEach((p, i) => {
    ctx.beginPath(); ctx.arc(p[0] + margin, p[1] + margin, r, 0, 2 * Math.PI);
    ctx.fillStyle = "#f00"; ctx.fill();
    ctx.fillStyle = "#ff0";
    ctx.fillText((i + 1) + " " + NAMES[i], p[0] + margin + r * 1.5, p[1] + margin - r);
  });
}
img.onload = () => {
  margin = Math.round(0.05 * Math.max(img.naturalWidth, img.naturalHeight));
  cv.width = img.naturalWidth + 2 * margin; cv.height = img.naturalHeight + 2 * margin;
  draw(); prompt();
};
img.onerror = () => say(WORDS.noPicture, "err");
img.src = "frame.jpg";
cv.addEventListener("click", (e) => {
  if (done || pts.length >= 4) return;
  const b = cv.getBoundingClientRect();
  const x = (e.clientX - b.left) * cv.width / b.width - margin;
  const y = (e.clientY - b.top) * cv.height / b.height - margin;
  pts.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  draw(); prompt();
});
function undo() { if (!done && pts.length) { pts.pop(); draw(); prompt(); } }
document.getElementById("undo").onclick = undo;
document.getElementById("reset").onclick = () => { if (!done) { pts = []; draw(); prompt(); } };
document.addEventListener("keydown", (e) => {
  if (e.key === "Backspace" || e.key === "z") { e.preventDefault(); undo(); }
});
send.onclick = async () => {
  send.disabled = true;
  try {
    const r = await fetch("corners", { method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ corners: pts }) });
    const body = await r.json();
    if (r.ok) { done = true; say(body.message, "ok"); }
    else { say(body.error, "err"); send.disabled = false; }
  } catch (err) { say(WORDS.notSent.replace("{error}", err), "err"); send.disabled = false; }
};
</script></body></html>
"""


def page(words: Callable[[str], str] = str, language: str = "en") -> str:
    """The picker's page in the command's language: `words` says one of its English texts
    (`vision.messages.PICK_PAGE`, the corners' names) in it (`arbiter.i18n.gettext`)."""
    said_words = {key: words(text) for key, text in said.PICK_PAGE.items()}
    names = [words(name) for name in said.CORNER_NAMES]
    corners = "<b>" + html.escape(", ".join(names), quote=False) + "</b>"
    prompts = ("next", "four", "noPicture", "notSent")
    script = {"names": names, **{key: said_words[key] for key in prompts}}
    fills = {
        "lang": html.escape(language.replace("_", "-"), quote=True),
        "title": html.escape(said_words["title"], quote=False),
        "undo": html.escape(said_words["undo"], quote=False),
        "reset": html.escape(said_words["reset"], quote=False),
        "send": html.escape(said_words["send"], quote=False),
        "help": html.escape(said_words["help"], quote=False).replace("{corners}", corners),
        # inside <script>: JSON, with no "</" that would end the script early
        "words": json.dumps(script, ensure_ascii=False).replace("</", "<\\/"),
    }
    text = _PAGE
    for key, value in fills.items():
        text = text.replace(f"@@{key}@@", value)
    return text


#: the page in English
PAGE = page()


def parse_clicks(body: bytes, width: int, height: int) -> Corners:
    """Four clicked points from a POST body (`{"corners": [[x, y] x 4]}`), as TL, TR, BR, BL.

    The points are put in the image's TL, TR, BR, BL order from their positions (as
    `vision.detect` does), so a click order that starts at another corner or runs
    anticlockwise cannot turn the board; they must form a convex quadrilateral and lie on
    the picture or just beside it (a board cut by the frame).

    Raises:
        CalibrationError: the body is not such a JSON object, or the points are unusable;
            the message says what to do.
    """
    from vision.detect import order_corners

    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # ValueError: bad JSON, or an integer of 4,300 digits; RecursionError: deep nesting
        raise CalibrationError.of(said.PICK_SEND_JSON) from None
    pts = data.get("corners") if isinstance(data, dict) else None
    if not isinstance(pts, list) or len(pts) != 4:
        raise CalibrationError.of(said.PICK_FOUR)
    out: list[tuple[float, float]] = []
    for p in pts:
        if (
            not isinstance(p, list)
            or len(p) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
        ):
            raise CalibrationError.of(said.PICK_CORNER_XY, value=repr(p))
        x, y = float(p[0]), float(p[1])
        if not (
            -OUTSIDE * width <= x <= (1 + OUTSIDE) * width
            and -OUTSIDE * height <= y <= (1 + OUTSIDE) * height
        ):
            raise CalibrationError.of(said.PICK_FAR, x=x, y=y)
        out.append((x, y))
    side = min(
        ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
        for i, a in enumerate(out)
        for b in out[i + 1 :]
    )
    if side < 0.02 * max(width, height):
        raise CalibrationError.of(said.PICK_SAME_POINT)
    try:
        return check_corners(order_corners(out))
    except CalibrationError:
        raise CalibrationError.of(said.PICK_NOT_CONVEX) from None


def cross_site(headers: Any) -> CalibrationError | None:
    """Why a POST is refused as not coming from the picker's own page, or None (D15).

    Another web page open in the user's browser may post to this server while it waits:
    - only `application/json` is taken: a page elsewhere cannot send it without the
      browser asking this server first (a CORS preflight), which it never answers;
    - an `Origin` header (browsers send one on every cross-origin POST) must be this
      server's own address, as the `Host` header names it;
    - `Host` must be an IP address, `localhost` or this machine's name, so that a web
      site whose name was made to point at this machine (DNS rebinding) is refused.
    """
    ctype = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
    if ctype != "application/json":
        return CalibrationError.of(said.PICK_NOT_JSON_TYPE)
    host = (headers.get("Host") or "").strip()
    if not _local_host_name(host):
        if not host:
            return CalibrationError.of(said.PICK_NO_HOST)
        return CalibrationError.of(said.PICK_WRONG_HOST, host=host)
    origin = headers.get("Origin")
    if origin is not None and origin.rstrip("/") != f"http://{host}":
        return CalibrationError.of(said.PICK_OTHER_SITE, origin=origin)
    return None


def _local_host_name(host: str) -> bool:
    """Is `host` (a Host header: name or address, and maybe a port) this machine?"""
    import ipaddress

    if host.startswith("["):  # an IPv6 address, [::1]:8000
        name = host[1 : host.find("]")] if "]" in host else ""
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.lower()
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    mine = socket.gethostname().lower()
    return name in ("localhost", mine, f"{mine}.local")


def encode_jpeg(frame: Any) -> bytes:
    """The frame as JPEG bytes (OpenCV, imported here only)."""
    from vision.cvload import cv2

    ok, buf = cv2().imencode(".jpg", frame, [cv2().IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise CalibrationError.of(said.PICKER_NO_JPEG)
    return bytes(buf)


def lan_address() -> str | None:
    """This machine's address on its network (the one a default route would use), if any.

    Connecting a UDP socket sends nothing; it only makes the system choose the interface.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") or addr == "0.0.0.0" else str(addr)


def urls(host: str, port: int) -> list[str]:
    """Where the page can be opened from, for the user: this machine, then the network."""
    if host in ("0.0.0.0", "", "::"):
        out = [f"http://localhost:{port}/"]
        lan = lan_address()
        if lan:
            out.append(f"http://{lan}:{port}/")
        return out
    shown = f"[{host}]" if ":" in host else host
    return [f"http://{shown}:{port}/"]


class _State:
    """What the server shares with the waiting caller."""

    def __init__(self, jpeg: bytes, width: int, height: int) -> None:
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.corners: Corners | None = None
        self.done = threading.Event()


def _handler(
    state: _State, say: Callable[[BaseException], str] = str, shown: str = PAGE
) -> type[BaseHTTPRequestHandler]:
    """The picker's HTTP handler; `say` puts an error of ours in the command's language,
    `shown` is the page in it (`page`)."""

    class Handler(BaseHTTPRequestHandler):
        timeout = 10  # a browser's idle pre-opened connection must not hold a thread forever
        server_version = "OTBArbiterPick/1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the terminal shows the URL and the result, not every request."""

        def _send(self, code: int, ctype: str, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, obj: dict[str, Any]) -> None:
            self._send(code, "application/json", json.dumps(obj).encode("utf-8"))

        def _refuse(self, code: int, template: str, **fields: Any) -> None:
            self._json(code, {"error": say(CalibrationError.of(template, **fields))})

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8", shown.encode("utf-8"))
            elif path == "/frame.jpg":
                self._send(200, "image/jpeg", state.jpeg)
            else:
                self._refuse(404, said.PICK_NO_PAGE, path=path)

        def do_POST(self) -> None:
            if self.path.split("?", 1)[0] != "/corners":
                self._refuse(404, said.PICK_NO_PAGE, path=self.path)
                return
            refused = cross_site(self.headers)
            if refused is not None:
                self._json(400, {"error": say(refused)})
                return
            if state.done.is_set():
                self._refuse(409, said.PICK_ALREADY)
                return
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self._refuse(400, said.PICK_NO_LENGTH)
                return
            if not 0 < length <= MAX_BODY:
                self._refuse(400, said.PICK_BODY_SIZE, most=MAX_BODY)
                return
            body = self.rfile.read(length)
            try:
                corners = parse_clicks(body, state.width, state.height)
            except CalibrationError as exc:
                self._json(400, {"error": say(exc)})
                return
            state.corners = corners
            self._json(
                200,
                {
                    "message": say(CalibrationError.of(said.PICK_RECEIVED)),
                    "corners": [list(p) for p in corners],
                },
            )
            state.done.set()

    return Handler


def pick_corners(
    frame: Any,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    timeout: float | None = None,
    announce: Callable[[list[str]], None] | None = None,
    say: Callable[[BaseException], str] = str,
    words: Callable[[str], str] = str,
    language: str = "en",
) -> Corners:
    """Serve `frame` on a page where the user clicks the board's corners; return them.

    `announce` receives the URLs to open once the server listens (`port` 0 picks a free
    port); `timeout` (seconds, None = wait for ever) bounds the wait. `say` gives the page's
    answers in the command's language (`arbiter.i18n.error_text`; English by default), and
    `words` the page's own words in it (`language`: `page`).

    Raises:
        CalibrationError: the port cannot be opened, the wait timed out, or it was
            interrupted (Ctrl-C); the message says what to do instead.
    """
    state = _State(encode_jpeg(frame), int(frame.shape[1]), int(frame.shape[0]))
    try:
        server = ThreadingHTTPServer((host, port), _handler(state, say, page(words, language)))
    except OSError as exc:
        raise CalibrationError.of(
            said.PICKER_PORT, host=host, port=port, reason=reason_of(exc)
        ) from None
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1})
    thread.daemon = True
    thread.start()
    try:
        if announce is not None:
            announce(urls(host, int(server.server_address[1])))
        deadline = None if timeout is None else time.monotonic() + timeout
        while not state.done.wait(0.2):
            if deadline is not None and time.monotonic() > deadline:
                raise CalibrationError.of(said.PICKER_TIMEOUT, seconds=timeout)
    except KeyboardInterrupt:
        raise CalibrationError.of(said.PICKER_STOPPED) from None
    finally:
        server.shutdown()
        server.server_close()
    if state.corners is None:  # the event is set only after the corners are stored
        raise CalibrationError.of(said.PICKER_NO_CORNERS)
    return state.corners
