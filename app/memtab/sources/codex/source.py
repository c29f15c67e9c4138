"""Codex: its user AGENTS.md, its `memories/` (a git repository), extensions, and the
projects it has been trusted in (`config.toml`). The layout is in `layouts.py`."""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path

from memtab.file_protocol.file_ref import source_id
from memtab.fs.user_files import read_regular_file
from memtab.sources.model import AgentFolder, Layout, Source, folder_sources

logger = logging.getLogger(__name__)

_CONFIG_MAX_BYTES = 1024 * 1024


_FOLDERS = (
    AgentFolder("memories", "memories", Layout.CODEX_MEMORIES, "Codex memories", git_history=True),
    AgentFolder(
        "memories_extensions",
        "memories_extensions",
        Layout.CODEX_EXTENSIONS,
        "Codex memory extensions",
    ),
)
"""Codex's folders that are sources of their own while they are there."""


def codex_sources(root: Path) -> list[Source]:
    """The sources under Codex's home `root` (which exists)."""
    user = Source(
        id=source_id("codex", "user"),
        agent="codex",
        layout=Layout.CODEX_USER,
        root=root,
        label="Codex (user)",
    )
    return [user, *folder_sources("codex", root, _FOLDERS)]


def codex_projects(root: Path) -> list[str]:
    """The project paths `config.toml` has settings for (`[projects."/path"]`)."""
    path = root / "config.toml"
    try:  # without blocking: a FIFO named config.toml is refused at once
        data = read_regular_file(path, limit=_CONFIG_MAX_BYTES + 1, truncate=True)
    except OSError:
        return []
    if len(data) > _CONFIG_MAX_BYTES:
        logger.info("Codex: %s is over 1 MiB; its projects are not read", path)
        return []
    # lazy: tomllib only where Codex has a config.toml
    import tomllib

    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        logger.info("Codex: cannot read the projects of %s (%s)", path, error)
        return []
    projects = config.get("projects")
    if not isinstance(projects, dict):
        return []
    return sorted(p for p in projects if isinstance(p, str) and os.path.isabs(p))


_BUCKET = re.compile(r"^[0-9a-f]{16}$")


def bucket_name(cwd: str) -> str:
    """The per-directory bucket an older Codex kept a directory's memory in
    (`memory_bucket_for_cwd`)."""
    normalized = os.path.realpath(cwd) if os.path.exists(cwd) else cwd
    return hashlib.sha256(normalized.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def bucket_project(relative: str, known: Iterable[str]) -> str | None:
    """The known project whose bucket holds a file of Codex's `memories/`, or None."""
    bucket = relative.split("/", 1)[0]
    if "/" not in relative or not _BUCKET.match(bucket):
        return None
    return next((path for path in known if bucket_name(path) == bucket), None)
