"""The clock panel on the Pi's GPIO (buttons, LEDs, buzzer, a reed-switch board) as a source."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from arbiter.clock import Clock
from arbiter.inputs.base import Emit, Source, SourceFailed
from rules.errors import ArbiterError
from rules.i18n import N_

if TYPE_CHECKING:
    from firmware_bridge.gpio.base import Pins
    from firmware_bridge.gpio.panel import ClockPanel
    from firmware_bridge.gpio.pins import MatrixSettings, PinMap
    from firmware_bridge.gpio.reed_matrix import ReedMatrixSource
    from rules.rulings import Ruling
    from rules.supervision import PanelMode


class GpioSource(Source):
    """The clock panel on GPIO (firmware_bridge.gpio): buttons in, LEDs and buzzer out.

    The panel's buttons stamp each press at the interrupt with the back-end's monotonic
    clock; `origin` (the monotonic time of the stream's t=0) turns it into `t`. The panel's
    outputs follow the rulings under FIDE 12.6 (`rules.supervision`): the
    session calls `follow` with every step's rulings and `update` when `next_due` says.
    """

    def __init__(
        self,
        backend: str,
        pin_map: PinMap | None = None,
        mode: PanelMode | None = None,
        pins: Pins | None = None,
        matrix: MatrixSettings | None = None,
    ) -> None:
        self.backend = backend
        self.name = f"gpio:{backend}" + ("+matrix" if matrix is not None else "")
        self.pin_map = pin_map
        self.mode = mode
        if pins is None:  # now, so that a Pi without RPi.GPIO fails before a game begins
            from firmware_bridge.gpio.base import open_pins

            pins = open_pins(backend)
        self.pins: Pins = pins
        from firmware_bridge.gpio.panel import ClockPanel
        from firmware_bridge.gpio.pins import DEFAULT_PINS
        from rules.supervision import DEFAULT_MODE

        # the pins are claimed now too: a GPIO given twice fails before a game begins
        self.panel: ClockPanel | None = ClockPanel(
            pins, self._forward, pin_map or DEFAULT_PINS, mode=mode or DEFAULT_MODE
        )
        self._emit: Emit | None = None
        self._clock: Clock | None = None
        # a reed-switch board on the same pins, only when the config has [gpio.matrix]
        self.reed: ReedMatrixSource | None = None
        if matrix is not None:
            from firmware_bridge.gpio.pins import open_matrix_source

            self.reed = open_matrix_source(pins, pin_map or DEFAULT_PINS, matrix)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start_settings(self) -> dict[str, float]:
        """The reed board's sensor settings for the `start` (none without a board)."""
        return dict(self.reed.sensor_settings) if self.reed is not None else {}

    def _forward(self, item: Any) -> None:
        emit = self._emit
        if emit is not None:  # a press before the game began is nobody's move
            emit(item)

    def start(self, emit: Emit, clock: Clock) -> None:
        self._clock = clock
        if self.panel is not None:
            for button in self.panel.buttons:
                button.origin = clock.mono(0.0)  # edge times minus it are stream times
        self._emit = emit
        if self.reed is not None:
            self.reed.origin = clock.mono(0.0)
            self._thread = threading.Thread(
                target=self._scan, args=(clock,), name="reed-matrix", daemon=True
            )
            self._thread.start()

    def _scan(self, clock: Clock) -> None:
        """Scan the reed board at its rate (50 Hz) and send what the scans confirm."""
        reed = self.reed
        assert reed is not None
        try:
            while not self._stop.is_set():
                now = clock.mono(clock.now())
                for event in reed.step(now):
                    self._forward(event)
                due = reed.next_due if reed.next_due is not None else now
                self._stop.wait(max(0.0, clock.real_delay(clock.stream(due) - clock.now())))
        except ArbiterError as exc:
            error = ArbiterError.of(
                N_("{source}: the reed-switch board: {error}"), source=self.name, error=exc
            )
            self._forward(SourceFailed(str(error), error))

    def follow(self, rulings: list[Ruling], t: float) -> None:
        if self.panel is not None and self._clock is not None:
            self.panel.follow(rulings, self._clock.mono(t))

    def begin(self, running: str | None, t: float, history: list[Ruling] | None = None) -> None:
        """Show the clock that runs as the game starts; on a resume, also what `history`
        left standing (a fallen flag), without replaying its beeps."""
        if self.panel is None or self._clock is None:
            return
        from dataclasses import replace

        from rules.supervision import indications

        self.panel.begin(running, self._clock.mono(t))
        if history:
            self.panel.state = replace(self.panel.state.after(history), news=())
            self.panel.show(indications(self.panel.state, self.panel.mode), self._clock.mono(t))

    def update(self, t: float) -> None:
        if self.panel is not None and self._clock is not None:
            self.panel.update(self._clock.mono(t))

    def next_due(self, t: float) -> float | None:
        """The stream time of the panel's next output change, or None."""
        if self.panel is None or self._clock is None:
            return None
        due = self.panel.next_due(self._clock.mono(t))
        return None if due is None else max(t, self._clock.stream(due))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        if self.panel is not None and self._clock is not None:
            self.panel.close(self._clock.mono(self._clock.now()))
        self.pins.close()
