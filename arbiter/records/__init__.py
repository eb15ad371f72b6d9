"""The records of a game: the journal (its single source of truth), stream files and PGN."""
