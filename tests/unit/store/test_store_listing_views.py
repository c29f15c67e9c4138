"""The cheap views of a scope: the outline (names only) and a listing patched with the
files a watcher reported — both must say exactly what a full listing says."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

from memtab.store.files import ScopeListing, list_scope, outline_scope, update_listing
from memtab.store.paths import Scope

from .helpers import write


def _tree(root: Path) -> None:
    for name in ["a.md", "b.md", "sub/c.md", "sub/deeper/d.md", "sub/deeper/e.md", "empty/"]:
        if name.endswith("/"):
            (root / name).mkdir(parents=True)
        else:
            write(root / name, f"---\ndescription: {name}\n---\n")
    for hidden in [".hidden.md", ".git/x.md", "a~b.md", ".a.md.1a2b3c4d.tmp"]:
        write(root / hidden, "x")
    (root / "link.md").symlink_to(root / "a.md")
    (root / "linkdir").symlink_to(root / "sub")


def test_the_outline_counts_what_the_listing_lists(tmp_path: Path) -> None:
    root = tmp_path / "scope"
    _tree(root)
    listing = list_scope(Scope.GLOBAL, root)
    outline = outline_scope(Scope.GLOBAL, root)
    assert outline.directories == listing.directories
    assert outline.file_count == listing.file_count == 5
    assert dict(outline.direct_files) == {(): 2, ("sub",): 1, ("sub", "deeper"): 2}
    assert outline.error is None


def test_a_listing_of_an_outlines_walk_is_the_listing_of_the_files_there_now(
    tmp_path: Path,
) -> None:
    """Its names, each file as it is now (one gone since is left out; what appeared since
    waits for the next walk); another root's walk is not used."""
    root = tmp_path / "scope"
    _tree(root)
    walk = outline_scope(Scope.GLOBAL, root).walk
    assert walk is not None
    assert list_scope(Scope.GLOBAL, root, walked=walk) == list_scope(Scope.GLOBAL, root)
    write(root / "sub" / "c.md", "---\ndescription: c, rewritten\n---\n")
    (root / "b.md").unlink()
    write(root / "new.md", "---\ndescription: new\n---\n")
    listed = list_scope(Scope.GLOBAL, root, walked=walk)
    described = {entry.path.relative: entry.description for entry in listed.files}
    assert described == {
        "a.md": "a.md",
        "sub/c.md": "c, rewritten",
        "sub/deeper/d.md": "sub/deeper/d.md",
        "sub/deeper/e.md": "sub/deeper/e.md",
    }
    other = tmp_path / "other"
    _tree(other)
    assert list_scope(Scope.GLOBAL, other, walked=walk) == list_scope(Scope.GLOBAL, other)


def test_an_outline_of_a_missing_or_unreadable_root(tmp_path: Path) -> None:
    assert outline_scope(Scope.GLOBAL, tmp_path / "none").file_count == 0
    assert outline_scope(Scope.GLOBAL, None).directories == ()
    if os.geteuid() != 0:  # root reads a chmod 000 directory anyway
        locked = tmp_path / "locked"
        locked.mkdir(mode=0)
        assert outline_scope(Scope.GLOBAL, locked).error is not None


def _patch(listing: ScopeListing, root: Path, *names: str) -> ScopeListing | None:
    return update_listing(listing, root, [tuple(name.split("/")) for name in names])


def test_a_patched_listing_reads_only_the_changed_files(tmp_path: Path) -> None:
    root = tmp_path / "scope"
    _tree(root)
    before = list_scope(Scope.GLOBAL, root)
    write(root / "a.md", "---\ndescription: rewritten\n---\n")
    write(root / "sub" / "new.md", "---\ndescription: new\n---\n")
    (root / "sub" / "deeper" / "e.md").unlink()
    after = _patch(before, root, "a.md", "sub/new.md", "sub/deeper/e.md", ".hidden.md")
    assert after == list_scope(Scope.GLOBAL, root)
    assert after is not None
    assert {f.path.relative: f.description for f in after.files}["a.md"] == "rewritten"


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda root: write(root / "brand-new" / "x.md", "x"), "brand-new/x.md"),
        (lambda root: (root / "empty").rmdir(), "empty"),
        (lambda root: (root / "sub2").mkdir(), "sub2"),
        (lambda root: None, ""),
    ],
    ids=["file in a new directory", "directory removed", "directory made", "the root"],
)
def test_a_change_to_the_structure_asks_for_a_full_listing(
    tmp_path: Path, change: object, path: str
) -> None:
    root = tmp_path / "scope"
    _tree(root)
    before = list_scope(Scope.GLOBAL, root)
    assert callable(change)
    change(root)
    assert update_listing(before, root, [tuple(path.split("/")) if path else ()]) is None


def test_links_are_never_patched_in(tmp_path: Path) -> None:
    root = tmp_path / "scope"
    _tree(root)
    before = list_scope(Scope.GLOBAL, root)
    (root / "b.md").unlink()
    (root / "b.md").symlink_to(tmp_path / "outside.md")
    write(tmp_path / "outside.md", "---\ndescription: secret\n---\n")
    (root / "other.md").symlink_to(tmp_path / "outside.md")
    after = _patch(before, root, "b.md", "other.md", "link.md")
    assert after == list_scope(Scope.GLOBAL, root)
    assert after is not None
    assert "b.md" not in [f.path.relative for f in after.files]
    # A directory on the way replaced by a link: nothing below it is read through it.
    (root / "sub" / "deeper" / "d.md").unlink()
    (root / "sub" / "deeper" / "e.md").unlink()
    (root / "sub" / "deeper").rmdir()
    (root / "sub" / "deeper").symlink_to(tmp_path)
    assert _patch(before, root, "sub/deeper/outside.md") is None


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")
def test_random_changes_patch_to_what_a_full_listing_says(tmp_path: Path) -> None:
    root = tmp_path / "scope"
    _tree(root)
    rng = random.Random(15)
    names = ["a.md", "b.md", "z.md", "sub/c.md", "sub/n.md", "sub/deeper/d.md", "sub/deeper/e.md"]
    listing = list_scope(Scope.GLOBAL, root)
    for _ in range(60):
        touched = rng.sample(names, rng.randint(1, 3))
        for name in touched:
            target = root / name
            if target.exists() and rng.random() < 0.4:
                target.unlink()
            else:
                write(target, f"---\ndescription: {rng.random()}\n---\n" + "x" * rng.randint(0, 99))
        patched = _patch(listing, root, *touched)
        assert patched == list_scope(Scope.GLOBAL, root)
        assert patched is not None
        listing = patched
