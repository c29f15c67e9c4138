"""Labelled note pairs for `memtab contradictions` (issue 83): a rule said as a requirement
in the passive ("The legacy cron must be removed", "Lockfiles have to be committed", "API
docs are to be regenerated"), as "X has to go", or as a label's "X: fine", against the
rule denied; near misses: another thing's, another time's, a participle no rule's verb
("must be masked" states what is).

`REQUIRED` was written before the reader was changed for it; `REQUIRED_AFTER` after, never
tuned on.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
C, N = "contradiction", "neither"
REQUIRED: tuple[Case, ...] = (
    Case("required", "The legacy cron must be removed.", "Don't remove the legacy cron.", C,
         SAME),
    Case("required", "Lockfiles have to be committed.", "Never commit lockfiles.", C, TEAM),
    Case("required", "Debug logging should be dropped before release.",
         "Don't drop debug logging before release.", C, SAME),
    Case("required", "The old Dockerfile has to go.", "Never delete the old Dockerfile.", C,
         SAME),
    Case("required", "Commits straight to main: fine.", "Never commit straight to main.", C,
         CODEX),
    Case("required", "API docs are to be regenerated on release.",
         "Don't regenerate the API docs on release.", C, SAME),
    Case("required", "The legacy cron must be removed.",
         "Don't remove the nightly backup cron.", N, SAME),
    Case("required", "Lockfiles have to be committed.", "Never commit build artifacts.", N,
         SAME),
    Case("required", "The old Dockerfile has to go.", "Never delete the new Dockerfile.", N,
         SAME),
    Case("required", "Commits straight to main: fine.",
         "Never commit straight to release branches.", N, SAME),
    Case("required", "Secrets must be rotated quarterly.",
         "Never rotate secrets during a code freeze.", N, SAME),
)  # fmt: skip
REQUIRED_AFTER: tuple[Case, ...] = (
    Case("required", "Stale feature flags need to be deleted after launch.",
         "Don't delete stale feature flags after launch.", C, SAME),
    Case("required", "The staging seed script has to go.",
         "Never remove the staging seed script.", C, TEAM),
    Case("required", "Release tags must be signed.", "Don't sign release tags.", C, SAME),
    Case("required", "Merging your own PR: okay.", "Never merge your own PR.", C, CODEX),
    Case("required", "Release tags must be signed.", "Don't sign the nightly tags.", N, SAME),
    Case("required", "Stale feature flags need to be deleted after launch.",
         "Never delete feature flags before launch.", N, SAME),
    Case("required", "Card numbers must be masked in logs.",
         "Never mask card numbers in the admin UI.", N, SAME),
    Case("required", "The old API client should be replaced.",
         "Don't replace the new API client.", N, SAME),
)  # fmt: skip
