"""Consolidation ("dream", docs/formats.md §9): tidy a workspace's memory with a model or offline.

- `service.ConsolidationService.run` — one run: locks, debounce, provider, journal; its
  run-time half (what imports the engine) is `running`, what the window keeps of it
  (which runs are reserved in this process) `reservations`.
- `sweep.run_launch_sweep` — the launch sweep over every workspace.
- `runner` (the tool loop), `guard` (scope, pins, budget, dry run), `prompts`, `lock`.
- `offline` — the built-in consolidator (no model): `inputs` (the store's files as
  data), `units`, `combine`, `plan`, `describe`,
  `edits` (one tool call per changed file).
"""
