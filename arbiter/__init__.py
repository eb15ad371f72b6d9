"""The arbiter around the rules core: live sessions, inputs, outputs, records and the CLI.

`rules` decides; this package wires sources of physical events to it and its rulings to
their sinks. Its groups, top to bottom (each imports only those below it):

- `cli/`: the `arbiter` command, one module a sub-command (argument parsing, then one call);
- `demo/`: the bundled demo game and the virtual boards it can run on;
- `live/`: the live session (`session.py`), its composition root (`setup.py`) and settings
  (`config.py`);
- `inputs/`: sources of events (a stream file, the keyboard, GPIO, an e-board, a camera);
- `outputs/`: the terminal display and what a board shows (LEDs, a DGT 3000's times);
- `records/`: the journal (the single source of truth of a game), stream files, PGN;
- `simulate/`: a PGN game turned into the event stream a board would have reported;
- `clock.py` (the session's time base) and `errors.py` (the error tree).
"""
