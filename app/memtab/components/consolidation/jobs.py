"""Consolidation's jobs in the window beside its runs (those are `consolidation/job.py`'s): the
declines of earlier reviews forgotten (`forget_declined`)."""

from __future__ import annotations

from memtab.components.jobs import JobContext


def forget_declined(home_root: str, workspace_id: str, _ctx: JobContext) -> int:
    """Forget what earlier reviews of `workspace_id` declined; how many were forgotten."""
    # lazy: the engine's declines (~0.8 MiB, ~12 ms: the offline consolidator) only when asked
    from memtab.consolidation.declined import forget_workspace_declined

    return forget_workspace_declined(home_root, workspace_id)
