"""What a live game shows: the terminal display, and what a board shows (board_feedback)."""
