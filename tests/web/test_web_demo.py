"""`arbiter demo` serves its page by default and prints its address; the page shows the
demo game live (issue 13: 'What it must show')."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def test_the_demo_prints_its_page_and_the_page_follows_the_game(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "arbiter.cli", "demo", "--speed", "40", "--plain",
               "--out", str(tmp_path), "--web", "127.0.0.1:0"]  # fmt: skip
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        text=True, cwd=tmp_path,
    )  # fmt: skip
    try:
        url = None
        assert proc.stdout is not None
        for _ in range(20):
            line = proc.stdout.readline()
            found = re.match(r"web page: (http://127\.0\.0\.1:\d+/)", line)
            if found:
                url = found.group(1)
                break
        assert url is not None, "the demo did not print its page's address"
        seen = []
        for _ in range(3):
            with urllib.request.urlopen(url + "api/state", timeout=5) as response:
                state = json.load(response)
            seen.append(sum(r["type"] == "move" for r in state["rulings"]))
            time.sleep(0.8)
        assert state["info"]["white"] == "MagnusCarlsen"
        assert seen[-1] > seen[0], f"the page did not follow the game: {seen}"
        with urllib.request.urlopen(url, timeout=5) as response:
            assert b"/static/app.js" in response.read()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "1-0 (checkmate)" in out and "Traceback" not in err


def test_no_web_serves_no_page(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter.cli", "demo", "--speed", "200", "--plain", "--no-web",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0 and "web page" not in done.stdout


def test_play_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    events = tmp_path / "start.jsonl"
    events.write_text('{"t": 0, "type": "start", "time_control": "60"}\n')
    try:
        done = subprocess.run(
            [sys.executable, "-m", "arbiter.cli", "play", "--events", str(events),
             "--no-keyboard", "--display", "plain", "--journal", str(tmp_path / "j.jsonl"),
             "--web", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path,
        )  # fmt: skip
    finally:
        taken.close()
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert not (tmp_path / "j.jsonl").exists()  # refused before the game began
