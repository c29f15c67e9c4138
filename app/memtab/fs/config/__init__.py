"""Memtab's own settings: where its config dir is, and settings.json read and changed there."""
