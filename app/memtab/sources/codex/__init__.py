"""Codex as a source: its memories directory and the notes Memtab adds to it."""
