"""Exact parity with mux's registry reading (docs/formats.md §2): normalized project paths, one key
per project, and the project identity mux's memory tool gives each workspace."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.paths import Scope, normalize_project_path, project_dir_name
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.meta import MetaStore, project_key
from memtab.store.sidecars.registry import (
    MULTI_PROJECT_KEY,
    add_project,
    add_workspace,
    load_registry,
    orphan_project_dirs,
)

from .helpers import FakeClock, ok, write_config

POSIX = sys.platform != "win32"


def _hash12(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _config(*projects: tuple[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {"projects": [[path, {"workspaces": workspaces}] for path, workspaces in projects]}


def _ws(workspace_id: str, path: str = "/w", **extra: Any) -> dict[str, Any]:
    return {"path": path, "id": workspace_id, "name": workspace_id, **extra}


# --- project paths as mux's config loader normalizes them ----------------------------------


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("/home/alice/trail/", "/home/alice/trail"),
        ("/home/alice/trail//", "/home/alice/trail"),
        ("/home/alice/trail\\", "/home/alice/trail"),
        ("/home/alice/trail/\\/", "/home/alice/trail"),
        ("/home/a/weird\\name", "/home/a/weird\\name"),
        ("/", ""),
        ("C:\\code\\repo\\", "C:\\code\\repo"),
    ],
)
def test_normalize_project_path_strips_trailing_separators(raw: str, normalized: str) -> None:
    assert normalize_project_path(raw) == normalized


def test_a_trailing_slash_key_is_the_project_without_it(home: Home, clock: FakeClock) -> None:
    write_config(home, _config(("/home/alice/trail/", [_ws("w1")])))
    registry = load_registry(home)
    (project,) = registry.projects
    assert project.path == "/home/alice/trail" and project.display_name == "trail"
    assert project.dir_name == "trail-" + _hash12("/home/alice/trail")
    workspace = registry.require_workspace("w1")
    assert workspace.project_identity == "/home/alice/trail"
    tool = MemoryTool(MemoryStore(home, workspace, clock=clock))
    ok(tool.execute({"command": "create", "path": "/memories/project/a.md", "file_text": "x"}))
    assert (home.projects_root / project.dir_name / "a.md").is_file()
    assert project_key("/home/alice/trail", "a.md") in MetaStore(home).load()


@pytest.mark.skipif(not POSIX, reason="on Windows `\\` separates, as in mux")
def test_a_backslash_is_part_of_the_name_on_posix(home: Home) -> None:
    write_config(home, _config(("/home/a/weird\\name", [_ws("w1")])))
    (project,) = load_registry(home).projects
    assert project.dir_name == "weird_name-" + _hash12("/home/a/weird\\name")
    assert project.display_name == "weird\\name"


def test_a_root_key_is_dropped_as_mux_drops_it(home: Home) -> None:
    write_config(home, _config(("/", [_ws("w1")]), ("/p", [_ws("w2")])))
    registry = load_registry(home)
    assert [p.path for p in registry.projects] == ["/p"]
    assert any("'/'" in problem for problem in registry.problems)


def test_keys_that_normalize_alike_are_one_project_with_the_last_config(home: Home) -> None:
    # mux builds `new Map(pairs)`: the first key's place, the last entry's value.
    write_config(home, _config(("/p/", [_ws("w1")]), ("/q", [_ws("w3")]), ("/p", [_ws("w2")])))
    registry = load_registry(home)
    assert [p.path for p in registry.projects] == ["/p", "/q"]
    assert [w.id for w in registry.projects[0].workspaces] == ["w2"]
    assert any("registered twice" in problem for problem in registry.problems)


def test_adding_a_workspace_does_not_add_a_second_key_for_the_same_project(home: Home) -> None:
    write_config(home, _config(("/p/", [_ws("w1")])))
    add_workspace(home, "/p", "second", workspace_id="w2")
    assert add_project(home, "/p//") is False
    document = json.loads(home.config_path.read_text())
    assert [entry[0] for entry in document["projects"]] == ["/p/"]
    assert [w["id"] for w in document["projects"][0][1]["workspaces"]] == ["w1", "w2"]
    registry = load_registry(home)
    assert {w.id: w.project_identity for w in registry.workspaces} == {"w1": "/p", "w2": "/p"}


def test_cli_workspace_add_uses_the_existing_project_key(
    home: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "proj"
    write_config(home, _config((f"{project}/", [_ws("w1")])))
    status = main(
        ["--home", str(home.root), "workspace", "add", "--project", str(project), "--name", "x"]
    )
    assert status == 0
    document = json.loads(home.config_path.read_text())
    assert len(document["projects"]) == 1 and len(document["projects"][0][1]["workspaces"]) == 2
    status = main(["--home", str(home.root), "project", "add", f"{project}/"])
    assert status == 0 and "already registered" in capsys.readouterr().out
    assert len(json.loads(home.config_path.read_text())["projects"]) == 1


def test_new_projects_are_registered_normalized(home: Home) -> None:
    assert add_project(home, "/new/project/") is True
    assert json.loads(home.config_path.read_text())["projects"][0][0] == "/new/project"
    with pytest.raises(Exception, match="must name a directory"):
        add_project(home, "/")


# --- project identity as mux's memory tool resolves it --------------------------------------


def test_a_workspace_with_one_listed_project_uses_that_project(
    home: Home, clock: FakeClock
) -> None:
    write_config(
        home,
        _config(
            ("/parent", [_ws("w1", projects=[{"projectPath": "/other", "projectName": "o"}])]),
            (MULTI_PROJECT_KEY, [_ws("w2", projects=[{"projectPath": "/solo"}])]),
        ),
    )
    registry = load_registry(home)
    one = registry.require_workspace("w1")
    assert one.project_identity == "/other" and not one.multi_project
    assert registry.require_workspace("w2").project_identity == "/solo"
    store = MemoryStore(home, one, clock=clock)
    assert store.root(Scope.PROJECT) == home.projects_root / project_dir_name("/other")


def test_a_scratch_workspace_uses_its_own_path(home: Home, clock: FakeClock) -> None:
    scratch = "/home/u/.xum/scratch/abc123"
    write_config(
        home,
        _config(("_scratch", [_ws("s1", scratch, kind="scratch", name="scratch-s1")])),
    )
    workspace = load_registry(home).require_workspace("s1")
    assert workspace.project_identity == scratch and workspace.project_name == "Scratch"
    tool = MemoryTool(MemoryStore(home, workspace, clock=clock))
    ok(tool.execute({"command": "create", "path": "/memories/project/n.md", "file_text": "x"}))
    assert (home.projects_root / f"abc123-{_hash12(scratch)}" / "n.md").is_file()


@pytest.mark.parametrize(
    "workspace",
    [
        _ws("m", projects=[{"projectPath": "/a"}, {"projectPath": "/b"}]),
        _ws("m"),  # under `_multi` with no projects named
    ],
)
def test_multi_project_workspaces_have_no_project_identity(
    home: Home, workspace: dict[str, Any]
) -> None:
    write_config(home, _config((MULTI_PROJECT_KEY, [workspace])))
    resolved = load_registry(home).require_workspace("m")
    assert resolved.project_identity is None and resolved.multi_project


def test_dirs_that_workspaces_use_are_not_orphans(home: Home) -> None:
    scratch = "/home/u/.xum/scratch/abc123"
    write_config(
        home,
        _config(
            ("/parent", [_ws("w1", projects=[{"projectPath": "/other"}])]),
            ("_scratch", [_ws("s1", scratch, kind="scratch")]),
        ),
    )
    used = [project_dir_name("/other"), project_dir_name(scratch)]
    for name in [*used, "gone-0123456789ab"]:
        (home.projects_root / name).mkdir(parents=True)
    assert orphan_project_dirs(home, load_registry(home)) == ["gone-0123456789ab"]
