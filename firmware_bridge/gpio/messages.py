"""What the GPIO pin map, the reed matrix's settings and the Pi's GPIO library say to a user,
as templates of `ArbiterError.of`.

`firmware_bridge` has no catalogue of its own and imports nothing of `arbiter`: the
`arbiter` command says these in the user's language, its catalogue marking the same English
again (`arbiter/i18n.py` DEVICE_ERRORS; tests/i18n checks the lists agree). `{where}` is the
config file and its table (`club.toml [gpio.pins]`); the settings' names and values, in
quotes, are the config file's and stay as typed.
"""

from __future__ import annotations

from rules.i18n import Word

# ------------------------------------------------------------------ [gpio.pins]: the pin map
MATRIX_LENGTH = "{where}: {key!r} needs 8 GPIOs (or none), not {count}"
MATRIX_BOTH = "{where}: 'matrix_rows' and 'matrix_cols' must both be set or empty"
NOT_BCM = "{where}: {use!r} must be a BCM number, not {number!r}"
NO_SUCH_GPIO = "{where}: {use!r} = {number}: header GPIOs are BCM {first}–{last}"
GPIO_TWICE = "{where}: GPIO {number} is given to both {first!r} and {second!r}"
PINS_NOT_TABLE = "{where} must be a table of pin names, not {kind}"
UNKNOWN_PIN = "{where}: unknown pin name {key!r}; known names: {known}"
MATRIX_NOT_LIST = "{where}: {key!r} must be a list of 8 BCM numbers"
NOT_TOML = "{path}: not valid TOML ({reason})"
GPIO_NOT_TABLE = "{where}: [gpio] must be a table"
NO_MATRIX = (
    "a reed-switch board needs 'matrix_rows' and 'matrix_cols' in [gpio.pins]; "
    "the pin map has none"
)

# ------------------------------------------------------------- [gpio.matrix]: the reed matrix
NOT_TABLE = "{where} must be a table"
UNKNOWN_SETTING = "{where}: unknown setting {key!r}; known settings: {known}"
BAD_A1_CORNER = "{where}: 'a1_corner' = {value!r}; choose one of {choices}"
BAD_SCAN_HZ = "{where}: 'scan_hz' = {value!r}; it must be a number, 50 or more"
BAD_STABLE_SCANS = "{where}: 'stable_scans' = {value!r}; it must be 1 to 10"
BAD_IDLE_ROWS = "{where}: 'idle_rows' = {value!r}; 'float' or 'high'"

# --------------------------------------------------------------------- the Pi's GPIO library
RPI_MISSING = (
    "RPi.GPIO is not installed: pip install 'otb-arbiter[pi]'; "
    "on a Raspberry Pi 5 install rpi-lgpio"
)
RPI_CANNOT_RUN = "RPi.GPIO cannot run here: {reason}"
RPI_FAILED = (
    "RPi.GPIO could not {what} GPIO {number} ({name!r}): {reason}; is the user in the 'gpio' "
    "group? On Raspberry Pi OS Bookworm or a Pi 5, replace RPi.GPIO with rpi-lgpio"
)
#: what RPi.GPIO could not do (`RPI_FAILED`'s `{what}`)
RPI_SET_UP = Word("set up")
RPI_WATCH = Word("watch edges on")
