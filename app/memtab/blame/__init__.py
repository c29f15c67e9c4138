"""Blame: which change introduced each line of a memory file, and where it came from.

No Qt: the CLI (`memtab blame`) calls it, and a window calls it from a worker thread and
renders the records (docs/formats.md §20.2).

- `lines.py`        a text's lines as the editor counts them; which lines carry over
- `walk.py`         the version that introduced each line, over a file's versions
- `attribution.py`  who a version is: actor, run, op and reason, transcript messages
- `records.py`      the records and the `--json` contract
- `service.py`      blaming a mux file or another agent's file; the cache
"""
