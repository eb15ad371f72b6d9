"""The hardware side: e-boards, their links, and the Raspberry Pi's pins, as sources of the
event contract (`rules.events`). It imports `rules` and nothing else of ours.

What it offers, bottom to top:

- `codecs/`: one sans-I/O codec per board protocol (DGT, Millennium, Certabo, Sentio,
  Chessnut, Pegasus, Revelation): bytes in, contract events out, commands out as bytes; no
  port, no thread, no clock of its own (`codecs.base.Codec`, its optional capabilities
  declared, not probed);
- `transport.py` (pyserial), `hid_transport.py` (USB HID), `ble/` (Bluetooth LE, a fake radio
  shipped for tests): a codec behind a link, stamped by an injected clock, surviving a pulled
  cable (`disconnected`/`reconnected` sensor events);
- `registry.py`: `--board PROTOCOL:DEVICE` and the codec of each protocol; `discovery.py`:
  the boards plugged in or in range (`arbiter boards`, `--board auto`);
- `source.py`: `BoardSource`, a board as a live session's source (one thread per board);
- `gpio/`: the Pi's clock buttons, LEDs and reed-switch matrix behind a seam, with a fake
  back-end shipped in the package (as gpiozero ships its mock pins);
- `capture.py` and `clock_timing.py`: raw captures of what a board sent, and their times;
- `sim/`, `virtual.py`, `testing.py`: each board's simulator, a virtual board on a
  pseudo-terminal, and the codecs' test kit;
- `errors.py`: the package's error tree (`BoardError` under the rules' `ArbiterError`).

Heavy or platform-only libraries (pyserial's ports, bleak, hidapi, RPi.GPIO) are imported
only where a link is opened.
"""
