"""File operations of the tree (`ops`: create, move, delete, pin → an `OpResult`) and their undo
(`undo`: how to take each back, from what history recorded)."""
