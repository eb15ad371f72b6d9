"""Bluetooth LE boards: a small seam between the transport and the radio.

`BleTransport` (`transport.py`) is the board loop of `firmware_bridge.transport` over a
`BleConnection`; a `BleCentral` finds peripherals and connects to them (`central.py`). Two
centrals exist: `BleakCentral` (`bleak_central.py`, the `ble` extra, imported only when a real
address is opened or scanned) and `FakeCentral` (`fake.py`), whose `FakePeripheral`s are
shipped in the package, as gpiozero ships its mock pins, so that tests and `arbiter demo`
run without a radio. Each board's GATT layout is a `BleProfile` (`profiles.py`).
"""
