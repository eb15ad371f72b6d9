"""The sensor kinds `arbiter simulate` can imitate, and the `start` settings each one declares.

The values are those events.md ("Sensor settings", "Values to start from") gives for real
hardware, so a simulated stream exercises the rules core as that hardware would:

- ``identity``: a DGT-like board that knows each piece (scans every 200-250 ms):
  ``noise_s`` 0.3, ``slide_s`` 0.3, ``latency_s`` 0.3; `lift`/`place` carry `piece`.
- ``occupancy``: a reed-switch matrix scanned at 50 Hz: ``noise_s`` 0.05, the other defaults;
  `lift`/`place` carry no piece, and an under-promotion needs a `promote` event (events.md).
  It sees a capture only as the square going empty and full again, more than ``noise_s`` apart.
- ``snapshot``: a board that reports the whole board on every change (Millennium-like,
  report-on-change mode): the defaults; pieces written by kind.
- ``snapshot-colour``: a colour-only camera: ``slide_s`` 0, ``latency_s`` 1.0, ``max_plies`` 4;
  one `snapshot` per still scene (after the hand has gone), pieces written ``X``/``x``.

These boards have clocks, so ``auto_press`` stays false and every move ends with its player's
`press` (FIDE 6.2.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.errors import SimulateError
from rules.i18n import N_


@dataclass(frozen=True, slots=True)
class SensorKind:
    """How one kind of source reports a game, and the settings it puts in `start`."""

    name: str
    noise_s: float
    slide_s: float
    latency_s: float
    max_plies: int
    #: "squares": one lift/place a change; "changes": a whole-board snapshot a change;
    #: "still": one snapshot a move, once the hand has left the board (a camera)
    reports: str
    #: True when the source tells the kind of piece (no `promote` event is needed)
    knows_kind: bool
    #: True when a piece put straight onto an occupied square shows (a board that knows the
    #: pieces sees the kind change; a camera sees the still scene); a reed matrix cannot see it
    sees_replacement: bool


SENSORS: dict[str, SensorKind] = {
    "identity": SensorKind("identity", 0.3, 0.3, 0.3, 2, "squares", True, True),
    "occupancy": SensorKind("occupancy", 0.05, 0.25, 0.0, 2, "squares", False, False),
    "snapshot": SensorKind("snapshot", 0.1, 0.25, 0.0, 2, "changes", True, True),
    "snapshot-colour": SensorKind("snapshot-colour", 0.1, 0.0, 1.0, 4, "still", False, True),
}


def sensor_kind(name: str) -> SensorKind:
    """The sensor kind called `name`.

    Raises:
        SimulateError: naming the unknown sensor and the known ones.
    """
    try:
        return SENSORS[name]
    except KeyError:
        known = ", ".join(SENSORS)
        raise SimulateError.of(
            N_("unknown --sensor {name!r}: choose one of {known}"), name=name, known=known
        ) from None
