"""The bundled demo game (`game.py`) and the virtual boards it can be played on (`board.py`)."""

#: the `--board` values of `arbiter demo`
SIM_BOARDS = (
    "dgt-sim",
    "millennium-sim",
    "eone-sim",
    "certabo-sim",
    "pegasus-sim",
    "chessnut-sim",
    "chessnut-ble-sim",
    "millennium-ble-sim",
)
