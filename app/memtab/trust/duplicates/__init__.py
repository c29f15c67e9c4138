"""Memories that say the same thing (`memtab duplicates`, docs/formats.md §19.5)."""
