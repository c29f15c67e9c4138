"""One memory across machines and teammates (docs/formats.md §18) — no Qt.

Sync over a git remote, through the `git` program the developer already has:

- `service.py`   `SyncService`: init, sync, status, conflicts — what the CLI and the
                 window call (from a worker: it blocks; progress and cancel callbacks,
                 results as records)
- `engine.py`    one sync of one target: export, fetch, merge, import, push
- `export.py`    this machine's changes as commits, one per change, from history
- `tree_merge.py`  two machines' files merged file by file (line by line for text)
- `meta_merge.py`  pins and usage merged by rule (counts added as deltas, pins a union)
- `scopes.py`    the synced scopes as this home holds them; writes go through MemoryStore
- `layout.py`    targets (`<home>/memtab/sync/config.json`) and the repository's layout
- `state.py`     a target's state: last reconciled commit, pending conflicts, baselines
- `resolve.py`   deciding a conflict: local, remote, both, or a merged text
- `git.py`, `objects.py`  running git (no shell, no prompt, time limits) and its objects

And the file-sync tools' conflict copies (`copies.py`; recognised by
`memtab.store.conflict_copies`, the one place): listing and resolving them.

Nothing here imports Qt, the GUI, the CLI or an engine (an import-linter contract).
"""
