"""Nothing is lost: every version of every memory file Memtab sees, and every run.

Everything lives under the home's `memtab/history/` (`Home.history_dir`), never inside a
memory scope:

- `blobs.py`     file contents, zlib-compressed, one file per sha256 (deduplicated)
- `packs.py`     many contents in one file, for a recording pass that copies thousands at once
- `jsonlines.py` append-only JSON-lines files under a cross-process lock; a torn or
                 corrupt line is skipped, never fatal; readers cache what they parsed
- `versions.py`  one index per scope: each line a `Version` (who changed which file how)
- `recorder.py`  what `MemoryStore` calls inside every change (never fails the change)
- `../catch_up/external.py` `record_external`: changes Memtab did not make (mux, an editor), by stat
- `../restore/from_history.py` file history (following renames), restore, trash, revert of a run
- `runs.py`      Memtab's log of every run (consolidation, writer, sync, revert), and mux's runs
- `describe.py`  ops in words ("Combined a.md into b.md")
- `prune.py`     the size and age bounds (settings.json `history` section)

The modules are imported by their full names: `recorder`, `versions` and `blobs` are
what `memtab.store.scopes.memory` needs, and the others import `memtab.store.scopes.memory`.
"""
