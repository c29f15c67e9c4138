"""Codex as a source: where its memory is, what its summary must be, its extensions."""
