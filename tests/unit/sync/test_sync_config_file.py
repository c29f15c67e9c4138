"""config.json (docs/formats.md §18.2) is read leniently and changed without loss: a bad
target or scope is dropped without hiding the others, a bad machine or branch reads as
its default, and fields Memtab does not know are written back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.sync.repository.layout import (
    DEFAULT_BRANCH,
    SyncPaths,
    Target,
    default_machine_name,
    load_config,
    parse_scope,
    remove_target,
    save_target,
)


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    SyncPaths(home).config.parent.mkdir(parents=True)
    return home


def _write(home: Home, document: object) -> None:
    SyncPaths(home).config.write_text(json.dumps(document), encoding="utf-8")


def _read(home: Home) -> object:
    return json.loads(SyncPaths(home).config.read_text(encoding="utf-8"))


GOOD_TARGET = {
    "name": "memory",
    "remote": "git@x:m.git",
    "branch": "trunk",
    "scopes": [
        {"scope": "global"},
        {"scope": "project", "path": "/src/app", "name": "app"},
        {"scope": "workspace", "id": "ws1", "name": "main"},
    ],
}


def test_a_good_file_reads_whole(home: Home) -> None:
    _write(home, {"version": 1, "machine": "laptop", "targets": [GOOD_TARGET]})
    config = load_config(home)
    assert config.machine == "laptop" and config.problem is None
    (target,) = config.targets
    assert (target.name, target.remote, target.branch) == ("memory", "git@x:m.git", "trunk")
    assert [(s.kind, s.name, s.key, s.label) for s in target.scopes] == [
        ("global", "global", None, "global"),
        ("project", "app", "/src/app", "project:/src/app"),
        ("workspace", "main", "ws1", "workspace:ws1"),
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "not a target",
        None,
        {"remote": "git@x:y.git"},
        {"name": "bad name!", "remote": "git@x:y.git"},
        {"name": "..", "remote": "git@x:y.git"},
        {"name": 3, "remote": "git@x:y.git"},
        {"name": "other", "remote": ""},
        {"name": "other", "remote": ["git@x:y.git"]},
    ],
)
def test_a_bad_target_is_dropped_the_others_kept(home: Home, bad: object) -> None:
    _write(home, {"machine": "laptop", "targets": [bad, GOOD_TARGET]})
    assert [t.name for t in load_config(home).targets] == ["memory"]


@pytest.mark.parametrize(
    "bad",
    [
        "global",
        {"scope": "everything"},
        {"scope": "project", "name": "app"},
        {"scope": "project", "path": 3, "name": "app"},
        {"scope": "project", "path": "/src/x", "name": "bad name!"},
        {"scope": "project", "path": "/src/x"},
        {"scope": "workspace", "path": "/src/x", "name": "w"},
        {"scope": "workspace", "id": "ws9", "name": 5},
    ],
)
def test_a_bad_scope_is_dropped_the_others_kept(home: Home, bad: object) -> None:
    target = {**GOOD_TARGET, "scopes": [bad, *GOOD_TARGET["scopes"]]}  # type: ignore[list-item]
    _write(home, {"targets": [target]})
    (read,) = load_config(home).targets
    assert [s.label for s in read.scopes] == [
        "global",
        "project:/src/app",
        "workspace:ws1",
    ]


def test_a_scope_keeps_only_what_its_kind_has(home: Home) -> None:
    scopes = [
        {"scope": "global", "name": "bad name!", "path": "/x", "id": 4},
        {"scope": "project", "path": "/src/app", "id": "stray", "name": "app"},
    ]
    _write(home, {"targets": [{**GOOD_TARGET, "scopes": scopes}]})
    (target,) = load_config(home).targets
    assert [(s.kind, s.name, s.key) for s in target.scopes] == [
        ("global", "global", None),
        ("project", "app", "/src/app"),
    ]


@pytest.mark.parametrize("branch", [None, "", 7, ["main"]])
@pytest.mark.parametrize("scopes", [None, "global", {"scope": "global"}, 3])
def test_a_bad_branch_or_scope_list_reads_as_its_default(
    home: Home, branch: object, scopes: object
) -> None:
    _write(home, {"targets": [{"name": "m", "remote": "r", "branch": branch, "scopes": scopes}]})
    (target,) = load_config(home).targets
    assert target.branch == DEFAULT_BRANCH and target.scopes == ()


@pytest.mark.parametrize("document", [{}, {"machine": ""}, {"machine": "  "}, {"machine": 3}])
@pytest.mark.parametrize("targets", [None, "memory", {"name": "memory"}, 5])
def test_a_bad_machine_or_target_list_reads_as_its_default(
    home: Home, document: dict[str, object], targets: object
) -> None:
    _write(home, {**document, "targets": targets})
    config = load_config(home)
    assert config.machine == default_machine_name() and config.targets == ()
    assert config.problem is None


@pytest.mark.parametrize("text", ['{"targets": [', "[1, 2]", '"config"'])
def test_a_file_that_is_no_object_is_a_problem_not_a_crash(home: Home, text: str) -> None:
    SyncPaths(home).config.write_text(text, encoding="utf-8")
    config = load_config(home)
    assert config.targets == () and config.problem and "cannot be read" in config.problem


def test_a_problem_key_in_the_file_is_not_taken_for_one(home: Home) -> None:
    _write(home, {"problem": "made up", "targets": [GOOD_TARGET]})
    assert load_config(home).problem is None


def test_saving_a_target_keeps_what_memtab_does_not_know(home: Home) -> None:
    unreadable = {"name": "bad name!", "remote": "r", "later": 1}
    other = {**GOOD_TARGET, "name": "other", "scopes": [], "color": "blue"}
    _write(home, {"version": 1, "machine": "laptop", "extra": {"a": [1]}, "targets": [
        unreadable, other
    ]})  # fmt: skip
    target = Target(
        name="memory",
        remote="git@x:m.git",
        branch="trunk",
        scopes=(parse_scope("project:/src/app=app"),),
    )
    save_target(home, target)
    assert _read(home) == {
        "version": 1,
        "machine": "laptop",
        "extra": {"a": [1]},
        "targets": [
            unreadable,
            other,
            {
                "name": "memory",
                "remote": "git@x:m.git",
                "branch": "trunk",
                "scopes": [{"scope": "project", "path": "/src/app", "name": "app"}],
            },
        ],
    }
    remove_target(home, "other")
    assert [t["name"] for t in _read(home)["targets"]] == ["bad name!", "memory"]  # type: ignore[index]


def test_a_target_is_written_in_the_files_order(home: Home) -> None:
    _write(home, {"machine": "laptop", "targets": [GOOD_TARGET]})
    save_target(home, load_config(home).target("memory"))
    assert json.dumps(_read(home)["targets"][0]) == json.dumps(GOOD_TARGET)  # type: ignore[index]
