"""Safe file primitives every Memtab package shares, and the clock; imports nothing else of
Memtab."""
