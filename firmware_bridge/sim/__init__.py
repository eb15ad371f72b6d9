"""Virtual boards: the board side of each protocol, for tests, benchmarks and demos."""
