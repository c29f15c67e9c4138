"""`fs.globs`: a glob a memory names matches the checkout's files and folders as a
shell's `**` globbing does, on the index and on disk, in bounded time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from memtab.fs import globs
from memtab.fs.globs import indexed_match, matches_on_disk, path_matches


@pytest.mark.parametrize(
    ("name", "pattern", "matches"),
    [
        ("queue.ts", "*.ts", True),
        ("queue.test.ts", "*.test.ts", True),
        ("queue.ts", "*.test.ts", False),
        ("test_api.py", "test_*.py", True),
        ("api_test.py", "test_*.py", False),
        ("", "*", True),
        ("abc", "a*c*", True),
        ("abd", "a*c*", False),
    ],
)
def test_a_star_stands_for_any_run_of_a_names_characters(
    name: str, pattern: str, matches: bool
) -> None:
    assert path_matches(name, pattern) is matches


@pytest.mark.parametrize(
    ("path", "pattern", "matches"),
    [
        ("packages/core/src", "packages/*/src", True),
        ("packages/core/src/index.ts", "packages/*/src", False),
        ("tests/unit/fixtures", "tests/**/fixtures", True),
        ("tests/fixtures", "tests/**/fixtures", True),
        ("tests/a/b/c/fixtures", "tests/**/fixtures", True),
        ("tests/a/b/c/fixture", "tests/**/fixtures", False),
        ("src/a/b.graphql", "src/**/*.graphql", True),
        ("src/b.graphql", "src/**/*.graphql", True),
        ("lib/b.graphql", "src/**/*.graphql", False),
        ("src/a/b", "src/**", True),
    ],
)
def test_two_stars_stand_for_any_folders(path: str, pattern: str, matches: bool) -> None:
    assert path_matches(path, pattern) is matches


def test_a_folder_glob_matches_only_folders_of_the_index() -> None:
    files = ["packages/core/lib", "packages/core/src/index.ts"]
    folders = ["packages", "packages/core", "packages/core/src"]
    assert not indexed_match(files, folders, "packages/*/lib", directory=True)
    assert indexed_match(files, folders, "packages/*/lib", directory=False)
    assert indexed_match(files, folders, "packages/*/src", directory=True)


def test_on_disk_a_glob_is_walked_from_its_first_folder(tmp_path: Path) -> None:
    (tmp_path / "tests" / "unit" / "fixtures").mkdir(parents=True)
    (tmp_path / "tests" / "unit" / "queue.test.ts").write_text("")
    (tmp_path / "node_modules" / "x" / "fixtures").mkdir(parents=True)
    skipped = {"node_modules"}
    assert matches_on_disk(tmp_path, "tests/**/fixtures", True, skipped)
    assert matches_on_disk(tmp_path, "tests/*/*.test.ts", False, skipped)
    assert not matches_on_disk(tmp_path, "tests/**/snapshots", True, skipped)
    assert not matches_on_disk(tmp_path, "tests/*/queue.test.ts", True, skipped)
    assert not matches_on_disk(tmp_path, "**/x/fixtures", True, skipped)


def test_a_glob_a_memory_holds_never_stalls_the_check() -> None:
    name = "a" * 20_000
    started = time.process_time()
    assert not path_matches(name, "*a*a*a*a*a*a*a*a*b")
    assert not path_matches("/".join(["a"] * 200), "/".join(["**"] * 20 + ["b"]))
    assert time.process_time() - started < 2.0


def test_a_glob_of_any_depth_is_matched_without_recursion() -> None:
    deep = "/".join(["d"] * 3000)
    assert path_matches(deep + "/x.py", deep + "/*.py")
    assert path_matches(deep + "/fixtures", "d/**/fixtures")


def test_on_disk_a_chain_of_nested_folders_is_walked_without_recursion(tmp_path: Path) -> None:
    chain = tmp_path.joinpath("src", *["d"] * 600)
    chain.mkdir(parents=True)
    assert matches_on_disk(tmp_path, "src/**/fixtures", True, set()) is False
    (chain / "fixtures").mkdir()
    assert matches_on_disk(tmp_path, "src/**/fixtures", True, set()) is True


def test_past_its_budget_of_entries_a_walk_cannot_tell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for index in range(6):
        (tmp_path / "src" / f"m{index}").mkdir(parents=True)
    monkeypatch.setattr(globs, "MAX_VISITED", 3)
    assert matches_on_disk(tmp_path, "src/**/nowhere", True, set()) is None
