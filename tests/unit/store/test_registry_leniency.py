"""The registry (docs/formats.md §2) and extensionMetadata.json are mux's files: Memtab
reads them as mux does — a workspace's text field of the wrong type reads as absent, a bad
item of its `projects` is dropped, a recency entry mux would not read gives nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.store.home import Home, HomeError
from memtab.store.sidecars.registry import add_project, add_workspace, load_recency, load_registry


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    home.config_path.parent.mkdir(parents=True, exist_ok=True)
    return home


def _registry(home: Home, workspace: object, task_settings: object = None) -> None:
    document: dict[str, object] = {"projects": [["/src/app", {"workspaces": [workspace]}]]}
    if task_settings is not None:
        document["taskSettings"] = task_settings
    home.config_path.write_text(json.dumps(document), encoding="utf-8")


def test_a_workspaces_fields_read_whole(home: Home) -> None:
    _registry(home, {
        "id": "abc123", "name": "main", "path": "/src/app/wt", "title": "Main",
        "parentWorkspaceId": "p1", "createdAt": "2026-01-01T00:00:00Z",
        "archivedAt": "2026-01-02T00:00:00Z", "unarchivedAt": "2026-01-03T00:00:00Z",
        "kind": "task", "sideChatParentWorkspaceId": "s1", "memoryOwnerWorkspaceId": "m1",
        "projects": [{"projectPath": "/src/app"}, {"projectPath": "/src/lib"}], "extra": 1,
    })  # fmt: skip
    (ws,) = load_registry(home).workspaces
    assert (ws.id, ws.name, ws.path, ws.title, ws.parent_id) == (
        "abc123", "main", "/src/app/wt", "Main", "p1"
    )  # fmt: skip
    assert (ws.created_at, ws.archived_at, ws.unarchived_at) == (
        "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"
    )  # fmt: skip
    assert (ws.kind, ws.side_chat_parent_id, ws.pinned_notebook_id) == ("task", "s1", "m1")
    assert ws.projects == ("/src/app", "/src/lib") and not ws.archived


@pytest.mark.parametrize("bad", [3, None, "", "   ", ["x"], {"a": 1}, True])
def test_a_text_field_of_the_wrong_type_reads_as_absent(home: Home, bad: object) -> None:
    keys = ("title", "parentWorkspaceId", "createdAt", "archivedAt", "unarchivedAt", "kind",
            "sideChatParentWorkspaceId", "memoryOwnerWorkspaceId", "path")  # fmt: skip
    _registry(home, {"id": "abc123", "name": bad, **dict.fromkeys(keys, bad)})
    (ws,) = load_registry(home).workspaces
    assert (ws.id, ws.name, ws.path) == ("abc123", "abc123", "")
    assert ws.title is ws.parent_id is ws.created_at is ws.archived_at is None
    assert ws.unarchived_at is ws.kind is ws.side_chat_parent_id is ws.pinned_notebook_id is None


@pytest.mark.parametrize(
    ("projects", "expected"),
    [
        ("/src/x", ()),
        ({"projectPath": "/src/x"}, ()),
        ([{"projectPath": "/a"}, "/b", {"projectPath": 3}, {}, None, {"projectPath": "/c"}],
         ("/a", "/c")),
    ],
)  # fmt: skip
def test_a_bad_project_item_is_dropped(
    home: Home, projects: object, expected: tuple[str, ...]
) -> None:
    _registry(home, {"id": "abc123", "name": "w", "projects": projects})
    assert load_registry(home).workspaces[0].projects == expected


def test_a_workspace_without_a_usable_id_is_named_by_its_session_dir(home: Home) -> None:
    home.workspace_dir("legacy1").mkdir(parents=True)
    _registry(home, {"id": "not an id!", "name": "legacy1"})
    assert [ws.id for ws in load_registry(home).workspaces] == ["legacy1"]
    _registry(home, {"id": 5, "name": 3, "path": "/src/app/legacy1/"})
    assert [ws.id for ws in load_registry(home).workspaces] == ["legacy1"]
    _registry(home, {"name": "unknown2"})
    assert load_registry(home).workspaces == ()


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"memoryWriterIntervalMessages": 7}, 7),
        ({"memoryWriterIntervalMessages": 7.9}, 7),
        ({"memoryWriterIntervalMessages": 0}, 1),
        ({"memoryWriterIntervalMessages": 500}, 50),
        ({"memoryWriterIntervalMessages": "7"}, 2),
        ({"memoryWriterIntervalMessages": True}, 2),
        ({"memoryWriterIntervalMessages": None}, 2),
        ({}, 2),
        ([7], 2),
        ("7", 2),
    ],
)
def test_the_writer_interval_reads_as_mux_normalizes_it(
    home: Home, settings: object, expected: int
) -> None:
    _registry(home, {"id": "abc123", "name": "w"}, task_settings=settings)
    assert load_registry(home).writer_interval == expected


def _recency(home: Home, document: object) -> dict[str, int]:
    home.extension_metadata_path.parent.mkdir(parents=True, exist_ok=True)
    home.extension_metadata_path.write_text(json.dumps(document), encoding="utf-8")
    return load_recency(home)


def test_recency_reads_the_entries_mux_reads(home: Home) -> None:
    assert _recency(home, {"version": 1, "workspaces": {
        "a": {"recency": 5, "streaming": False},
        "b": {"recency": 7.9, "streaming": True, "other": 1},
        "c": {"recency": "5", "streaming": False},
        "d": {"recency": 5},
        "e": {"recency": 5, "streaming": "no"},
        "f": {"recency": None, "streaming": False},
        "g": "x",
        "h": {"recency": True, "streaming": False},
    }}) == {"a": 5, "b": 7}  # fmt: skip


@pytest.mark.parametrize(
    "document",
    [
        {"workspaces": {"a": {"recency": 5, "streaming": False}}},
        {"version": 2, "workspaces": {"a": {"recency": 5, "streaming": False}}},
        {"version": "1", "workspaces": {"a": {"recency": 5, "streaming": False}}},
        {"version": 1, "workspaces": [{"recency": 5, "streaming": False}]},
        {"version": 1},
        [1],
    ],
)
def test_recency_of_a_file_mux_would_not_read_is_none(home: Home, document: object) -> None:
    assert _recency(home, document) == {}


# --- the `[projectPath, config]` pairs (§2.1) and what adding writes ------------------------


def _projects(home: Home, projects: object) -> None:
    home.config_path.write_text(json.dumps({"projects": projects}), encoding="utf-8")


def test_a_pair_that_is_not_a_path_and_an_object_is_skipped_and_noted(home: Home) -> None:
    _projects(home, [
        "not a pair", [1, {}], ["/only-a-path"], ["/bad-config", "no"], ["/three", {}, 3],
        {"/an": "object"}, None, ["/", {}], ["/ok/", {"displayName": 7, "more": [1]}],
        ["/ok", {"displayName": "OK", "workspaces": "no"}],
    ])  # fmt: skip
    registry = load_registry(home)
    assert [(p.path, p.display_name) for p in registry.projects] == [("/ok", "OK")]
    assert registry.problems == (
        *["config.json: skipped a malformed project entry"] * 7,
        "config.json: skipped the project '/' (no path)",
        "config.json: '/ok' is registered twice; like mux, only its last entry is used",
    )


def test_a_display_name_that_is_no_text_reads_as_the_paths_last_name(home: Home) -> None:
    _projects(home, [["/src/app", {"displayName": 3}], ["/src/lib", {"displayName": "  "}]])
    assert [p.display_name for p in load_registry(home).projects] == ["app", "lib"]


def test_adding_writes_the_pair_and_the_workspace_as_before(home: Home) -> None:
    _projects(home, [["/src/app", {"workspaces": [], "x": 1}, "kept as it is"]])
    with pytest.raises(HomeError, match="malformed"):
        add_workspace(home, "/src/app", "w")
    _projects(home, [["/src/app", {"x": 1}]])
    add_workspace(home, "/src/app/", "w", workspace_id="abc123")
    add_workspace(home, "/src/new", "n", workspace_id="def456", workspace_path="/wt/n")
    add_project(home, "/src/named/", "Named")
    projects = json.loads(home.config_path.read_text(encoding="utf-8"))["projects"]
    assert [(path, list(config)) for path, config in projects] == [
        ("/src/app", ["x", "workspaces"]), ("/src/new", ["workspaces"]),
        ("/src/named", ["workspaces", "displayName"]),
    ]  # fmt: skip
    added = projects[0][1]["workspaces"][0]
    assert list(added) == ["path", "id", "name", "createdAt"]
    assert added["path"] == "/src/app" and added["createdAt"].endswith("Z")
    assert projects[1][1]["workspaces"][0]["path"] == "/wt/n"
    assert projects[2][1]["displayName"] == "Named"
