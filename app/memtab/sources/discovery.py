"""Finding every agent's memory cheaply (stats and a few listings, never on the GUI thread)
from the known projects: mux's, Codex's, Claude Code's decoded and Gemini CLI's."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memtab.file_protocol.file_ref import Agent, source_id
from memtab.sources.claude.auto_memory_switch import auto_memory_switch
from memtab.sources.claude.memory_dir import MemoryStore, account_memory_directory
from memtab.sources.claude.settings import (
    local_auto_memory_directory,
    managed_settings_files,
    session_memory_stores,
)
from memtab.sources.claude.source import auto_memory_sources, claude_sources
from memtab.sources.codex.source import codex_projects, codex_sources
from memtab.sources.config import SourceContext
from memtab.sources.gemini.settings import SettingsReader
from memtab.sources.gemini.source import (
    MEMORY_DIR,
    TMP_DIR,
    GeminiProject,
    gemini_projects,
    gemini_sources,
    project_source,
)
from memtab.sources.layouts import WRITTEN_BY_LOKI
from memtab.sources.listing import list_source
from memtab.sources.model import Discovery, Layout, LookedFor, Opening, Source, SourceListing
from memtab.store.paths import project_dir_name
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, Registry

_CLAUDE_PROJECT_MARKERS = (
    "CLAUDE.md",
    ".claude/CLAUDE.md",
    "CLAUDE.local.md",
    ".claude/rules",
    ".claude/skills",
    ".claude/agent-memory",
    ".claude/agent-memory-local",
)
_CODEX_PROJECT_MARKERS = ("AGENTS.md", "AGENTS.override.md")


@dataclass(frozen=True)
class KnownProjects:
    """mux's projects in registry order, and every registered path → its project."""

    projects: tuple[str, ...] = ()
    project_of: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_registry(cls, registry: Registry | None) -> KnownProjects:
        if registry is None:
            return cls()
        projects = [p.path for p in registry.projects if p.path != MULTI_PROJECT_KEY]
        project_of = {path: path for path in projects}
        for workspace in registry.workspaces:
            identity = workspace.project_identity
            if identity and identity != MULTI_PROJECT_KEY and workspace.path:
                project_of.setdefault(workspace.path.rstrip("/"), identity)
        return cls(tuple(projects), project_of)


def discover(context: SourceContext) -> Discovery:
    """Every source that exists (none listed yet)."""
    looked: list[LookedFor] = []
    sources: list[Source] = []
    known = KnownProjects.from_registry(context.registry)

    claude_root = _agent_root(context, "claude-code", looked)
    codex_root = _agent_root(context, "codex", looked)
    codex_known = codex_projects(codex_root) if codex_root is not None else []
    claude_projects: list[str] = []
    stores: tuple[MemoryStore, ...] = ()
    if claude_root is not None and not context.isolated:
        stores = session_memory_stores(claude_root, context.env)
    if claude_root is not None:
        switch = auto_memory_switch(claude_root, context.env)
        off = switch.off_note if switch is not None and switch.state == "off" else None
        # Claude Code's names are matched against every project known so far.
        found, claude_projects = claude_sources(
            claude_root,
            [*known.project_of, *codex_known],
            known.project_of,
            probe=not context.isolated,
            # An isolated home (the demo, tests) reads nothing of this system's policies.
            managed_settings=() if context.isolated else managed_settings_files(),
            stores=stores,
            auto_memory_off=off,
        )
        sources.extend(found)
    if codex_root is not None:
        sources.extend(codex_sources(codex_root))
    gemini_root = _agent_root(context, "gemini", looked)
    gemini = gemini_reader(context, gemini_root)
    found_gemini = gemini_projects(gemini_root) if gemini_root is not None else []
    if gemini_root is not None and gemini is not None:
        sources.extend(gemini_sources(gemini_root, gemini.settings().context_names, found_gemini))

    projects = [
        project
        for project in _unique(
            [*known.projects, *codex_known, *claude_projects, *(p.path for p in found_gemini)]
        )
        if context.allows_project(project)
    ]
    enabled = {agent: context.agent_settings(agent).enabled for agent in ("claude-code", "codex")}
    for project in projects:
        sources.extend(_project_sources(context, project, enabled, stores, gemini))
    if context.agent_settings("loki").enabled:
        found_loki = any(s.agent == "loki" for s in sources)
        looked.append(
            LookedFor(agent="loki", path="<project>/.loki/memory", found=found_loki, how="projects")
        )
    sources.extend(_loki_dirs(context, sources, looked))
    openings = _openings(context, claude_root, codex_root, known.projects, sources)
    if gemini_root is not None and gemini is not None:
        openings += _gemini_openings(context, gemini_root, gemini, found_gemini, known.projects)
    return Discovery(tuple(sources), tuple(looked), openings)


def scan(context: SourceContext, *, whole: bool = False) -> tuple[Discovery, list[SourceListing]]:
    """Discover and list every source (`whole`: every file, none described); Claude Code's
    directories without a memory file are left out."""
    discovery = discover(context)
    if whole:
        listings = [list_source(s, limit=None, described=False) for s in discovery.sources]
    else:
        listings = [list_source(source) for source in discovery.sources]
    return discovery, [listing for listing in listings if is_shown(listing)]


def is_shown(listing: SourceListing) -> bool:
    """Whether a listing is shown (not a Claude Code directory of transcripts only)."""
    return bool(listing.files or listing.error or listing.source.layout is not Layout.CLAUDE_MEMORY)


def agent_directory(context: SourceContext, agent: Agent) -> Path | None:
    """The directory of `agent` discovery uses (the first existing candidate), or None."""
    return _agent_root(context, agent, [])


def _agent_root(context: SourceContext, agent: Agent, looked: list[LookedFor]) -> Path | None:
    """The first existing candidate directory of `agent`, recording every one looked at."""
    candidates = context.candidates(agent)
    if not candidates:
        reason = "turned off" if not context.agent_settings(agent).enabled else "not looked for"
        looked.append(LookedFor(agent=agent, path="", found=False, how="settings", note=reason))
        return None
    chosen: Path | None = None
    for candidate in candidates:
        exists = candidate.path.is_dir()
        note = None
        if exists and chosen is not None:
            note = "also exists; not shown (choose it with a path in the settings)"
        looked.append(
            LookedFor(
                agent=agent, path=str(candidate.path), found=exists, how=candidate.how, note=note
            )
        )
        if exists and chosen is None:
            chosen = Path(os.path.realpath(candidate.path))
    return chosen


def gemini_reader(context: SourceContext, gemini_root: Path | None) -> SettingsReader | None:
    """Gemini CLI's settings (None: not found or off); an isolated home reads no system's."""
    if gemini_root is None:
        return None
    return SettingsReader(gemini_root, context.env, system=not context.isolated)


def _project_sources(
    context: SourceContext,
    project: str,
    enabled: dict[str, bool],
    stores: tuple[MemoryStore, ...],
    gemini: SettingsReader | None,
) -> Iterable[Source]:
    if not os.path.isdir(project):  # one stat for the many places an agent once ran
        return
    root = Path(project)
    slug = project_dir_name(project)

    def instructions(agent: Agent, layout: Layout, label: str) -> Source:
        return Source(source_id(agent, f"project-{slug}"), agent, layout, root, label, project)

    if enabled["claude-code"] and _any_exists(project, _CLAUDE_PROJECT_MARKERS):
        yield instructions("claude-code", Layout.CLAUDE_PROJECT, "Claude Code instructions")
    moved = local_auto_memory_directory(project) if enabled["claude-code"] else None
    if moved is not None:
        note = f"This project's auto memory: {moved.how}"
        yield from auto_memory_sources(
            f"auto-memory-project-{slug}", moved.path, note, project, stores
        )
    if enabled["codex"] and _any_exists(project, _CODEX_PROJECT_MARKERS):
        yield instructions("codex", Layout.CODEX_PROJECT, "Codex AGENTS.md")
    if gemini is not None:
        names = gemini.settings(root).context_names
        if _any_exists(project, names):
            yield project_source(project, slug, names)
    loki = root / ".loki" / "memory"
    if context.agent_settings("loki").enabled and loki.is_dir():
        yield _loki_source(f"project-{slug}", loki, project)


def _loki_dirs(
    context: SourceContext, sources: list[Source], looked: list[LookedFor]
) -> Iterable[Source]:
    """loki-mode directories named by the settings or `$LOKI_DIR` (a `.loki` dir)."""
    if not context.agent_settings("loki").enabled:
        looked.append(
            LookedFor(agent="loki", path="", found=False, how="settings", note="turned off")
        )
        return
    taken = {os.path.realpath(s.root) for s in sources if s.agent == "loki"}
    for candidate in context.candidates("loki"):
        memory = candidate.path / "memory"
        exists = memory.is_dir()
        looked.append(LookedFor(agent="loki", path=str(memory), found=exists, how=candidate.how))
        real = os.path.realpath(memory)
        if exists and real not in taken:
            taken.add(real)
            name = "dir" if candidate.how == "LOKI_DIR" else "configured"
            yield _loki_source(name, Path(real), None)


def _loki_source(name: str, root: Path, project: str | None) -> Source:
    return Source(
        id=source_id("loki", name),
        agent="loki",
        layout=Layout.LOKI,
        root=root,
        label="loki-mode memory",
        project=project,
        read_only_reason=WRITTEN_BY_LOKI,
    )


def _openings(
    context: SourceContext,
    claude_root: Path | None,
    codex_root: Path | None,
    registered: Iterable[str],
    sources: Iterable[Source],
) -> tuple[Opening, ...]:
    """Where a source not found now may appear while the window runs: the agents' directories
    and the known projects, never every place an agent once ran."""
    openings: list[Opening] = []
    if claude_root is not None:
        account = account_memory_directory(claude_root)
        openings.append(Opening(claude_root, frozenset({"projects", "agent-memory", "memory"})))
        openings.append(Opening(claude_root / "projects"))  # a project's first session
        openings.append(Opening(account.parent, frozenset({account.name})))
    if codex_root is not None:
        openings.append(Opening(codex_root, frozenset({"memories", "memories_extensions"})))
    instructed = (s.project for s in sources if s.project and s.root == Path(s.project))
    for project in sorted({*registered, *instructed}):
        if not context.allows_project(project) or not os.path.isdir(project):
            continue
        for directory, names in _PROJECT_OPENINGS.items():
            openings.append(Opening(Path(project, directory), names))
    for candidate in context.candidates("loki"):
        openings.append(Opening(candidate.path, frozenset({"memory"})))
    return tuple(openings)


def _gemini_openings(
    context: SourceContext,
    gemini_root: Path,
    gemini: SettingsReader,
    found: Iterable[GeminiProject],
    registered: Iterable[str],
) -> tuple[Opening, ...]:
    """Where Gemini CLI's memory may appear while the window runs."""
    found = tuple(found)
    temp = gemini_root / TMP_DIR
    openings = [Opening(gemini_root, frozenset({TMP_DIR})), Opening(temp)]
    openings += [Opening(temp / p.project_id, frozenset({MEMORY_DIR})) for p in found]
    # The names the user's settings give (a project's own are read once it has a file).
    names = frozenset(n for n in gemini.settings().context_names if "/" not in n)
    projects = _unique([*registered, *(p.path for p in found)])
    openings += [Opening(Path(p), names) for p in projects if context.allows_project(p)]
    return tuple(openings)


def _project_openings() -> dict[str, frozenset[str]]:
    """Per folder of a project, the names its markers and loki-mode's memory start with."""
    names: dict[str, set[str]] = {"": set(), ".loki": {"memory"}}
    for marker in (*_CLAUDE_PROJECT_MARKERS, *_CODEX_PROJECT_MARKERS, ".loki/memory"):
        *folders, _ = marker.split("/")
        names[""].add(marker.split("/")[0])
        if folders:
            names.setdefault("/".join(folders), set()).add(marker.split("/")[-1])
    return {folder: frozenset(found) for folder, found in names.items()}


_PROJECT_OPENINGS = _project_openings()


def _any_exists(root: str, relatives: Iterable[str]) -> bool:
    return any(os.path.lexists(os.path.join(root, relative)) for relative in relatives)


def _unique(paths: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    unique: list[str] = []
    for path in paths:
        normalized = path.rstrip("/") or "/"
        if normalized not in seen and os.path.isabs(normalized):
            seen.add(normalized)
            unique.append(normalized)
    return unique
