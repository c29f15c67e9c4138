"""Memories in the wrong place, and secrets (`memtab leaks`, docs/formats.md §19.7)."""
