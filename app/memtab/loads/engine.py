"""Computing what each agent loads for a workspace or a directory (`memtab loads`, the window);
reads disk: never on the GUI thread."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from memtab.file_protocol.file_ref import Agent
from memtab.fs.clock import now_ms
from memtab.humanize import display_path
from memtab.loads.claude import claude_loads
from memtab.loads.codex import codex_loads
from memtab.loads.gemini import gemini_loads
from memtab.loads.kept import KeptHeads
from memtab.loads.records import AGENTS, AgentLoads, AgentName, Loads
from memtab.loads.xum import xum_loads
from memtab.sources.claude.settings import managed_settings_files
from memtab.sources.config import DEFAULT_DIRS, SourceContext
from memtab.sources.discovery import agent_directory, discover
from memtab.sources.layouts import classify_file
from memtab.sources.model import Discovery, Source
from memtab.store.home import Home
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.meta import MetaStore
from memtab.store.sidecars.registry import Registry, Workspace, load_registry
from memtab.store.xum_locks import workspace_removed


def compute_loads(
    home: Home,
    *,
    workspace_id: str | None = None,
    directory: str | None = None,
    agents: Sequence[AgentName] = AGENTS,
    context: SourceContext | None = None,
    registry: Registry | None = None,
    now: int | None = None,
    subagent: str | None = None,
    kept: KeptHeads | None = None,
) -> Loads:
    """What `agents` read at a session's start in `workspace_id` or `directory` (neither: what
    every session reads). `subagent`: Claude Code's; `kept`: an earlier computation's reads.
    HomeError for an unknown workspace."""
    registry = registry or load_registry(home)
    workspace = registry.require_workspace(workspace_id) if workspace_id else None
    cwd = working_directory(workspace, directory)
    context = context or SourceContext.load(home, registry=registry)
    if kept is not None:
        kept.begin()
    discovery = discover(context)

    def identify(path: str | Path) -> str | None:
        return file_id(discovery, path)

    results: list[AgentLoads] = []
    for agent in agents:
        if agent == "claude":
            results.append(
                claude_loads(
                    config_root=agent_directory(context, "claude-code"),
                    cwd=cwd,
                    user_home=context.user_home,
                    managed_settings=() if context.isolated else managed_settings_files(),
                    identify=identify,
                    subagent=subagent,
                    env=context.env,
                    topic_heads=kept.topics if kept is not None else None,
                )
            )
        elif agent == "codex":
            codex_root = agent_directory(context, "codex")
            results.append(codex_loads(codex_root=codex_root, cwd=cwd, identify=identify))
        elif agent == "gemini":
            results.append(
                gemini_loads(
                    gemini_dir=agent_directory(context, "gemini"),
                    cwd=cwd,
                    identify=identify,
                    env=context.env,
                    system_settings=not context.isolated,
                )
            )
        else:
            view = ScopeView(home, workspace)
            meta = MetaStore(home).load()
            moment = now_ms() if now is None else now
            removed = is_removed(home, workspace)
            results.append(xum_loads(view, meta, moment, removed=removed, heads=kept))
    folders = {agent: agent_directory(context, source) for agent, source in AGENT_SOURCES.items()}
    return Loads(
        agents=tuple(named(result, cwd, folders.get(result.agent), home) for result in results),
        workspace=workspace.id if workspace else None,
        directory=str(cwd) if cwd else None,
    )


AGENT_SOURCES: dict[AgentName, Agent] = {
    "claude": "claude-code",
    "codex": "codex",
    "gemini": "gemini",
}
"""The agents whose files are in a folder of their own (xum's are its scopes')."""


def named(agent: AgentLoads, cwd: Path | None, folder: Path | None, home: Home) -> AgentLoads:
    """`agent`'s files each with the name its agent gives it (`./…`, `~/.claude/…`)."""
    if agent.agent not in AGENT_SOURCES:
        return agent
    shown = None
    if folder is not None:
        inside_home = folder.is_relative_to(Path(os.path.realpath(home.root)))
        default = "~/" + DEFAULT_DIRS[AGENT_SOURCES[agent.agent]][0]
        shown = default if inside_home else display_path(folder)
    files = []
    for file in agent.files:
        name = _name(file.physical_path, cwd, folder, shown) if file.physical_path else None
        files.append(file.replaced(name=name) if name else file)
    return agent.replaced(files=tuple(files))


def _name(physical: str, cwd: Path | None, folder: Path | None, shown: str | None) -> str | None:
    path = Path(physical)
    if cwd is not None and path.is_relative_to(cwd):
        return f"./{path.relative_to(cwd).as_posix()}"
    if folder is not None and shown is not None and path.is_relative_to(folder):
        return f"{shown}/{path.relative_to(folder).as_posix()}"
    return None


def is_removed(home: Home, workspace: Workspace | None) -> bool:
    """Whether xum removed `workspace` (or the notebook it shares)."""
    return workspace is not None and any(
        workspace_removed(home, ws) for ws in {workspace.id, workspace.notebook_id}
    )


def working_directory(workspace: Workspace | None, directory: str | None) -> Path | None:
    if directory:
        return Path(os.path.abspath(os.path.expanduser(directory)))
    if workspace is None:
        return None
    for candidate in (workspace.path, workspace.project_identity):
        if candidate and os.path.isdir(candidate):
            return Path(candidate)
    return None


def file_id(discovery: Discovery, path: str | Path) -> str | None:
    """The id of `path` in a source holding it by its layout (deepest root first), or None."""
    return FileIds(discovery)(path)


class FileIds:
    """`file_id` for many files, the sources of a folder found once."""

    def __init__(self, discovery: Discovery) -> None:
        self._sources = discovery.sources
        self._holders: dict[str, list[tuple[Source, tuple[str, ...]]]] = {}
        """The sources that may hold a folder's files, deepest root first, with its path in each."""

    def __call__(self, path: str | Path) -> str | None:
        parent, name = os.path.split(os.fspath(path))
        holders = self._holders.get(parent)
        if holders is None:
            folder = Path(parent)
            holders = [
                (source, folder.relative_to(source.root).parts)
                for source in sorted(
                    (s for s in self._sources if s.root == folder or s.root in folder.parents),
                    key=lambda s: -len(s.root.parts),
                )
            ]
            self._holders[parent] = holders
        for source, inside in holders:
            segments = (*inside, name)
            if classify_file(source, segments) is not None:
                return source.file_id("/".join(segments))
        return None
