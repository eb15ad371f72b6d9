"""Teaching: touch-move drills for pupils (`drills`, `arbiter teach`), drills on a board
(`on_board`), and the lessons a refusal gets in strict mode (`lessons`)."""
