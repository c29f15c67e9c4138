"""Claude Code's subagents, as far as what they load at their start (docs/formats.md §17.6):
`omitClaudeMd` drops instruction files, a `memory` scope adds its own `MEMORY.md`."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.readable import read_readable_path
from memtab.store.text.frontmatter import FrontmatterError, read_agent_definition

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
