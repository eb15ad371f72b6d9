"""The arbiter around the rules core: live sessions, inputs, outputs, records and the CLI.

`rules` decides; this package wires sources of physical events to it and its rulings to
their sinks. Its groups, by job:

- `cli/`: the `arbiter` command, one module a sub-command (argument parsing, then one call);
- `live/`: the live session (`session.py`), its composition root (`setup.py`, the one place
  that picks the sources, sinks, display, page and broker of a game), settings (`config.py`)
  and typed commands;
- `inputs/`: sources of events (a stream file, the keyboard, GPIO, an e-board, a camera);
- `outputs/`: the terminal display, speech, and what a board shows (LEDs, a DGT 3000's times);
- `records/`: the journal (the single source of truth of a game), stream files, PGN;
- `web/`: the game's web page (arbiter's view, players' clock, teaching view);
- `hall/`: many boards over an MQTT broker: a board's publisher, the station, its page;
- `teach/`: touch-move drills for pupils; `demo/`: the bundled demo game and its boards;
- `simulate/`: a PGN game turned into the event stream a board would have reported;
- `clock.py` (the session's time base), `i18n.py` (the program's words in the user's
  language) and `errors.py` (the error tree).

Modules import one way (no circle: tests/test_architecture.py), and the heavy ones (the web
server, OpenCV, the broker's client) only when a command needs them.
"""
