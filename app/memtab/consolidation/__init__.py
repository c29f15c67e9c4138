"""Consolidation ("dream", SPEC §8): tidy a workspace's memory with a model or offline.

- `service.ConsolidationService.run` — one run: locks, debounce, provider, journal.
- `sweep.run_launch_sweep` — the launch sweep over every workspace.
- `runner` (the tool loop), `guard` (scope, pins, budget, dry run), `prompts`, `lock`.
- `offline` / `offline_plan` / `offline_edits` — the built-in consolidator (no model).
"""
