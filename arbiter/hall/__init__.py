"""The hall: many boards, one arbiter's station, over an MQTT broker (issue 14, docs/hall.md).

Each board's session publishes its journal's events (and the rulings they gave) under its
own topic tree (`topics`, `publisher`); the station (`station`) replays every board's events
through the rules core, so it holds the same game as the board, raises alarms (`alarms`),
fills gaps by asking the board to resend from its journal, and sends arbiter actions back.
`pairings` reads a round's pairings and writes its results; `export` writes DGT LiveChess's
local export folder; `livechess` serves LiveChess's API (its eboards and WebSocket feed) from
the hall's page (`web`); `broker` runs an embedded broker for `arbiter hall --demo`; `board`
runs a board's game on a thread of the station's process, for `demo` (virtual boards) and
`local` (boards attached to this computer); `view` draws the hall on a terminal. paho-mqtt is
imported lazily.
"""
