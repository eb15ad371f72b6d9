"""`arbiter play --board gpio-matrix`: the reed-switch board on the Pi's GPIO (issue 5)."""

from __future__ import annotations

from arbiter.clock import FakeClock
from arbiter.inputs.board import BoardAdapter
from arbiter.inputs.gpio import GpioSource
from arbiter.live.config import Settings
from arbiter.live.setup import open_sources


def test_gpio_matrix_board_scans_the_reed_matrix_on_the_chosen_pins() -> None:
    settings = Settings(play={"board": "gpio-matrix", "gpio": "fake", "keyboard": False})
    sources, _ = open_sources(settings, FakeClock())
    gpio = [s for s in sources if isinstance(s, GpioSource)]
    assert len(gpio) == 1 and not any(isinstance(s, BoardAdapter) for s in sources)
    assert gpio[0].reed is not None
    assert gpio[0].name == "gpio:fake+matrix"
    for source in sources:
        source.close()


def test_without_gpio_matrix_the_matrix_lines_are_left_alone() -> None:
    settings = Settings(play={"gpio": "fake", "keyboard": False})
    sources, _ = open_sources(settings, FakeClock())
    gpio = [s for s in sources if isinstance(s, GpioSource)]
    assert gpio and gpio[0].reed is None
    for source in sources:
        source.close()
