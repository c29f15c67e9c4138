"""Labelled note pairs for `memtab contradictions` (issue 83): a cron schedule written two
ways is one value (`0 9 * * *` / `0 09 * * *`, `@daily` / `0 0 * * *`, `MON-FRI` / `1-5`,
`*/15` / `0,15,30,45`); two schedules that fire at other times disagree (`1-5` / `*`).

`SCHEDULES` was written before the reader was changed for it; `SCHEDULES_AFTER` after,
never tuned on.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
C, N = "contradiction", "neither"
SCHEDULES: tuple[Case, ...] = (
    Case("schedule", "Digest emails go out on `0 9 * * 1-5`.",
         "Digest emails go out on `0 9 * * *`.", C, SAME),
    Case("schedule", "Backups run `@weekly`.", "Backups run `@daily`.", C, SAME),
    Case("schedule", "Cache warmup: `*/10 * * * *`", "Cache warmup: `*/15 * * * *`", C, TEAM),
    Case("schedule", "The report job's cron is `0 6 * * MON`.",
         "The report job's cron is `0 6 * * 2`.", C, SAME),
    Case("schedule", "The nightly export runs at `0 2 * * *`.",
         "The nightly export runs at `30 2 * * *`.", C, CODEX),
    Case("schedule", "The nightly backup runs at `0 9 * * *`.",
         "The nightly backup runs at `0 09 * * *`.", N, SAME),
    Case("schedule", "Backups: `@daily`", "Backups: `0 0 * * *`", N, SAME),
    Case("schedule", "Digest cron: `0 9 * * MON-FRI`", "Digest cron: `0 9 * * 1-5`", N, TEAM),
    Case("schedule", "Cache warmup: `*/15 * * * *`", "Cache warmup: `0,15,30,45 * * * *`", N,
         SAME),
    Case("schedule", "Reports run `0 6 * * 0`.", "Reports run `0 6 * * sun`.", N, SAME),
    Case("schedule", "Log rotation: `@midnight`", "Log rotation: `0 0 * * *`", N, CODEX),
)  # fmt: skip
SCHEDULES_AFTER: tuple[Case, ...] = (
    Case("schedule", "Nightly vacuum: `0 3 * * *`", "Nightly vacuum: `00 03 * * *`", N, SAME),
    Case("schedule", "Invoices go out `0 0 1 * *`.", "Invoices go out `@monthly`.", N, SAME),
    Case("schedule", "Weekend cleanup: `0 4 * * sat,sun`", "Weekend cleanup: `0 4 * * 6,0`", N,
         TEAM),
    Case("schedule", "Weekend cleanup: `0 4 * * 6-7`", "Weekend cleanup: `0 4 * * SAT,SUN`", N,
         SAME),
    Case("schedule", "Quarterly audit: `0 0 1 */3 *`", "Quarterly audit: `0 0 1 1,4,7,10 *`", N,
         SAME),
    Case("schedule", "Standup reminder: `45 9 * * 1-5`", "Standup reminder: `45 9 * * 1-4`", C,
         SAME),
    Case("schedule", "The sitemap rebuilds `@hourly`.", "The sitemap rebuilds `*/30 * * * *`.",
         C, CODEX),
)  # fmt: skip
