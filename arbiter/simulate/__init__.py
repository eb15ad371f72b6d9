"""A PGN game turned into the event stream a board would have reported (`arbiter simulate`).

`simulate_game(game, sensor, seed)` is the entry point (`game.py`); `clock.py` plans the
times, `hands.py` the lifts and places, `ending.py` how the game ends, `sensors.py` the
sensor kinds, `pgn.py` reads the PGN file.
"""
