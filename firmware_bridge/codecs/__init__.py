"""Sans-I/O codecs, one per e-board protocol: bytes in, events out, commands out as bytes."""
