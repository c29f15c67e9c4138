"""Safe file primitives every Memtab package shares, and nothing else.

`atomic` writes files crash-safely (temp file + fsync + rename). It imports nothing of
Memtab, so the store, the model providers, the engines and the GUI all use the same one.
"""
