"""What Claude Code reads at a session's start (docs/formats.md §17.6): its instruction files,
auto memory's `MEMORY.md` up to its cut and the team mounts' prompt indexes; the topics it cannot
recall well listed `on demand`."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.readable import read_readable_path
from memtab.humanize import plural
from memtab.loads.measure import Identify, measured, named, on_demand, project_root, read_text
from memtab.loads.records import AgentLoads, LoadedFile
from memtab.loads.topics import Topic, TopicHeads, scan_topics
from memtab.sources.claude.auto_memory_switch import auto_memory_switch, local_settings_root
from memtab.sources.claude.index import INDEX_MAX_LINES, INDEX_MAX_UNITS, INDEX_NAME, index_cut
from memtab.sources.claude.instructions import instruction_files, instruction_mode
from memtab.sources.claude.memory_dir import TEAM_FOLDER
from memtab.sources.claude.recall import (
    HOW_TOPICS_ARE_RECALLED,
    NO_DESCRIPTION,
    RECALL_CANDIDATES,
)
from memtab.sources.claude.settings import auto_memory_turned_off, session_memory_stores
from memtab.sources.claude.source import auto_memory_base, auto_memory_directory
from memtab.store.text.frontmatter import FrontmatterError, read_agent_definition


def claude_loads(
    *,
    config_root: Path | None,
    cwd: Path | None,
    user_home: Path,
    managed_settings: tuple[Path, ...],
    identify: Identify,
    subagent: str | None = None,
    env: Mapping[str, str] | None = None,
    topic_heads: TopicHeads | None = None,
) -> AgentLoads:
    """Claude Code's session start in `cwd` (user-level files only without one) with `env`;
    with `subagent`, what that subagent loads. `topic_heads`: kept from an earlier scan."""
    if config_root is None:
        return AgentLoads(agent="claude", notes=("Claude Code's directory was not found",))
    settings = (*managed_settings, config_root / "settings.json")
    mode, set_in = instruction_mode(settings)
    notes = [f"instructionFiles: {mode}" + (f" (set in {set_in})" if set_in else " (default)")]
    managed_dir = managed_settings[0].parent if managed_settings else None
    files: list[LoadedFile] = []
    for found in instruction_files(
        cwd=cwd, config_root=config_root, managed_dir=managed_dir, user_home=user_home, mode=mode
    ):
        text = read_text(found.path, notes)
        if text is None:
            continue
        files.append(
            measured(
                text,
                kind=found.kind,
                imported_by=str(found.imported_by) if found.imported_by else None,
                imported_at_line=found.imported_at_line,
                **named(found.path, identify),
            )
        )
    if cwd is None:
        notes.append("No project chosen: only the managed and the user's files are shown")
    else:
        files += _auto_memory(
            config_root, cwd, user_home, managed_settings, env or {}, identify, notes, topic_heads
        )
    loads = AgentLoads(agent="claude", files=tuple(files), notes=tuple(notes))
    if subagent is not None:
        loads = subagent_loads(
            loads,
            subagent,
            cwd=cwd,
            config_root=config_root,
            managed_dir=managed_dir,
            identify=identify,
        )
    total = sum(f.loaded_tokens for f in loads.files if f.when == "start")
    return loads.replaced(total_tokens=total)


def _auto_memory(
    config_root: Path,
    cwd: Path,
    user_home: Path,
    managed_settings: tuple[Path, ...],
    env: Mapping[str, str],
    identify: Identify,
    notes: list[str],
    topic_heads: TopicHeads | None,
) -> list[LoadedFile]:
    """Auto memory's `MEMORY.md`, the team mounts' indexes and the topics it cannot recall well
    (none when auto memory is off)."""
    memory = auto_memory_folder(config_root, cwd, user_home, managed_settings, env, notes)
    if memory is None:
        return []
    files: list[LoadedFile] = []
    index = _index_record(memory / INDEX_NAME, identify, notes)
    if index is not None:
        files.append(index)
    for store in session_memory_stores(config_root, env):
        if store.scope == "team" and store.prompt_index is not None:
            path = memory / TEAM_FOLDER / store.mount / store.prompt_index
            record = _index_record(path, identify, notes, store.prompt_index_max_bytes)
            if record is not None:
                files.append(record.replaced(kind="team"))
    topics = scan_topics(memory, env, topic_heads)
    if topics:
        notes.append(_recall_note(topics))
    files += [
        on_demand(
            read_text(topic.path) or "",
            NO_DESCRIPTION,
            kind="topic",
            **named(topic.physical, identify),
        )
        for topic in topics
        if topic.undescribed
    ]
    return files


def auto_memory_folder(
    config_root: Path,
    cwd: Path,
    user_home: Path,
    managed_settings: tuple[Path, ...],
    env: Mapping[str, str],
    notes: list[str],
) -> Path | None:
    """The auto memory directory of a session in `cwd`, or None when off (why in `notes`)."""
    base = auto_memory_base(cwd)
    local_root = local_settings_root(cwd, base, user_home)
    if local_root != cwd:
        notes.append(
            f"Local settings: {local_root / '.claude' / 'settings.local.json'} (the checkout's "
            "canonical git root holds them for every session under it, its worktrees' too)"
        )
    switch = auto_memory_switch(config_root, env)
    if switch is not None and switch.state == "off":
        notes.append(f"{switch.off_note}: no auto memory is read")
        return None
    turned_off = auto_memory_turned_off(config_root, str(cwd), managed_settings, local_root)
    if turned_off is not None and switch is None:
        notes.append(f"autoMemoryEnabled is false in {turned_off}: no auto memory is read")
        return None
    if turned_off is not None and switch is not None:
        notes.append(f"autoMemoryEnabled is false in {turned_off}, but {switch.words} turns it on")
    return auto_memory_directory(config_root, base, managed_settings, local_root)


def subagent_loads(
    session: AgentLoads,
    name: str,
    *,
    cwd: Path | None,
    config_root: Path,
    managed_dir: Path | None,
    identify: Identify,
) -> AgentLoads:
    """What the subagent `name` of a session loading `session` reads at its start
    (`find_subagent` below)."""
    agent = find_subagent(name, cwd=cwd, config_root=config_root, managed_dir=managed_dir)
    if agent is None:
        note = (
            f"No subagent {name!r} found in .claude/agents/ (managed, the project's, the "
            "user's) nor built in: a subagent that sets no omitClaudeMd loads what the "
            "session loads, shown here"
        )
        return session.replaced(subagent=name, notes=(note, *session.notes))
    where = "built in" if agent.where == "built-in" else f"defined in {agent.where}"
    files = list(session.files)
    notes = [f"Subagent {name} ({where})"]
    if agent.omit_claude_md:
        kept = "only the managed ones" if agent.keeps_managed_files else "none of them"
        notes[0] += (
            f": omitClaudeMd, so it loads no CLAUDE.md, rules or MEMORY.md of the session — {kept}"
        )
        files = [f for f in files if agent.keeps_managed_files and f.kind == "managed"]
        notes += [note for note in session.notes if note.startswith("instructionFiles")]
    else:
        notes[0] += ": no omitClaudeMd, so it loads what the session loads"
        notes += session.notes
    index = agent.memory_index(config_root, project_root(cwd) if cwd is not None else None)
    record = _index_record(index, identify, notes) if index is not None else None
    if record is not None:
        files.append(record)
        notes.append(f"Its own memory ({agent.memory} scope): {index}")
    return session.replaced(subagent=name, files=tuple(files), notes=tuple(notes))


def _recall_note(topics: list[Topic]) -> str:
    without = sum(1 for topic in topics if topic.undescribed)
    note = f"{HOW_TOPICS_ARE_RECALLED}; {plural(len(topics), 'topic file')} here"
    if len(topics) > RECALL_CANDIDATES:
        note += f", {len(topics) - RECALL_CANDIDATES} older than the newest {RECALL_CANDIDATES}"
    if without:
        note += f", {without} without a description (listed)"
    return note


def _index_record(
    path: Path, identify: Identify, notes: list[str], max_bytes: int | None = None
) -> LoadedFile | None:
    """An index Claude Code puts in a session's prompt, cut as it cuts `MEMORY.md` (and at
    `max_bytes`)."""
    text = read_text(path, notes)
    if text is None:
        return None
    cut = index_cut(text)
    loaded, at = cut.loaded_text, cut.cut_at_line
    reason = {
        "lines": f"Claude Code reads only the first {INDEX_MAX_LINES} lines of {path.name}",
        "size": f"Claude Code reads only the first {INDEX_MAX_UNITS:,} characters of {path.name}",
    }.get(cut.reason or "")
    data = loaded.encode("utf-8", "surrogatepass")
    if max_bytes is not None and len(data) > max_bytes:
        loaded = data[: data[:max_bytes].rfind(b"\n") + 1].decode("utf-8", "replace")
        at = loaded.count("\n") + 1
        reason = (
            f"Claude Code reads only the lines of {path.name} within its store's "
            f"promptIndexMaxBytes is {max_bytes:,}"
        )
    return measured(
        text,
        loaded=loaded,
        cut_at_line=at,
        cut_reason=reason,
        kind="memory",
        **named(path, identify),
    )


# --- Claude Code's subagents, as far as what they load at their start (§17.6): `omitClaudeMd`
# drops instruction files, a `memory` scope adds its own `MEMORY.md`.

BUILT_IN_WITHOUT_CLAUDE_MD = ("Explore", "Plan", "web-fetch")
MEMORY_SCOPES = ("user", "project", "local")
_MAX_DEFINITION_BYTES = 256 * 1024
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


@dataclass(frozen=True)
class Subagent:
    """A subagent's definition, what of it decides its loads."""

    name: str
    where: str  # "built-in", or the definition file's path
    omit_claude_md: bool
    managed: bool = False
    memory: str | None = None  # "user", "project", "local"

    @property
    def keeps_managed_files(self) -> bool:
        """Whether it keeps the managed instruction files when it omits the others."""
        return not (self.where == "built-in" or self.managed)

    def memory_index(self, config_root: Path, project: Path | None) -> Path | None:
        """Its own memory folder's `MEMORY.md`, when it has a memory scope."""
        folder = _UNSAFE.sub("-", self.name) or "unknown"
        if self.memory == "user":
            return config_root / "agent-memory" / folder / "MEMORY.md"
        if self.memory in ("project", "local") and project is not None:
            kind = "agent-memory" if self.memory == "project" else "agent-memory-local"
            return project / ".claude" / kind / folder / "MEMORY.md"
        return None


def find_subagent(
    name: str, *, cwd: Path | None, config_root: Path, managed_dir: Path | None
) -> Subagent | None:
    """The subagent `name` a session in `cwd` would run (managed, project, user, built-in), or
    None."""
    folders: list[tuple[Path, bool]] = []
    if managed_dir is not None:
        folders.append((managed_dir / ".claude" / "agents", True))
    if cwd is not None:
        folders += [(d / ".claude" / "agents", False) for d in [cwd, *cwd.parents][:-1]]
    folders.append((config_root / "agents", False))
    for folder, managed in folders:
        for path in _definitions(folder):
            found = _read(path, managed)
            if found is not None and found.name == name:
                return found
    if name in BUILT_IN_WITHOUT_CLAUDE_MD:
        return Subagent(name, "built-in", omit_claude_md=True)
    return None


def _definitions(folder: Path) -> list[Path]:
    found: list[Path] = []
    for directory, names, files in os.walk(folder):
        names[:] = sorted(n for n in names if not n.startswith("."))
        found += [Path(directory) / f for f in sorted(files) if f.endswith(".md")]
    return found


def _read(path: Path, managed: bool) -> Subagent | None:
    try:
        data = read_readable_path(path, limit=_MAX_DEFINITION_BYTES, follow_link=True)
        frontmatter = read_agent_definition(data.decode("utf-8", "replace")).frontmatter
    except (OSError, FrontmatterError):
        return None
    name = frontmatter.get("name")
    if not isinstance(name, str) or not name:
        return None
    omit = frontmatter.get("omitClaudeMd") in (True, "true")
    memory = frontmatter.get("memory")
    return Subagent(
        name,
        str(path),
        omit_claude_md=omit,
        managed=managed,
        memory=memory if memory in MEMORY_SCOPES else None,
    )
