"""Real Mosquitto brokers and a cuttable network link, started by the hall's tests and benches.

A test that needs a broker fails when `mosquitto` is missing under CI (`CI` set: `.ci/run`
installs it), and is skipped with the reason elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path


def mosquitto_path() -> str | None:
    for candidate in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


class Mosquitto:
    """A Mosquitto broker on a free local port, with its config in `folder`; `kill` and
    `start` again on the same port (a broker that crashed and came back, memory lost)."""

    def __init__(self, folder: Path, extra: str = "", port: int | None = None) -> None:
        binary = mosquitto_path()
        if binary is None:
            raise RuntimeError("mosquitto is not installed (apt-get install mosquitto)")
        self.binary = binary
        self.port = port or free_port()
        self.folder = folder
        self.config = folder / f"mosquitto-{self.port}.conf"
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            f"max_queued_messages 100000\n{extra}",
            encoding="utf-8",
        )
        self.log = folder / f"mosquitto-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Mosquitto:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [self.binary, "-c", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        wait_port(self.port)
        return self

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=5)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None


class CuttableLink:
    """A TCP relay from a local port to the broker, whose cable can be pulled (`cut`: every
    connection closed and new ones refused) and plugged in again (`mend`)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = int(self.server.getsockname()[1])
        self.up = True
        self.closed = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                conn.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                conn.close()
                continue
            with self._lock:
                self._sockets += [conn, upstream]
            threading.Thread(target=self._pipe, args=(conn, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, conn), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def cut(self) -> None:
        self.up = False
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def mend(self) -> None:
        self.up = True

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.server.close()
