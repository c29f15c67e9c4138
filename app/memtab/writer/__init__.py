"""The background memory writer ("System 1", docs/formats.md §10). No Qt, no CLI.

- `config`: `WriterSettings` (timeout, target file, dumps, app mode) from settings.json.
- `state`: the scheduling state file `system1-memory-writer-state.json` (mux's shape).
- `policy`: `WriterScheduler`, every-N-turns with crash recovery, thread-safe.
- `run`: `run_writer`, one run (event budget, tools, two attempts, timeout) →
  `WriterRunResult`.
- `tools`: `memory_read` / `memory_write` (compare-and-swap) / `no_new_memories`.
- `offline`: `OfflineWriterProvider`, the built-in writer (default provider), given a
  run's events as data; it uses `extract` (what to remember: `commands`, `directives`,
  `answers`) and `notes` (merging it into Markdown, deduplicated), and by default puts its
  notes in `suggestions`, the review queue, instead of writing them.
- `providers`: the offline writer or an HTTP model for given provider settings, and
  `bind_to_run` (the offline writer's events and queue for one run).
- `dumps`: trace dumps of runs (written atomically, redacted, pruned).
- `monitor`: `TranscriptMonitor`, completed assistant turns appended to `chat.jsonl`.
- `service`: `WriterService`, what the app runs on its worker threads (monitor +
  scheduler + runs); `lock`: one Memtab process per home runs it.
- `traces`: reading dumps back (the Traces view).

Import from the submodules.
"""
