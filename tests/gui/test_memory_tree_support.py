"""Shared helpers for the Memory tab tests: a small home on disk, the window, fake dialogs.

Imported by the other `test_memory_tree*`, `test_main_window*`, `test_search*`,
`test_scan*` and `test_workspace_picker*` modules (it holds no tests itself).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from memtab.fs.atomic import atomic_write_json, atomic_write_text
from memtab.gui.app import create_main_window
from memtab.gui.main_window import MainWindow
from memtab.gui.memory_tab.dialogs import NewKind
from memtab.gui.memory_tab.tree_nodes import NodeKind, TreeNode
from memtab.gui.ui_state import UiState
from memtab.gui.watch import HomeWatcher
from memtab.store.home import Home
from memtab.store.memory import MemoryStore
from memtab.store.meta import global_key, project_key, workspace_key
from memtab.store.paths import VirtualPath

PROJECT = "/src/acme"
OTHER_PROJECT = "/src/web"
MAIN = "a1a1a1a1a1"
ARCHIVED = "b2b2b2b2b2"
MULTI = "c3c3c3c3c3"
CHILD = "d4d4d4d4d4"
WAIT_MS = 5000
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


class FakeDialogs:
    """Canned answers for `TabDialogs`; records what was asked."""

    def __init__(self) -> None:
        self.new_item: tuple[VirtualPath, str] | None = None
        self.move_target: VirtualPath | None = None
        self.confirm = True
        self.asked: list[tuple[object, ...]] = []

    def ask_new_item(
        self, store: MemoryStore, location: VirtualPath, kind: NewKind
    ) -> tuple[VirtualPath, str] | None:
        self.asked.append(("new", location, kind))
        return self.new_item

    def ask_move_target(self, store: MemoryStore, source: VirtualPath) -> VirtualPath | None:
        self.asked.append(("move", source))
        return self.move_target

    def confirm_delete(self, names: list[str], file_count: int, loses_draft: bool) -> bool:
        self.asked.append(("delete", tuple(names), file_count, loses_draft))
        return self.confirm

    def confirm_delete_orphan(self, dir_name: str, file_count: int) -> bool:
        self.asked.append(("delete-orphan", dir_name, file_count))
        return self.confirm


WindowFactory = Callable[..., MainWindow]


@pytest.fixture
def make_window(qtbot: QtBot, tmp_path: Path) -> Iterator[WindowFactory]:
    """Build windows with `create_main_window`, waiting for the first scan; closes them."""
    windows: list[MainWindow] = []

    def make(home: Home, workspace_id: str | None = MAIN, **options: object) -> MainWindow:
        options.setdefault("ui_state", UiState(tmp_path / f"ui-{len(windows)}.json"))
        options.setdefault("watcher", HomeWatcher(debounce_ms=30, max_latency_ms=300))
        window = create_main_window(home, workspace_id, **options)  # type: ignore[arg-type]
        qtbot.addWidget(window)
        windows.append(window)
        qtbot.waitUntil(lambda: window.memory_tab.is_loaded, timeout=WAIT_MS)
        return window

    yield make
    for window in windows:
        window.close_without_asking()


def wait_watching(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until the window's watcher runs (it starts just after the first scan)."""
    qtbot.waitUntil(lambda: window.watcher.root is not None, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.memory_tab._scans.busy, timeout=WAIT_MS)


def node(window: MainWindow, key: str) -> TreeNode | None:
    """The tree node with `key`, if shown."""
    return window.memory_tab.model.node_for_key(key)


def file_names(window: MainWindow) -> list[str]:
    """Every file row, as `section:name`, in tree order."""
    return [
        f"{item.section}:{item.name}"
        for item in window.memory_tab.model.nodes()
        if item.kind is NodeKind.FILE
    ]


def touch_later(path: Path, text: str) -> None:
    """Write `path` with a modification time clearly after any earlier write."""
    atomic_write_text(path, text)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000))


def dump(value: object) -> str:
    return json.dumps(value)
