"""A stand-in for hidapi's `hid` module (cython-hidapi 0.15) whose devices never open:
`open_path` raises what hidapi raises, `OSError('open failed')`, with no error number. See
README.md beside it."""

from __future__ import annotations

from typing import Any


def enumerate(vendor_id: int = 0, product_id: int = 0) -> list[dict[str, Any]]:
    return []


class device:
    def open_path(self, path: bytes) -> None:
        raise OSError("open failed")

    def open(self, vendor_id: int = 0, product_id: int = 0, serial_number: Any = None) -> None:
        raise OSError("open failed")

    def read(self, max_length: int, timeout_ms: int = 0) -> list[int]:
        raise ValueError("not open")

    def write(self, buff: Any) -> int:
        raise ValueError("not open")

    def close(self) -> None:
        pass
