"""Computing what each agent would load and recall for a prompt (`memtab recall`, the window);
reads disk: never on the GUI thread."""

from __future__ import annotations

from collections.abc import Sequence

from memtab.loads.claude import auto_memory_folder
from memtab.loads.engine import FileIds, compute_loads, is_removed, working_directory
from memtab.loads.kept import KeptHeads
from memtab.loads.recall.claude import claude_recall
from memtab.loads.recall.codex import codex_recall
from memtab.loads.recall.gemini import gemini_recall
from memtab.loads.recall.records import AgentRecall, Recall, Unrecallable
from memtab.loads.recall.relevance import Prompt
from memtab.loads.recall.xum import xum_recall
from memtab.loads.records import AGENTS, AgentName
from memtab.sources.claude.settings import managed_settings_files
from memtab.sources.config import SourceContext
from memtab.sources.discovery import agent_directory, discover
from memtab.store.home import Home
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Registry, load_registry


def compute_recall(
    home: Home,
    prompt: str,
    *,
    workspace_id: str | None = None,
    directory: str | None = None,
    agents: Sequence[AgentName] = AGENTS,
    context: SourceContext | None = None,
    registry: Registry | None = None,
    now: int | None = None,
    kept: KeptHeads | None = None,
) -> Recall:
    """What `agents` would load and recall for `prompt` in `workspace_id` or `directory`, as
    `compute_loads` takes them; `kept`: an earlier computation's reads. HomeError."""
    kept = kept or KeptHeads()
    registry = registry or load_registry(home)
    workspace = registry.require_workspace(workspace_id) if workspace_id else None
    cwd = working_directory(workspace, directory)
    context = context or SourceContext.load(home, registry=registry)
    loads = compute_loads(
        home,
        workspace_id=workspace_id,
        directory=directory,
        agents=agents,
        context=context,
        registry=registry,
        now=now,
        kept=kept,
    )
    identify = FileIds(discover(context))

    words = Prompt(prompt)
    results: list[AgentRecall] = []
    never: list[Unrecallable] = []
    for agent_loads in loads.agents:
        if agent_loads.agent == "claude":
            config_root = agent_directory(context, "claude-code")
            memory = None
            if config_root is not None and cwd is not None:
                managed = () if context.isolated else managed_settings_files()
                memory = auto_memory_folder(
                    config_root, cwd, context.user_home, managed, context.env or {}, []
                )
            recall, unrecallable = claude_recall(
                words, agent_loads, memory, context.env or {}, identify, kept.topics
            )
        elif agent_loads.agent == "codex":
            codex_root = agent_directory(context, "codex")
            recall, unrecallable = codex_recall(words, agent_loads, codex_root, identify), []
        elif agent_loads.agent == "gemini":
            recall, unrecallable = gemini_recall(words, agent_loads, identify)
        else:
            view, removed = ScopeView(home, workspace), is_removed(home, workspace)
            recall, unrecallable = xum_recall(words, agent_loads, view, removed=removed, heads=kept)
        results.append(recall)
        never += unrecallable
    return Recall(
        prompt=prompt,
        agents=tuple(results),
        unrecallable=tuple(_as_found(never, results)),
        workspace=loads.workspace,
        directory=loads.directory,
    )


def _as_found(never: list[Unrecallable], results: list[AgentRecall]) -> list[Unrecallable]:
    """`never` with the verdict its agent gives each for this prompt, when its files list it:
    shown once, under its agent."""
    found = {
        (agent.agent, file.id or file.path): file.verdict
        for agent in results
        for file in agent.files
        if file.verdict != "loaded"
    }
    return [item.replaced(verdict=found.get((item.agent, item.id or item.path))) for item in never]
