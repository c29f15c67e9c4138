"""components.activity.change_batch: a watcher batch classified once, without Qt."""

from __future__ import annotations

import os
from pathlib import Path

from memtab.components.activity.change_batch import ChangeBatch
from memtab.store.home import Home, PathKind, PathPlace

HOME = "/home/alice/.mux"


def summary(*rels: str) -> ChangeBatch:
    return ChangeBatch.classify(
        [os.path.join(HOME, rel) if rel else HOME for rel in rels], Home(Path(HOME))
    )


def test_summary_answers_per_scope_and_per_item() -> None:
    batch = summary(
        "memory/project/mux-0123456789ab/a.md", "sessions/a1b2c3d4e5/chat.jsonl", "config.json"
    )
    assert batch.affects(PathKind.PROJECT_SCOPE, "mux-0123456789ab")
    assert batch.affects(PathKind.PROJECT_SCOPE)
    assert not batch.affects(PathKind.PROJECT_SCOPE, "other-ffffffffffff")
    assert not batch.affects(PathKind.GLOBAL_SCOPE)
    assert batch.affects(PathKind.CHAT_TRANSCRIPT, "a1b2c3d4e5")
    assert not batch.affects(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5")
    assert batch.affects(PathKind.CONFIG)
    assert not batch.affects(PathKind.CONSOLIDATION_JOURNAL)
    assert batch.keys(PathKind.PROJECT_SCOPE) == {"mux-0123456789ab"}


def test_summary_containers_affect_what_they_hold() -> None:
    assert summary("memory").affects(PathKind.GLOBAL_SCOPE)
    assert summary("memory").affects(PathKind.PROJECT_SCOPE, "any-0123456789ab")
    assert summary("memory/project").affects(PathKind.PROJECT_SCOPE, "any-0123456789ab")
    assert not summary("memory/project").affects(PathKind.GLOBAL_SCOPE)
    deleted_workspace = summary("sessions/a1b2c3d4e5")
    assert deleted_workspace.affects(PathKind.WORKSPACE_SCOPE, "a1b2c3d4e5")
    assert deleted_workspace.affects(PathKind.WRITER_STATE, "a1b2c3d4e5")
    assert not deleted_workspace.affects(PathKind.WORKSPACE_SCOPE, "ffffffffff")
    assert summary("").affects(PathKind.MEMORY_META), "the home itself means everything"
    assert not summary().affects(PathKind.GLOBAL_SCOPE)


def test_each_path_keeps_its_place_in_order() -> None:
    batch = summary("memory/global/a.md", "debug_obj", "elsewhere.txt", "")
    assert batch.paths == (
        f"{HOME}/memory/global/a.md",
        f"{HOME}/debug_obj",
        f"{HOME}/elsewhere.txt",
        HOME,
    )
    assert list(batch.items()) == list(zip(batch.paths, batch.places, strict=True))
    assert batch.places[0] == PathPlace(PathKind.GLOBAL_SCOPE)
    assert batch.kinds == {
        PathKind.GLOBAL_SCOPE,
        PathKind.WRITER_TRACES,
        PathKind.OTHER,
        PathKind.HOME,
    }
    assert batch.everything
    assert not summary("memory/global/a.md").everything
