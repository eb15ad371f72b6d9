"""A live game: the session loop, the composition root that builds it, and its settings."""
