"""View → What each agent loads and What each agent recalls, as jobs: what Claude
Code, Codex, xum and Gemini CLI read at a session's start, and what each would recall for a
prompt, for the workspace the Memory tab shows (`memtab.loads`, `memtab.loads.recall`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memtab.components.jobs import JobContext
from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.settings import resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.loads.recall.asking import ask_model
from memtab.loads.recall.records import Recall
from memtab.loads.records import Loads
from memtab.sources.config import SourceContext
from memtab.store.home import Home

if TYPE_CHECKING:  # lazy: the engines load on the lane, when a dialog first asks
    from memtab.loads.kept import KeptHeads

ContextLoader = Callable[[Home], SourceContext]
"""How the agents' settings are read (tests inject an agent machine's)."""


def agent_loads(
    home: Home,
    workspace_id: str | None,
    load_context: ContextLoader,
    kept: KeptHeads | None,
    _ctx: JobContext,
) -> Loads:
    """What each agent loads in `workspace_id` (None: the default one); `kept`: what the
    window's earlier asks read (one lane's: never two jobs at once)."""
    # lazy: the loads' engine (~0.1 MiB, 7 modules) on the lane, when the dialog opens
    from memtab.loads.engine import compute_loads

    return compute_loads(home, workspace_id=workspace_id, context=load_context(home), kept=kept)


def agent_recall(
    home: Home,
    workspace_id: str | None,
    load_context: ContextLoader,
    kept: KeptHeads | None,
    prompt: str,
    _ctx: JobContext,
) -> Recall:
    """What each agent loads and would recall for `prompt` in `workspace_id` (None: the
    default one), reading again only what changed since `kept` saw it."""
    # lazy: the recall's engine and its stemmer, on the lane, when the dialog first asks
    from memtab.loads.recall.engine import compute_recall

    return compute_recall(
        home, prompt, workspace_id=workspace_id, context=load_context(home), kept=kept
    )


def model_recall(recall: Recall, ctx: JobContext) -> Recall:
    """`recall` with what the configured model picks, asked as each agent asks its own
    (Claude Code's selection request; `loads.recall.asking`), or a note on Claude Code's
    saying why no model was asked (none configured, the settings unreadable). A call
    under way ends within about a second of the job's cancel."""
    try:
        return ask_model(recall, resolve_provider_settings(), cancel=ctx.cancel_event)
    except (SettingsFileError, ProviderError) as error:
        note = f"No model asked: {error}"
    agents = tuple(
        agent.replaced(notes=(*agent.notes, note)) if agent.agent == "claude" else agent
        for agent in recall.agents
    )
    return recall.replaced(agents=agents)
