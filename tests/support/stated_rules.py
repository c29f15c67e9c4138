"""Labelled note pairs for `memtab contradictions` (issue 83): a statement whose subject is
a noun that is also a verb ("Push triggers a deploy", "Merge queues rebase the branch"),
or a thing a `never`/`always` is said of ("Builds never run on forks"), read as what it is —
a statement of that thing, no imperative, and a rule of that thing, not of any.
Contradictions: a thing's rule against the same rule said as an imperative. Near misses: a
statement against a rule of its verb, a thing's rule against another thing's.

`STATED` was written before the reader was changed for it; `STATED_AFTER` after, never
tuned on.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
C, N = "contradiction", "neither"
STATED: tuple[Case, ...] = (
    Case("stated", "Push triggers a deploy to staging.", "Never push to staging.", N, SAME),
    Case("stated", "Merge requires two approvals.", "Don't merge without two approvals.", N,
         SAME),
    Case("stated", "Export jobs retry three times before paging.", "Never retry export jobs.",
         N, SAME),
    Case("stated", "Builds never run on forks.", "Always run the linters on forks.", N, SAME),
    Case("stated", "Deploys never happen on Fridays.", "Run the database migrations on Fridays.",
         N, TEAM),
    Case("stated", "semantic-release publishes the packages from tags.",
         "Never publish packages by hand.", N, SAME),
    Case("stated", "Release PRs target `stable`.", "Never target `stable` with a feature PR.",
         N, SAME),
    Case("stated", "Fixtures never hit the real API.", "Always hit the real API in fixtures.", C,
         SAME),
    Case("stated", "Webhooks never retry on a 4xx.", "Retry webhooks on a 4xx.", C, SAME),
    Case("stated", "Push tags to origin after the release.", "Never push tags to origin.", C,
         SAME),
    Case("stated", "Squash commits on merge.", "Never squash commits on merge.", C, CODEX),
)  # fmt: skip
STATED_AFTER: tuple[Case, ...] = (
    Case("stated", "Cache invalidates itself on deploy.", "Never invalidate the cache on deploy.",
         N, SAME),
    Case("stated", "Tag pushes publish the Docker images.", "Never publish the Docker images.", N,
         SAME),
    Case("stated", "Deploy pipelines never skip the smoke tests.",
         "Always skip the smoke tests for docs-only changes.", N, SAME),
    Case("stated", "Merge queues rebase the branch automatically.", "Never rebase the branch.", N,
         TEAM),
    Case("stated", "Upload streams the file to S3 directly.", "Never stream files to S3.", N,
         SAME),
    Case("stated", "Release builds never strip debug symbols.",
         "Strip debug symbols from release builds.", C, SAME),
    Case("stated", "Staging deploys always run the migrations.",
         "Never run the migrations on staging deploys.", C, CODEX),
)  # fmt: skip
