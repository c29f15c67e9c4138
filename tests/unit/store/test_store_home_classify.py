"""Home.classify: what part of a home a changed path is, from the store's own layout."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.store.home import MEMTAB_KINDS, Home, PathKind, PathPlace
from memtab.store.paths import parse_file_path
from memtab.store.proposals.queue import GLOBAL_QUEUE, proposals_path
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Workspace
from memtab.writer.inbox.harvest import HARVEST_DIR
from memtab.writer.inbox.suggestions import queue_path

HOME = "/home/alice/.mux"


@pytest.mark.parametrize(
    ("rel", "place"),
    [
        ("", PathPlace(PathKind.HOME)),
        ("config.json", PathPlace(PathKind.CONFIG)),
        ("memory-meta.json", PathPlace(PathKind.MEMORY_META)),
        ("memory-consolidation.json", PathPlace(PathKind.CONSOLIDATION_JOURNAL)),
        ("extensionMetadata.json", PathPlace(PathKind.EXTENSION_METADATA)),
        ("memory", PathPlace(PathKind.MEMORY_DIR)),
        ("memory/global", PathPlace(PathKind.GLOBAL_SCOPE)),
        ("memory/global/topics/a.md", PathPlace(PathKind.GLOBAL_SCOPE)),
        ("memory/project", PathPlace(PathKind.PROJECT_SCOPE)),
        (
            "memory/project/mux-0123456789ab",
            PathPlace(PathKind.PROJECT_SCOPE, "mux-0123456789ab"),
        ),
        (
            "memory/project/mux-0123456789ab/a.md",
            PathPlace(PathKind.PROJECT_SCOPE, "mux-0123456789ab"),
        ),
        ("memory/stray.md", PathPlace(PathKind.OTHER)),
        ("sessions", PathPlace(PathKind.WORKSPACE_DIR)),
        ("sessions/a1b2c3d4e5", PathPlace(PathKind.WORKSPACE_DIR, "a1b2c3d4e5")),
        # The scope's folder holds mux's harvest folder: one that goes takes it along.
        (
            "sessions/a1b2c3d4e5/memory",
            PathPlace(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5", harvest=True),
        ),
        ("sessions/a1b2c3d4e5/memory/x/a.md", PathPlace(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5")),
        ("sessions/a1b2c3d4e5/chat.jsonl", PathPlace(PathKind.CHAT_TRANSCRIPT, "a1b2c3d4e5")),
        (
            "sessions/a1b2c3d4e5/system1-memory-writer-state.json",
            PathPlace(PathKind.WRITER_STATE, "a1b2c3d4e5"),
        ),
        ("sessions/a1b2c3d4e5/partial.jsonl", PathPlace(PathKind.OTHER)),
        ("debug_obj", PathPlace(PathKind.WRITER_TRACES)),
        ("debug_obj/a1b2c3d4e5", PathPlace(PathKind.WRITER_TRACES, "a1b2c3d4e5")),
        (
            "debug_obj/a1b2c3d4e5/system1_memory_writer/1700000000000.json",
            PathPlace(PathKind.WRITER_TRACES, "a1b2c3d4e5"),
        ),
        (
            "debug_obj/a1b2c3d4e5/memtab_consolidation/1700000000000_run-1.json",
            PathPlace(PathKind.WRITER_TRACES, "a1b2c3d4e5"),
        ),
        ("debug_obj/a1b2c3d4e5/other_tool/x.json", PathPlace(PathKind.OTHER)),
        ("memtab/history/x.json", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/history/runs.jsonl", PathPlace(PathKind.RUNS_LOG)),
        ("memtab/history/index/global.jsonl", PathPlace(PathKind.HISTORY_INDEX, "global")),
        (
            "memtab/history/index/workspace-a1b2c3d4e5.jsonl",
            PathPlace(PathKind.HISTORY_INDEX, "workspace-a1b2c3d4e5"),
        ),
        ("memtab/history/index/global.stat.json", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/history/index/.jsonl", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/history/blobs/ab/cdef.z", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/history/index", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/locks/history-global.lock", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/sync/config.json", PathPlace(PathKind.SYNC)),
        ("memtab/sync/memory/state.json", PathPlace(PathKind.SYNC, "memory")),
        ("memtab/sync/memory/repo.git", PathPlace(PathKind.SYNC_REPOSITORY, "memory")),
        (
            "memtab/sync/memory/repo.git/objects/pack/x.pack",
            PathPlace(PathKind.SYNC_REPOSITORY, "memory"),
        ),
        ("memtab/sync/memory", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/sync/memory/state.json.bak", PathPlace(PathKind.MEMTAB_DATA)),
        ("config.json.bak", PathPlace(PathKind.OTHER)),
        ("memtab", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/settings.json", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/suggestions/a1b2c3d4e5.json", PathPlace(PathKind.SUGGESTIONS, "a1b2c3d4e5")),
        ("memtab/suggestions", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/suggestions/.json", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/suggestions/a1b2c3d4e5.json.tmp", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtab/proposals/global.json", PathPlace(PathKind.PROPOSALS, "global")),
        ("memtab/proposals/a1b2c3d4e5.json", PathPlace(PathKind.PROPOSALS, "a1b2c3d4e5")),
        ("memtab/proposals/x/a.json", PathPlace(PathKind.MEMTAB_DATA)),
        ("memtabs/history/runs.jsonl", PathPlace(PathKind.OTHER)),
        (
            "sessions/a1b2c3d4e5/memory/harvest",
            PathPlace(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5", harvest=True),
        ),
        (
            "sessions/a1b2c3d4e5/memory/harvest/1700000000000.json",
            PathPlace(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5", harvest=True),
        ),
        (
            "sessions/a1b2c3d4e5/memory/harvested.md",
            PathPlace(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5"),
        ),
        ("sessions/a1b2c3d4e5/memory/x/harvest", PathPlace(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5")),
    ],
)
def test_classify(rel: str, place: PathPlace) -> None:
    path = os.path.join(HOME, *rel.split("/")) if rel else HOME
    assert Home(Path(HOME)).classify(path) == place


def test_a_path_outside_the_home_is_other() -> None:
    home = Home(Path(HOME))
    assert home.classify("/tmp/memory/global/a.md") == PathPlace(PathKind.OTHER)
    assert home.classify(f"{HOME}2/config.json") == PathPlace(PathKind.OTHER)


def test_gemini_cli_s_memory_inbox_outside_the_home_is_the_inbox_s_to_follow() -> None:
    home = Home(Path(HOME))
    memory = "/u/.gemini/tmp/acme-api/memory"
    inbox = PathPlace(PathKind.AGENT_INBOX)
    assert home.classify(f"{memory}/.inbox/private/extraction.patch") == inbox
    assert home.classify(f"{memory}/.inbox/global") == inbox
    assert home.classify(f"{memory}/.inbox") == inbox  # moved away: its patches going
    assert home.classify(f"{memory}/.inbox/elsewhere/x.patch") == PathPlace(PathKind.OTHER)
    assert home.classify(f"{memory}/MEMORY.md") == PathPlace(PathKind.OTHER)


def test_the_layout_comes_from_the_homes_own_paths(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    assert home.classify(home.config_path) == PathPlace(PathKind.CONFIG)
    assert home.classify(home.meta_path) == PathPlace(PathKind.MEMORY_META)
    assert home.classify(home.journal_path) == PathPlace(PathKind.CONSOLIDATION_JOURNAL)
    assert home.classify(home.global_root / "a.md") == PathPlace(PathKind.GLOBAL_SCOPE)
    project = home.project_root("/src/app")
    assert home.classify(project) == PathPlace(PathKind.PROJECT_SCOPE, project.name)
    assert home.classify(home.workspace_root("w1") / "x" / "a.md") == PathPlace(
        PathKind.WORKSPACE_SCOPE, "w1"
    )
    assert home.classify(home.transcript_path("w1")) == PathPlace(PathKind.CHAT_TRANSCRIPT, "w1")
    assert home.classify(home.writer_state_path("w1")) == PathPlace(PathKind.WRITER_STATE, "w1")
    assert home.classify(home.runs_log_path) == PathPlace(PathKind.RUNS_LOG)
    assert home.classify(home.trace_dir("w1") / "1.json") == PathPlace(PathKind.WRITER_TRACES, "w1")
    assert home.classify(home.lock_path("meta")) == PathPlace(PathKind.MEMTAB_DATA)


def test_memtab_kinds_are_what_is_in_memtabs_own_dir(tmp_path: Path) -> None:
    """A feature that ignores Memtab's own files (the check) asks the kind, not the path:
    every path in `Home.memtab_dir` is of a kind in MEMTAB_KINDS, and no other path is."""
    home = Home(tmp_path / "home")
    inside = [
        home.memtab_dir,
        home.lock_path("meta"),
        home.runs_log_path,
        home.provenance_log_path,
        home.history_blobs_dir / "ab" / "cd.z",
        home.history_index_dir / "global.jsonl",
        home.started_runs_dir / "x.json",
        home.sync_dir / "config.json",
        home.sync_dir / "memory" / "state.json",
        home.sync_dir / "memory" / "repo.git" / "HEAD",
        queue_path(home, "w1"),
        proposals_path(home, "w1"),
        proposals_path(home, GLOBAL_QUEUE),
    ]
    outside = [
        home.root,
        home.config_path,
        home.global_root / "a.md",
        home.workspace_root("w1") / "memtab" / "a.md",
        home.transcript_path("w1"),
        home.trace_dir("w1") / "1.json",
        tmp_path / "elsewhere" / "memtab" / "x",
    ]
    for path in inside:
        assert path.is_relative_to(home.memtab_dir)
        assert home.classify(path).kind in MEMTAB_KINDS, path
    for path in outside:
        assert not path.is_relative_to(home.memtab_dir)
        assert home.classify(path).kind not in MEMTAB_KINDS, path


def test_the_inboxs_files_are_classified_where_their_writers_put_them(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    assert home.classify(queue_path(home, "w1")) == PathPlace(PathKind.SUGGESTIONS, "w1")
    assert home.classify(proposals_path(home, "w1")) == PathPlace(PathKind.PROPOSALS, "w1")
    assert home.classify(proposals_path(home, GLOBAL_QUEUE)) == PathPlace(
        PathKind.PROPOSALS, GLOBAL_QUEUE
    )
    workspace = Workspace("w1", "main", "/src/app", "/src/app", "app")
    harvest = ScopeView(home, workspace).physical(parse_file_path(f"{HARVEST_DIR}/1.json"))
    assert home.classify(harvest) == PathPlace(PathKind.WORKSPACE_SCOPE, "w1", harvest=True)
    assert home.classify(harvest.parent) == PathPlace(PathKind.WORKSPACE_SCOPE, "w1", harvest=True)


def test_history_indexes_are_named_by_the_scope_key_history_uses(tmp_path: Path) -> None:
    from memtab.store.history.versions import index_path, scope_key
    from memtab.store.paths import Scope

    home = Home(tmp_path / "home")
    for key in (
        scope_key(Scope.GLOBAL, project_path=None, workspace_id=None),
        scope_key(Scope.PROJECT, project_path="/src/app", workspace_id=None),
        scope_key(Scope.WORKSPACE, project_path=None, workspace_id="w1"),
    ):
        assert home.classify(index_path(home, key)) == PathPlace(PathKind.HISTORY_INDEX, key)
