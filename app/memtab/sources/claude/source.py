"""Claude Code: its project directory names (lossily encoded paths) decoded back to projects,
and its sources."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memtab.file_protocol.file_ref import is_valid_source_name, source_id
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.user_files import read_regular_file
from memtab.sources.claude.memory_dir import (
    ACCOUNT_MEMORY_PATH,
    TEAM_FOLDER,
    MemoryStore,
    is_remote_store,
    read_only_mounts,
)
from memtab.sources.claude.settings import auto_memory_setting, user_auto_memory_directory
from memtab.sources.model import (
    AgentFolder,
    Layout,
    Source,
    folder_sources,
    is_folder,
    linked_root_reason,
)

logger = logging.getLogger(__name__)

MAX_ENCODED_LENGTH = 200
_TRANSCRIPT_HEAD_BYTES = 64 * 1024
_TRANSCRIPTS_TRIED = 3
_PROBE_MAX_DIRECTORIES = 200
_PROBE_MAX_MATCHES = 4
_CWD_CACHE_SIZE = 4096
# (directory, the transcripts read) → the project they recorded
_cwd_cache: dict[tuple[str, ...], str] = {}


def encode_project_path(path: str) -> str:
    """The full (uncut) name Claude Code derives from a project path."""
    return "".join(
        char if char.isascii() and char.isalnum() else ("--" if ord(char) > 0xFFFF else "-")
        for char in path
    )


def names_match(path: str, dir_name: str) -> bool:
    """Whether Claude Code would keep `path`'s data in a directory named `dir_name`."""
    encoded = encode_project_path(path)
    if len(encoded) <= MAX_ENCODED_LENGTH:
        return encoded == dir_name
    return dir_name.startswith(encoded[:MAX_ENCODED_LENGTH] + "-")  # cut + hash suffix


@dataclass(frozen=True)
class Decoded:
    """What a project directory name stands for; `path` None when unknown or ambiguous."""

    path: str | None
    how: str  # "known project", "session transcript", "filesystem", "unknown", "ambiguous"
    candidates: tuple[str, ...] = ()

    @property
    def note(self) -> str | None:
        if self.how == "ambiguous":
            return "Could be any of: " + ", ".join(self.candidates)
        if self.how == "unknown":
            return "Which project this is could not be told from its name"
        return None


class KnownPaths:
    """Known project paths by the directory name Claude Code gives each (one path: one project)."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._by_name: dict[str, list[str]] = {}
        self._long: list[tuple[str, str]] = []  # (cut name + "-", path) of long names
        for path in dict.fromkeys(paths):
            encoded = encode_project_path(path)
            if len(encoded) <= MAX_ENCODED_LENGTH:
                self._by_name.setdefault(encoded, []).append(path)
            else:
                self._long.append((encoded[:MAX_ENCODED_LENGTH] + "-", path))

    def matching(self, name: str) -> list[str]:
        found = list(self._by_name.get(name, ()))
        found += [path for prefix, path in self._long if name.startswith(prefix)]
        return found


def decode_project_dir(
    directory: Path, known: KnownPaths | Sequence[str], *, probe: bool = True
) -> Decoded:
    """The project path of Claude Code's `projects/<name>` directory (see module doc)."""
    index = known if isinstance(known, KnownPaths) else KnownPaths(known)
    matches = index.matching(directory.name)
    if len(matches) == 1:
        return Decoded(matches[0], "known project")
    recorded = transcript_cwd(directory)
    if matches:
        if recorded in matches:
            return Decoded(recorded, "session transcript")
        existing = [path for path in matches if os.path.isdir(path)]
        if len(existing) == 1:
            return Decoded(existing[0], "known project")
        return Decoded(None, "ambiguous", tuple(matches))
    if recorded is not None:
        return Decoded(recorded, "session transcript")
    found = probe_filesystem(directory.name) if probe else []
    if len(found) == 1:
        return Decoded(found[0], "filesystem")
    if found:
        return Decoded(None, "ambiguous", tuple(found))
    return Decoded(None, "unknown")


def transcript_cwd(directory: Path) -> str | None:
    """The project a session transcript in `directory` ran in: its `cwd` or the ancestor the
    directory is named after; a find is remembered (transcripts only grow)."""
    try:
        with os.scandir(directory) as iterator:
            names = sorted(e.name for e in iterator if e.name.endswith(".jsonl"))
    except OSError:
        return None
    key = (str(directory), *names[:_TRANSCRIPTS_TRIED])
    remembered = _cwd_cache.get(key)
    if remembered is not None:
        return remembered
    found = None
    for name in key[1:]:
        cwd = _first_cwd(directory / name)
        if cwd is None:
            continue
        candidate = Path(cwd)
        found = next(
            (
                str(p)
                for p in (candidate, *candidate.parents)
                if names_match(str(p), directory.name)
            ),
            None,
        )
        if found is not None:
            break
    if found is not None:
        if len(_cwd_cache) >= _CWD_CACHE_SIZE:
            _cwd_cache.clear()
        _cwd_cache[key] = found
    return found


def _first_cwd(transcript: Path) -> str | None:
    try:  # without blocking: a FIFO named like a transcript is refused at once
        head = read_regular_file(transcript, limit=_TRANSCRIPT_HEAD_BYTES, truncate=True)
    except OSError:
        return None
    lines = head.split(b"\n")
    if len(head) == _TRANSCRIPT_HEAD_BYTES:
        lines = lines[:-1]  # cut mid-line
    for line in lines:
        if b'"cwd"' not in line:
            continue
        try:
            record = parse_json(line)
        except JsonError:
            continue
        cwd = record.get("cwd") if isinstance(record, dict) else None
        if isinstance(cwd, str) and os.path.isabs(cwd):
            return cwd
    return None


def probe_filesystem(name: str, root: Path = Path("/")) -> list[str]:
    """The existing directories whose path encodes to `name` (POSIX paths; bounded work)."""
    if not name.startswith("-") or len(name) > MAX_ENCODED_LENGTH:
        return []
    found: list[str] = []
    budget = _PROBE_MAX_DIRECTORIES
    pending: list[tuple[Path, str]] = [(root, name[1:])]
    while pending and budget > 0 and len(found) < _PROBE_MAX_MATCHES:
        directory, rest = pending.pop()
        budget -= 1
        try:
            with os.scandir(directory) as iterator:
                names = sorted(e.name for e in iterator if is_folder(e, follow_links=True))
        except OSError:
            continue
        for entry in reversed(names):  # the stack pops them in sorted order
            encoded = encode_project_path(entry)
            if rest == encoded:
                found.append(str(directory / entry))
            elif rest.startswith(encoded + "-"):
                pending.append((directory / entry, rest[len(encoded) + 1 :]))
    return sorted(found)


def claude_sources(
    root: Path,
    known: Sequence[str],
    project_of: dict[str, str],
    *,
    probe: bool = True,
    managed_settings: Sequence[Path] = (),
    stores: tuple[MemoryStore, ...] = (),
    auto_memory_off: str | None = None,
) -> tuple[list[Source], list[str]]:
    """Claude Code's sources under its config dir `root`, and the projects it knows (`known`
    matched first; `probe` False never looks outside `root`)."""
    sources = [
        Source(
            id=source_id("claude-code", "user"),
            agent="claude-code",
            layout=Layout.CLAUDE_USER,
            root=root,
            label="Claude Code (user)",
        )
    ]
    sources += folder_sources("claude-code", root, (_ACCOUNT_MEMORY,))
    moved = user_auto_memory_directory(root, managed_settings)
    if moved is not None:
        how = f"Every project's auto memory: {moved.how}"
        how += f"; {auto_memory_off}" if auto_memory_off else ""
        sources += auto_memory_sources("auto-memory", moved.path, how, None, stores)
    sources += folder_sources("claude-code", root, (_AGENT_MEMORY,))
    projects: list[str] = []
    index = KnownPaths(known)
    try:
        with os.scandir(root / "projects") as iterator:
            names = sorted(e.name for e in iterator if is_folder(e, follow_links=True))
    except OSError:
        return sources, projects
    not_read = (
        f"Claude Code reads auto memory from {moved.path} ({moved.how}), not from memory/ here"
        if moved is not None
        else None
    )
    for name in names:
        if name.startswith(".") or not is_valid_source_name(name):
            logger.info("Claude Code: skipped the project directory %r", name)
            continue
        decoded = decode_project_dir(root / "projects" / name, index, probe=probe)
        project = project_of.get(decoded.path, decoded.path) if decoded.path else None
        if project is not None:
            projects.append(project)
        memory_root = root / "projects" / name
        remote = is_remote_store(memory_root / "memory")
        said = (decoded.note, not_read, auto_memory_off, remote and ACCOUNT_NOTE)
        notes = [note for note in said if note]
        folder = AgentFolder(
            f"memory-{name}",
            f"projects/{name}",
            Layout.CLAUDE_MEMORY,
            "Claude Code memory",
            project=project,
            note="; ".join(notes) or None,
            shared="account" if remote else None,
        )
        sources += folder_sources("claude-code", root, (folder,))
        team = team_source(f"team-{name}", memory_root / "memory", project, stores, root)
        if team is not None:
            sources.append(team)
    return sources, projects


ACCOUNT_NOTE = "Synced to your account"
_ACCOUNT_MEMORY = AgentFolder(
    "account-memory",
    ACCOUNT_MEMORY_PATH,
    Layout.CLAUDE_ACCOUNT_MEMORY,
    "Claude Code account memory",
    note=ACCOUNT_NOTE,
    shared="account",
)
_AGENT_MEMORY = AgentFolder(
    "agent-memory", "agent-memory", Layout.CLAUDE_AGENT_MEMORY, "Claude Code subagent memory"
)
TEAM_NOTE = (
    "Team memory: shared with all repository collaborators (Claude Code syncs it at the start "
    "of every session)"
)


def auto_memory_sources(
    name: str, directory: Path, note: str, project: str | None, stores: tuple[MemoryStore, ...]
) -> list[Source]:
    """The sources of an `autoMemoryDirectory`: the user's own memory and its team memory."""
    remote = is_remote_store(directory)
    found = [
        Source(
            id=source_id("claude-code", name),
            agent="claude-code",
            layout=Layout.CLAUDE_AUTO_MEMORY,
            root=directory,
            label="Claude Code auto memory",
            project=project,
            note=f"{note}; {ACCOUNT_NOTE}" if remote else note,
            shared="account" if remote else None,
        )
    ]
    team = team_source(f"{name}-team", directory, project, stores, None)
    return found + ([team] if team is not None else [])


def team_source(
    name: str,
    memory_dir: Path,
    project: str | None,
    stores: tuple[MemoryStore, ...],
    trusted_root: Path | None,
) -> Source | None:
    """The team memory of `memory_dir` (one folder per mount; `ro` ones read-only), or None."""
    folder = memory_dir / TEAM_FOLDER
    if not folder.is_dir():
        return None
    read_only = tuple(
        (mount, f"Claude Code mounts the team memory {mount!r} read-only ({STORES_NOTE})")
        for mount in read_only_mounts(stores)
    )
    return Source(
        id=source_id("claude-code", name),
        agent="claude-code",
        layout=Layout.CLAUDE_TEAM_MEMORY,
        root=folder,
        label="Claude Code team memory",
        project=project,
        note=TEAM_NOTE,
        read_only_reason=linked_root_reason(trusted_root, folder) if trusted_root else None,
        trusted_root=trusted_root,
        read_only_folders=read_only,
        shared="team",
    )


STORES_NOTE = 'mode "ro" in CLAUDE_MEMORY_STORES'


def auto_memory_base(cwd: Path) -> Path:
    """The directory Claude Code keys a session's auto memory by: the canonical git root, else
    `cwd`."""
    for directory in (cwd, *cwd.parents):
        marker = directory / ".git"
        if marker.is_dir():
            return directory
        if marker.is_file():
            return _main_checkout(marker) or directory
    return cwd


def _main_checkout(pointer: Path) -> Path | None:
    """A linked worktree's main checkout, from its git dir's `commondir`."""
    try:
        text = read_regular_file(pointer, limit=4096, truncate=True).decode("utf-8", "replace")
        if not text.startswith("gitdir:"):
            return None
        git_dir = Path(text[len("gitdir:") :].strip().splitlines()[0])
        git_dir = git_dir if git_dir.is_absolute() else pointer.parent / git_dir
        common = read_regular_file(git_dir / "commondir", limit=4096).decode().strip()
    except (OSError, IndexError):
        return None
    common_dir = Path(os.path.normpath(git_dir / common))
    return common_dir.parent if common_dir.name == ".git" else None


def auto_memory_directory(
    config_root: Path,
    base: Path,
    managed_settings: Sequence[Path] = (),
    local_root: Path | None = None,
) -> Path:
    """Where Claude Code keeps the auto memory of sessions keyed by `base`:
    `autoMemoryDirectory`, else `<config>/projects/<encoded base>/memory`."""
    local = str(local_root) if local_root is not None else None
    moved = auto_memory_setting(config_root, str(base), managed_settings, local)
    if moved is not None:
        return moved.path
    encoded = encode_project_path(str(base))
    if len(encoded) > MAX_ENCODED_LENGTH:
        try:
            with os.scandir(config_root / "projects") as iterator:
                names = sorted(e.name for e in iterator if names_match(str(base), e.name))
        except OSError:
            names = []
        encoded = names[0] if names else encoded[:MAX_ENCODED_LENGTH]
    return config_root / "projects" / encoded / "memory"
