"""A small memory home on disk for the Memory tab's tests (no Qt): every scope with files,
pins and usage, a registry with an agent-task child, an archived and a multi-project
workspace, and an orphaned project dir."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import HomeScan, ScanRequest
from memtab.fs.atomic import atomic_write_json, atomic_write_text
from memtab.store.home import Home
from memtab.store.sidecars.meta import global_key, project_key, workspace_key

PROJECT = "/src/acme"
OTHER_PROJECT = "/src/web"
MAIN = "a1a1a1a1a1"
ARCHIVED = "b2b2b2b2b2"
MULTI = "c3c3c3c3c3"
CHILD = "d4d4d4d4d4"
HOUR_MS = 3_600_000


def write_registry(home: Home, now_ms: int | None = None) -> None:
    """Two projects; MAIN (with an agent-task CHILD), an ARCHIVED one, a MULTI-project one."""
    atomic_write_json(
        home.config_path,
        {
            "projects": [
                [
                    PROJECT,
                    {
                        "workspaces": [
                            {"path": PROJECT, "id": MAIN, "name": "main", "title": "Main work"},
                            {
                                "path": PROJECT,
                                "id": CHILD,
                                "name": "subtask",
                                "parentWorkspaceId": MAIN,
                            },
                        ]
                    },
                ],
                [
                    OTHER_PROJECT,
                    {
                        "workspaces": [
                            {
                                "path": OTHER_PROJECT,
                                "id": ARCHIVED,
                                "name": "old",
                                "archivedAt": "2026-01-02T00:00:00.000Z",
                            }
                        ]
                    },
                ],
                [
                    "_multi",
                    {
                        "workspaces": [
                            {
                                "path": "/src/multi",
                                "id": MULTI,
                                "name": "both",
                                "projects": [
                                    {"projectPath": PROJECT, "projectName": "acme"},
                                    {"projectPath": OTHER_PROJECT, "projectName": "web"},
                                ],
                            }
                        ]
                    },
                ],
            ]
        },
    )
    atomic_write_json(
        home.extension_metadata_path,
        {"version": 1, "workspaces": {MAIN: {"recency": now_ms or int(time.time() * 1000)}}},
    )


def memory(description: str, body: str = "Body text.\n") -> str:
    """A memory file with a frontmatter description."""
    return f"---\ndescription: {description}\n---\n\n{body}"


def make_home(root: Path) -> Home:
    """A home with files in every scope, pins/usage, a journal and an orphan project dir."""
    home = Home(root)
    write_registry(home)
    files = {
        home.global_root / "preferences.md": memory("How I like code written"),
        home.global_root / "tools" / "git.md": memory("Git conventions", "Rebase, never merge.\n"),
        home.global_root / "tools" / "python.md": memory("Python tooling", "Use ruff. ruff!\n"),
        home.global_root / "Zeta.md": memory("Last by name"),
        home.project_root(PROJECT) / "architecture.md": memory("Service layout"),
        home.project_root(PROJECT) / "decisions" / "db.md": memory("Why Postgres"),
        home.workspace_root(MAIN) / "notes.md": memory("Notes of this branch"),
        home.projects_root / "gone-0123456789ab" / "old.md": memory("Orphaned note"),
    }
    for path, text in files.items():
        atomic_write_text(path, text)
    (home.global_root / "empty-dir").mkdir()
    now = int(time.time() * 1000)
    atomic_write_json(
        home.meta_path,
        {
            "entries": {
                global_key("preferences.md"): {
                    "pinned": True,
                    "accessCount": 4,
                    "lastAccessedAt": now - 2 * HOUR_MS,
                    "lastWriteAt": None,
                },
                project_key(PROJECT, "architecture.md"): {
                    "pinned": False,
                    "accessCount": 2,
                    "lastAccessedAt": now - HOUR_MS,
                    "lastWriteAt": None,
                },
                workspace_key(MAIN, "notes.md"): {
                    "pinned": False,
                    "accessCount": 1,
                    "lastAccessedAt": now - 3 * HOUR_MS,
                    "lastWriteAt": None,
                },
            }
        },
    )
    return home


@pytest.fixture
def home(tmp_path: Path) -> Home:
    """The standard test home (see `make_home`)."""
    return make_home(tmp_path / "home")


def touch_later(path: Path, text: str) -> None:
    """Write `path` with a modification time clearly after any earlier write."""
    atomic_write_text(path, text)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000))


def scanned(
    home: Home, workspace_id: str | None = MAIN, previous: HomeScan | None = None
) -> HomeScan:
    """A scan of `home` for `workspace_id` (incremental over `previous`, if given)."""
    return scan_home(ScanRequest(home, workspace_id, previous=previous))
