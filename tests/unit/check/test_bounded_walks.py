"""A check walks a checkout with a stack and within a bound of entries of any kind (issue 96):
a chain of nested folders under a glob is checked, a tree of empty folders costs no more than
its bound, and a walk stopped at its bound is said in every check, the kept ones too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check import checkout as checkouts
from memtab.check.checkout import index_of
from memtab.cli.main import main
from memtab.fs import globs

from .helpers import check, home_with_project, make_checkout, of_kind

NOTE = "- Fixtures live in `src/**/fixtures/`\n- Settings in `src/settings/base.py`\n"


def _deep_checkout(tmp_path: Path) -> Path:
    root = make_checkout(tmp_path / "acme", {"README.md": "# acme\n"}, git=False)
    root.joinpath("src", *["d"] * 600).mkdir(parents=True)
    return root


def test_a_glob_over_a_chain_of_nested_folders_is_checked(tmp_path: Path) -> None:
    home, _ = home_with_project(tmp_path, _deep_checkout(tmp_path), {"notes.md": NOTE})
    report = check(home, tmp_path)
    assert [f.subject for f in of_kind(report, "missing-path")] == [
        "src/**/fixtures",
        "src/settings/base.py",
    ]
    assert report.problems == ()


def test_the_command_checks_it_and_says_what_it_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, _ = home_with_project(tmp_path, _deep_checkout(tmp_path), {"notes.md": NOTE})
    for _again in range(2):
        assert main(["--home", str(home.root), "check", "--json", "--no-sources"]) == 1
        found = json.loads(capsys.readouterr().out)["findings"]
        assert {f["subject"] for f in found} == {"src/**/fixtures", "src/settings/base.py"}


def test_empty_folders_count_toward_the_index_walks_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_checkout(tmp_path / "acme", {"z/settings.py": ""}, git=False)
    for index in range(300):
        (root / "a" / f"empty{index}").mkdir(parents=True)
    monkeypatch.setattr(checkouts, "MAX_WALK_ENTRIES", 100)
    index = index_of(root)
    assert index.truncated
    assert index.files == frozenset()


def test_a_walk_stopped_at_its_bound_is_said_in_every_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_checkout(tmp_path / "acme", {"README.md": "# acme\n"}, git=False)
    for index in range(40):
        (root / "src" / f"m{index}").mkdir(parents=True)
    monkeypatch.setattr(checkouts, "MAX_WALK_ENTRIES", 20)
    monkeypatch.setattr(globs, "MAX_VISITED", 20)
    monkeypatch.setattr(checkouts, "MAX_VISITED", 20)  # as the report says it
    home, _ = home_with_project(tmp_path, root, {"notes.md": NOTE})
    for _again in range(2):  # the second check keeps what the first found in the file
        report = check(home, tmp_path)
        assert [f.subject for f in of_kind(report, "missing-path")] == ["src/settings/base.py"]
        assert report.problems == (
            f"{root}: only its first 20 files and folders were read (it is no git repository, "
            "and holds more): a moved file is looked for among those",
            f"{root}: `src/**/fixtures` was not checked: telling whether anything matches it "
            "reads more than 20 files and folders",
        )
