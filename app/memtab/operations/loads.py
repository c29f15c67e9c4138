"""View → What each agent loads, as an operation: what Claude Code, Codex and xum read at
a session's start, for the workspace the Memory tab shows (`memtab.loads`)."""

from __future__ import annotations

from collections.abc import Callable

from memtab.loads.records import Loads
from memtab.operations.job import JobContext
from memtab.sources.config import SourceContext
from memtab.store.home import Home

ContextLoader = Callable[[Home], SourceContext]
"""How the agents' settings are read (tests inject an agent machine's)."""


def agent_loads(
    home: Home, workspace_id: str | None, load_context: ContextLoader, _ctx: JobContext
) -> Loads:
    """What each agent loads in `workspace_id` (None: the default one)."""
    # lazy: the loads' engine (~0.1 MiB, 7 modules) on the lane, when the dialog opens
    from memtab.loads.engine import compute_loads

    return compute_loads(home, workspace_id=workspace_id, context=load_context(home))
