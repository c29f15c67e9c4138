"""The home's registry (docs/formats.md §2.1, §2.2): what config.json says, and adding to it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from memtab.store.home import Home, HomeError
from memtab.store.paths import project_dir_name
from memtab.store.sidecars.registry import (
    DEFAULT_WRITER_INTERVAL,
    MULTI_PROJECT_KEY,
    add_project,
    add_workspace,
    load_recency,
    load_registry,
    orphan_project_dirs,
)

from .helpers import write, write_config

# --- the registry ----------------------------------------------------------------------

ALPHA = "/work/alpha"
BETA = "/work/beta"


def _registry_document() -> dict[str, Any]:
    return {
        "projects": [
            [
                ALPHA,
                {
                    "displayName": "Alpha",
                    "workspaces": [
                        {"path": "/w/a1", "id": "aaaaaaaaa1", "name": "feature", "title": "Feat"},
                        {
                            "path": "/w/a2",
                            "id": "aaaaaaaaa2",
                            "name": "archived",
                            "archivedAt": "2026-01-02T00:00:00.000Z",
                        },
                        {
                            "path": "/w/a3",
                            "id": "aaaaaaaaa3",
                            "name": "unarchived",
                            "archivedAt": "2026-01-02T00:00:00.000Z",
                            "unarchivedAt": "2026-01-03T00:00:00.000Z",
                        },
                        {
                            "path": "/w/a4",
                            "id": "aaaaaaaaa4",
                            "name": "rearchived",
                            "archivedAt": "2026-01-05T00:00:00.000Z",
                            "unarchivedAt": "2026-01-03T00:00:00.000Z",
                        },
                        {
                            "path": "/w/a5",
                            "id": "aaaaaaaaa5",
                            "name": "child",
                            "parentWorkspaceId": "aaaaaaaaa1",
                        },
                        {
                            "path": "/w/a6",
                            "id": "aaaaaaaaa6",
                            "name": "two-projects",
                            "projects": [
                                {"projectPath": ALPHA, "projectName": "alpha"},
                                {"projectPath": BETA, "projectName": "beta"},
                            ],
                        },
                        {
                            "path": "/w/a7",
                            "id": "aaaaaaaaa7",
                            "name": "one-project-list",
                            "projects": [{"projectPath": ALPHA, "projectName": "alpha"}],
                        },
                    ],
                },
            ],
            [MULTI_PROJECT_KEY, {"workspaces": [{"path": "/w/m", "id": "mmmmmmmmm1"}]}],
            [BETA, {"workspaces": [{"path": "/w/b1", "id": "bbbbbbbbb1", "name": "b"}]}],
        ]
    }


@pytest.fixture
def registry_home(home: Home) -> Home:
    write_config(home, _registry_document())
    return home


def test_registry_lists_projects_and_workspaces_in_order(registry_home: Home) -> None:
    registry = load_registry(registry_home)
    assert [p.path for p in registry.projects] == [ALPHA, MULTI_PROJECT_KEY, BETA]
    assert [w.id for w in registry.project(ALPHA).workspaces] == [  # type: ignore[union-attr]
        f"aaaaaaaaa{n}" for n in range(1, 8)
    ]
    assert registry.problems == ()


def test_project_display_name_defaults_to_the_basename(registry_home: Home) -> None:
    registry = load_registry(registry_home)
    assert registry.project(ALPHA).display_name == "Alpha"  # type: ignore[union-attr]
    assert registry.project(BETA).display_name == "beta"  # type: ignore[union-attr]


def test_workspace_fields_are_read(registry_home: Home) -> None:
    workspace = load_registry(registry_home).require_workspace("aaaaaaaaa1")
    assert (workspace.name, workspace.title, workspace.path) == ("feature", "Feat", "/w/a1")
    assert (workspace.project_path, workspace.project_name) == (ALPHA, "Alpha")
    assert workspace.display_name == "Feat"


@pytest.mark.parametrize(
    ("workspace_id", "archived"),
    [
        ("aaaaaaaaa1", False),  # never archived
        ("aaaaaaaaa2", True),  # archivedAt, no unarchivedAt
        ("aaaaaaaaa3", False),  # unarchived after it was archived
        ("aaaaaaaaa4", True),  # archived again after the unarchive
    ],
)
def test_archived_means_archived_at_later_than_unarchived_at(
    registry_home: Home, workspace_id: str, archived: bool
) -> None:
    assert load_registry(registry_home).require_workspace(workspace_id).archived is archived


def test_child_workspace_keeps_its_parent_id(registry_home: Home) -> None:
    registry = load_registry(registry_home)
    assert registry.require_workspace("aaaaaaaaa5").parent_id == "aaaaaaaaa1"
    assert registry.require_workspace("aaaaaaaaa1").parent_id is None


@pytest.mark.parametrize(
    ("workspace_id", "identity"),
    [
        ("aaaaaaaaa1", ALPHA),
        ("aaaaaaaaa6", None),  # `projects` lists two projects
        ("aaaaaaaaa7", ALPHA),  # a one-element `projects` list is still single-project
        ("mmmmmmmmm1", None),  # registered under the synthetic `_multi` key
    ],
)
def test_multi_project_workspaces_have_no_project_identity(
    registry_home: Home, workspace_id: str, identity: str | None
) -> None:
    workspace = load_registry(registry_home).require_workspace(workspace_id)
    assert workspace.project_identity == identity
    assert workspace.multi_project is (identity is None)


def test_a_sub_projects_workspaces_belong_to_its_top_level_project(home: Home) -> None:
    # mux (src/common/utils/subProjects.ts deriveProjectHierarchy, then loadConfigOrDefault)
    # moves the workspaces of a project inside another registered project into the
    # outermost one when it loads config.json: their project memory is the outer one's.
    def workspace(workspace_id: str) -> dict[str, str]:
        return {"path": f"/w/{workspace_id}", "id": workspace_id, "name": workspace_id}

    write_config(
        home,
        {
            "projects": [
                ["/repo/packages/api/", {"workspaces": [workspace("aaaaaaaaa2")]}],
                ["/repo", {"workspaces": [workspace("aaaaaaaaa1")]}],
                ["/repo/packages", {"workspaces": [workspace("aaaaaaaaa3")]}],
                ["/repository", {"workspaces": [workspace("bbbbbbbbb1")]}],
                [
                    "/other",
                    {
                        "workspaces": [
                            {
                                **workspace("ccccccccc1"),
                                "projects": [
                                    {"projectPath": "/repo/packages/api", "projectName": "api"}
                                ],
                            }
                        ]
                    },
                ],
            ]
        },
    )
    registry = load_registry(home)
    by_path = {project.path: [ws.id for ws in project.workspaces] for project in registry.projects}
    assert by_path == {
        "/repo/packages/api": [],
        "/repo": ["aaaaaaaaa1", "aaaaaaaaa2", "aaaaaaaaa3"],
        "/repo/packages": [],
        "/repository": ["bbbbbbbbb1"],  # a longer name, not a folder inside /repo
        "/other": ["ccccccccc1"],
    }
    identity = {ws.id: ws.project_identity for ws in registry.workspaces}
    assert identity == {
        "aaaaaaaaa1": "/repo",
        "aaaaaaaaa2": "/repo",
        "aaaaaaaaa3": "/repo",
        "bbbbbbbbb1": "/repository",
        "ccccccccc1": "/repo/packages/api",  # its own `projects` list still decides
    }
    assert {ws.project_name for ws in registry.workspaces if ws.id.startswith("a")} == {"repo"}


def test_legacy_workspace_without_id_and_session_dir_is_skipped(home: Home) -> None:
    write_config(
        home,
        {"projects": [[ALPHA, {"workspaces": [{"path": "/w/old", "name": "old"}]}]]},
    )
    assert load_registry(home).workspaces == ()


@pytest.mark.parametrize(
    ("entry", "session_dir"),
    [
        ({"path": "/w/legacy-branch", "name": "legacy-branch"}, "legacy-branch"),
        ({"path": "/w/by-path"}, "by-path"),  # no name: the path's basename
    ],
)
def test_legacy_workspace_without_id_matches_its_session_dir(
    home: Home, entry: dict[str, str], session_dir: str
) -> None:
    write_config(home, {"projects": [[ALPHA, {"workspaces": [entry]}]]})
    home.workspace_dir(session_dir).mkdir(parents=True)
    assert [w.id for w in load_registry(home).workspaces] == [session_dir]


def test_malformed_entries_are_skipped_without_hiding_the_rest(home: Home) -> None:
    write_config(
        home,
        {
            "projects": [
                "not a pair",
                [1, {"workspaces": []}],
                ["/only-a-path"],
                ["/bad-config", "not an object"],
                [
                    "/ok",
                    {
                        "workspaces": [
                            42,
                            "text",
                            {"id": "bad id!", "path": "/w/x"},
                            {"id": "0123456789", "path": "/w/ok", "name": "ok"},
                        ]
                    },
                ],
                ["/workspaces-not-a-list", {"workspaces": {"id": "x"}}],
            ]
        },
    )
    registry = load_registry(home)
    assert [p.path for p in registry.projects] == ["/ok", "/workspaces-not-a-list"]
    assert [w.id for w in registry.workspaces] == ["0123456789"]
    assert len(registry.problems) >= 4


def test_projects_that_is_not_a_list_gives_an_empty_registry_with_a_problem(home: Home) -> None:
    write_config(home, {"projects": {"a": 1}})
    registry = load_registry(home)
    assert registry.projects == ()
    assert registry.problems


def test_missing_config_is_an_empty_registry(home: Home) -> None:
    registry = load_registry(home)
    assert registry.projects == ()
    assert registry.writer_interval == DEFAULT_WRITER_INTERVAL
    assert not home.root.exists()


@pytest.mark.parametrize(
    "text", ["{not json", "[1, 2]", '"a string"', "\udcff".encode("utf-8", "surrogateescape")]
)
def test_corrupt_config_raises_home_error_naming_the_file(home: Home, text: str | bytes) -> None:
    write(home.config_path, text)
    with pytest.raises(HomeError) as failure:
        load_registry(home)
    assert str(home.config_path) in str(failure.value)


def test_require_unknown_workspace_names_it(registry_home: Home) -> None:
    with pytest.raises(HomeError, match="nope"):
        load_registry(registry_home).require_workspace("nope")


@pytest.mark.parametrize(
    ("settings", "interval"),
    [
        (None, 2),
        ({}, 2),
        ({"memoryWriterIntervalMessages": 5}, 5),
        ({"memoryWriterIntervalMessages": 1}, 1),
        ({"memoryWriterIntervalMessages": 50}, 50),
        ({"memoryWriterIntervalMessages": 0}, 1),
        ({"memoryWriterIntervalMessages": -7}, 1),
        ({"memoryWriterIntervalMessages": 51}, 50),
        ({"memoryWriterIntervalMessages": 10_000}, 50),
        ({"memoryWriterIntervalMessages": 3.9}, 3),
        ({"memoryWriterIntervalMessages": "7"}, 2),
        ({"memoryWriterIntervalMessages": True}, 2),
        ({"memoryWriterIntervalMessages": None}, 2),
        ({"memoryWriterIntervalMessages": float("nan")}, 2),
        ({"memoryWriterIntervalMessages": float("inf")}, 2),
        ("not an object", 2),
    ],
)
def test_writer_interval_defaults_to_2_and_clamps_to_1_50(
    home: Home, settings: Any, interval: int
) -> None:
    document: dict[str, Any] = {"projects": []}
    if settings is not None:
        document["taskSettings"] = settings
    write(home.config_path, json.dumps(document))  # json writes NaN/Infinity as mux's JSON5 can
    assert load_registry(home).writer_interval == interval


# --- writing the registry (only adding; every unknown field kept) ----------------------


def _config_full_of_unknown_fields() -> dict[str, Any]:
    return {
        "futureTopLevel": {"nested": [1, 2, {"deep": True}]},
        "taskSettings": {"memoryWriterIntervalMessages": 4, "unknownSetting": "keep"},
        "projects": [
            [
                ALPHA,
                {
                    "workspaces": [
                        {
                            "path": "/w/a1",
                            "id": "aaaaaaaaa1",
                            "name": "feature",
                            "runtimeConfig": {"type": "ssh", "host": "box", "port": 22},
                            "aiSettings": {"model": "x", "thinking": None},
                            "projects": [{"projectPath": ALPHA, "projectName": "a", "x": 1}],
                        }
                    ],
                    "displayName": "Alpha",
                    "sections": [{"id": "s1", "color": "#fff"}],
                    "projectLevelUnknown": 3.5,
                },
            ]
        ],
        "serverSslCert": None,
        "featureFlags": ["a", "b"],
        "unicode": "日本語 🚀",
    }


def _read_config(home: Home) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(home.config_path.read_text(encoding="utf-8"))
    return document


def test_add_workspace_to_existing_project_preserves_unknown_fields(home: Home) -> None:
    original = _config_full_of_unknown_fields()
    write_config(home, original)
    new_id = add_workspace(home, ALPHA, "second", workspace_id="cccccccccc")
    after = _read_config(home)
    added = after["projects"][0][1]["workspaces"].pop()
    assert after == original
    assert added["id"] == new_id == "cccccccccc"
    assert (added["name"], added["path"]) == ("second", ALPHA)
    assert added["createdAt"].endswith("Z")


def test_add_workspace_to_new_project_preserves_unknown_fields(home: Home) -> None:
    original = _config_full_of_unknown_fields()
    write_config(home, original)
    add_workspace(home, BETA, "b", workspace_id="dddddddddd", workspace_path="/w/b")
    after = _read_config(home)
    new_project = after["projects"].pop()
    assert after == original
    assert new_project[0] == BETA
    assert [w["id"] for w in new_project[1]["workspaces"]] == ["dddddddddd"]
    assert load_registry(home).require_workspace("dddddddddd").path == "/w/b"


def test_add_project_preserves_unknown_fields_and_is_idempotent(home: Home) -> None:
    original = _config_full_of_unknown_fields()
    write_config(home, original)
    assert add_project(home, BETA, "Beta!") is True
    assert add_project(home, BETA) is False
    after = _read_config(home)
    assert after["projects"].pop() == [BETA, {"workspaces": [], "displayName": "Beta!"}]
    assert after == original


def test_added_registry_is_written_pretty_and_atomically(home: Home) -> None:
    add_workspace(home, ALPHA, "main", workspace_id="eeeeeeeeee")
    text = home.config_path.read_text(encoding="utf-8")
    assert text.startswith('{\n  "projects": [')
    assert [p.name for p in home.root.iterdir() if p.name.startswith(".")] == []


def test_new_workspace_ids_are_10_hex_chars(home: Home) -> None:
    ids = {add_workspace(home, ALPHA, f"ws{n}") for n in range(5)}
    assert len(ids) == 5
    assert all(len(i) == 10 and all(c in "0123456789abcdef" for c in i) for i in ids)


def test_add_workspace_refuses_a_duplicate_id(home: Home) -> None:
    add_workspace(home, ALPHA, "a", workspace_id="ffffffffff")
    with pytest.raises(HomeError, match="already exists"):
        add_workspace(home, BETA, "b", workspace_id="ffffffffff")


@pytest.mark.parametrize(
    ("project", "name", "workspace_id"),
    [(ALPHA, " ", None), (ALPHA, "x", "has space"), (ALPHA, "x", "../up"), ("  ", "x", None)],
)
def test_add_workspace_rejects_bad_input(
    home: Home, project: str, name: str, workspace_id: str | None
) -> None:
    with pytest.raises(HomeError):
        add_workspace(home, project, name, workspace_id=workspace_id)
    assert not home.config_path.exists()


def test_add_workspace_into_a_malformed_project_entry_is_a_clear_error(home: Home) -> None:
    original = {"projects": [[ALPHA, {"workspaces": "oops"}]], "keep": 1}
    write_config(home, original)
    with pytest.raises(HomeError, match="not a list"):
        add_workspace(home, ALPHA, "x")
    assert _read_config(home) == original


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^config.json could not be used \(not valid JSON"
)
def test_add_workspace_keeps_a_corrupt_config_aside_and_starts_fresh(home: Home) -> None:
    write(home.config_path, "{broken")
    workspace_id = add_workspace(home, ALPHA, "x")
    kept = list(home.root.glob("config.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "{broken"
    assert load_registry(home).require_workspace(workspace_id).project_path == ALPHA


# --- orphans and recency -------------------------------------------------------------


def test_orphan_project_dirs_are_those_matching_no_registered_project(home: Home) -> None:
    original = copy.deepcopy(_registry_document())
    write_config(home, original)
    (home.projects_root / project_dir_name(ALPHA)).mkdir(parents=True)
    (home.projects_root / "gone-0123456789ab").mkdir()
    (home.projects_root / "also-gone-ba9876543210").mkdir()
    (home.projects_root / ".hidden").mkdir()
    write(home.projects_root / "stray-file.md", "x")
    orphans = orphan_project_dirs(home, load_registry(home))
    assert orphans == ["also-gone-ba9876543210", "gone-0123456789ab"]


def test_no_project_root_means_no_orphans(home: Home) -> None:
    assert orphan_project_dirs(home, load_registry(home)) == []


def test_recency_is_read_as_mux_reads_it(home: Home) -> None:
    idle = {"streaming": False}
    write(
        home.extension_metadata_path,
        "\ufeff"
        + json.dumps(
            {
                "version": 1,
                "workspaces": {
                    "ok": {"recency": 1_700_000_000_123, "other": 1, **idle},
                    "float": {"recency": 5.9, **idle},
                    "zero": {"recency": 0, "streaming": True},
                    "no-streaming": {"recency": 7},
                    "text": {"recency": "soon", **idle},
                    "flag": {"recency": True, **idle},
                    "junk": 3,
                },
            }
        ),
    )
    assert load_recency(home) == {"ok": 1_700_000_000_123, "float": 5, "zero": 0}


@pytest.mark.parametrize(
    "content",
    [
        "",
        "[]",
        '{"workspaces": []}',
        "{bad",
        '{"workspaces": {"a": {"recency": 1, "streaming": false}}}',  # no version 1
        # Infinity to mux's JavaScript: no time (and never a crash)
        '{"version": 1, "workspaces": {"a": {"recency": 1' + "0" * 400 + ', "streaming": false}}}',
        '{"version": 1, "workspaces": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ],
)
def test_malformed_recency_is_empty(home: Home, content: str) -> None:
    write(home.extension_metadata_path, content)
    assert load_recency(home) == {}
