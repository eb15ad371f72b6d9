"""The inputs of a live session: every `Source` (inputs.base) and the intents it may emit.

`stream` (a scripted file or standard input), `keyboard`, `gpio` (the clock panel and a
reed-switch board), `board` (an e-board) and `camera`. GPIO, serial and OpenCV are
imported lazily, by the source that needs them.
"""
