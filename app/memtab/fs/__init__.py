"""Safe file primitives every Memtab package shares, the clock, and nothing else.

`atomic` writes files crash-safely (temp file + fsync + rename), `confined` works inside
a directory tree without following symlinks, `locks` keeps processes apart, `jsonfile`
reads JSON tolerantly and `sidecar` builds the one read-modify-write of JSON files others
write too on them; `clock` is the epoch-milliseconds "now" every record is stamped with.
Nothing here imports the rest of Memtab, so the store, the model providers, the engines
and the GUI all use the same ones.
"""
