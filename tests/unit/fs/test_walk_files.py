"""`fs.globs.walk_files`: a folder another program keeps is walked with a stack, never through a
link, and bounded by the entries it reads of any kind."""

from __future__ import annotations

import os
from pathlib import Path

from memtab.fs.globs import walk_files


def test_files_come_in_name_order_each_folders_files_first(tmp_path: Path) -> None:
    for relative in ("b.md", "a/z.md", "a/b/c.md", "c/d.md", ".hidden/e.md"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("")
    walked = walk_files(tmp_path, most_entries=100, enter=lambda name: name != ".hidden")
    assert walked == (["b.md", "a/z.md", "a/b/c.md", "c/d.md"], False)


def test_a_chain_of_nested_folders_is_walked_to_its_end(tmp_path: Path) -> None:
    chain = tmp_path.joinpath(*["d"] * 600)
    chain.mkdir(parents=True)
    (chain / "deep.md").write_text("")
    walked = walk_files(tmp_path, most_entries=10_000)
    assert walked.files == ["/".join(["d"] * 600 + ["deep.md"])]


def test_empty_folders_count_toward_the_bound(tmp_path: Path) -> None:
    for index in range(50):
        (tmp_path / "a" / f"empty{index:02}").mkdir(parents=True)
    (tmp_path / "a" / "empty00" / "deep.md").write_text("")
    (tmp_path / "top.md").write_text("")
    assert walk_files(tmp_path, most_entries=20) == (["top.md"], True)
    assert walk_files(tmp_path, most_entries=53) == (["top.md", "a/empty00/deep.md"], False)


def test_levels_bound_the_depth_and_links_are_never_followed(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "deep.yml").write_text("")
    (tmp_path / "top.yml").write_text("")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "secret.yml").write_text("")
    os.symlink(outside, tmp_path / "linked")
    assert walk_files(tmp_path, most_entries=100, levels=2).files == ["linked", "top.yml"]
    assert "a/b/deep.yml" in walk_files(tmp_path, most_entries=100).files
