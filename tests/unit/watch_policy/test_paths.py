"""watch_policy.paths: what counts as a change, for the window's watcher and `memtab watch`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedEvent,
    FileClosedNoWriteEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileOpenedEvent,
    FileSystemEvent,
)

from memtab.watch_policy.paths import (
    changed_paths,
    is_ignored,
)

HOME = "/home/alice/.mux"
REAL = "/home/alice/.xum"  # what the ~/.mux symlink points at
SCOPE = f"{REAL}/memory/global"


@pytest.mark.slow  # slow: a Python process (~0.3 s CPU)
def test_the_policy_imports_neither_qt_nor_watchdog() -> None:
    """The window's first paint imports it (its watcher), and loads neither."""
    probe = (
        "import sys, pkgutil, importlib, memtab.watch_policy as policy\n"
        "names = [m.name for m in pkgutil.walk_packages(policy.__path__, 'memtab.watch_policy.')]\n"
        "assert len(names) >= 2, names\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "sys.exit(any(m.split('.')[0] in ('PySide6', 'watchdog') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0


@pytest.mark.parametrize(
    "rel",
    [
        "memory/global/x.tmp",
        "memory/global/.notes.md.a1b2c3.tmp",
        "memory/global/.notes.md.swp",
        "memory/global/.notes.md.swx",
        "memory/global/notes.md~",
        "memory/global/4913",
        ".memory-meta.json.k2.tmp",
        "memory/global/.obsidian/workspace.json",
        ".git/index",
        "memtab/sync/memory/repo.git/objects/pack/pack-1.pack",
        "memtab/sync/memory/repo.git/FETCH_HEAD",
        # Gemini CLI's memory folder: its inbox's temp files and its other hidden files
        ".inbox/private/.extraction.patch.0f1e.patch-tmp",
        ".inbox/other/extraction.patch",
        ".inbox/other",
        ".inbox/private/.hidden",
        ".inboxes/private/extraction.patch",
        ".extraction.lock",
        ".extraction-state.json",
    ],
)
def test_temp_and_hidden_names_are_ignored(rel: str) -> None:
    assert is_ignored(rel.replace("/", os.sep))


@pytest.mark.parametrize(
    "rel",
    [
        "",
        "memory/global/notes.md",
        "memory/global/4913.md",
        "config.json",
        "tmp/notes.md",
        "memtab/sync/memory/state.json",  # the window follows a sync of the CLI
        "memtab/sync/config.json",
        # Gemini CLI's memory inbox, which the Inbox follows (its patches, and the folders
        # holding them: one moved away is its patches going)
        ".inbox/private/extraction.patch",
        ".inbox/global/2026/extraction.patch",
        ".inbox",
        ".inbox/private",
        ".inbox/global",
    ],
)
def test_real_names_are_not_ignored(rel: str) -> None:
    assert not is_ignored(rel.replace("/", os.sep))


def paths(event: FileSystemEvent) -> list[str]:
    return changed_paths(event, REAL, HOME)


def test_content_events_report_the_path_under_the_root_as_given() -> None:
    for event_class in (FileCreatedEvent, FileModifiedEvent, FileDeletedEvent, FileClosedEvent):
        assert paths(event_class(f"{SCOPE}/a.md")) == [f"{HOME}/memory/global/a.md"]


def test_reads_and_attribute_changes_report_nothing() -> None:
    for event_class in (FileOpenedEvent, FileClosedNoWriteEvent, FileAttribEvent):
        assert paths(event_class(f"{SCOPE}/a.md")) == []


def test_directory_modified_is_parent_noise_but_other_directory_events_count() -> None:
    assert paths(DirModifiedEvent(SCOPE)) == []
    assert paths(DirCreatedEvent(f"{SCOPE}/sub")) == [f"{HOME}/memory/global/sub"]
    assert paths(DirDeletedEvent(f"{SCOPE}/sub")) == [f"{HOME}/memory/global/sub"]
    assert paths(DirMovedEvent(f"{SCOPE}/a", f"{SCOPE}/b")) == [
        f"{HOME}/memory/global/a",
        f"{HOME}/memory/global/b",
    ]


def test_an_atomic_save_reports_the_destination_only() -> None:
    event = FileMovedEvent(f"{SCOPE}/.a.md.x1y2.tmp", f"{SCOPE}/a.md")
    assert paths(event) == [f"{HOME}/memory/global/a.md"]


def test_a_move_to_a_temp_name_reports_the_source() -> None:
    event = FileMovedEvent(f"{SCOPE}/a.md", f"{SCOPE}/a.md~")
    assert paths(event) == [f"{HOME}/memory/global/a.md"]


def test_temp_files_bytes_paths_and_outside_paths() -> None:
    assert paths(FileCreatedEvent(f"{SCOPE}/.a.md.swp")) == []
    assert paths(FileModifiedEvent(os.fsencode(f"{SCOPE}/a.md"))) == [f"{HOME}/memory/global/a.md"]
    assert paths(FileModifiedEvent("/elsewhere/a.md")) == []
    assert paths(DirDeletedEvent(REAL)) == [HOME]
    assert paths(FileModifiedEvent(f"{REAL}-other/a.md")) == [], "a sibling is not inside"


def test_a_shallow_watch_reports_its_hidden_entries_but_no_temp_file() -> None:
    """A project's root is watched without its subfolders for `.claude` and `.loki`
    appearing (another agent's memory); a recursive watch never reports them."""
    project = "/src/acme"
    loki = DirCreatedEvent(f"{project}/.loki")
    assert changed_paths(loki, project, project) == []
    assert changed_paths(loki, project, project, shallow=True) == [f"{project}/.loki"]
    moved_in = DirMovedEvent("/tmp/kept", f"{project}/.claude")
    assert changed_paths(moved_in, project, project, shallow=True) == [f"{project}/.claude"]
    for temp in (".CLAUDE.md.x1y2.tmp", ".CLAUDE.md~", ".git/index"):
        assert (
            changed_paths(FileCreatedEvent(f"{project}/{temp}"), project, project, shallow=True)
            == []
        )
