"""What a teammate pushes is checked before it is read whole or written: depth, size,
names, sidecar keys. Their commits are made here with git's plumbing, as a crafted push
would be."""

from __future__ import annotations

import json
import subprocess
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.fs.atomic import FILESYSTEM_FLUSH_WORKS, Directory
from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES
from memtab.store.paths import MAX_PATH_DEPTH
from memtab.store.restore.from_history import restore, trash
from memtab.sync.repository.layout import STAGING_NAME
from support.memory_paths import vpath
from support.spies import calls_through
from support.sync_machines import Machine

Entry = tuple[str, str, str, str]  # mode, type, id, name


def _git(remote: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(remote), *args], input=data, capture_output=True, check=True
    )
    return done.stdout.decode().strip()


def _blob(remote: Path, data: bytes) -> str:
    return _git(remote, "hash-object", "-w", "--stdin", data=data)


def _tree(remote: Path, entries: list[Entry]) -> str:
    lines = "".join(f"{mode} {kind} {oid}\t{name}\n" for mode, kind, oid, name in entries)
    return _git(remote, "mktree", "--missing", data=lines.encode())


def _listed(remote: Path, tree: str) -> list[Entry]:
    found = []
    for line in _git(remote, "ls-tree", tree).splitlines():
        info, name = line.split("\t", 1)
        mode, kind, oid = info.split()
        found.append((mode, kind, oid, name))
    return found


def _push(remote: Path, into_global: list[Entry], meta: bytes | None = None) -> None:
    """A teammate's commit on main: `into_global` added to the global folder, the global
    scope's pins and usage replaced by `meta`."""
    tip = _git(remote, "rev-parse", "main")
    root = {entry[3]: entry for entry in _listed(remote, f"{tip}^{{tree}}")}
    folder = {entry[3]: entry for entry in _listed(remote, root["global"][2])}
    folder.update({entry[3]: entry for entry in into_global})
    root["global"] = ("040000", "tree", _tree(remote, list(folder.values())), "global")
    if meta is not None:
        sidecar = _tree(remote, [("100644", "blob", _blob(remote, meta), "global.json")])
        root[".memtab"] = ("040000", "tree", _tree(remote, [_dir(sidecar, "meta")]), ".memtab")
    tree = _tree(remote, list(root.values()))
    who = ("-c", "user.name=Mallory", "-c", "user.email=mallory@example.com")
    commit = _git(remote, *who, "commit-tree", tree, "-p", tip, "-m", "a teammate push")
    _git(remote, "update-ref", "refs/heads/main", commit, tip)


def _dir(tree: str, name: str) -> Entry:
    return ("040000", "tree", tree, name)


def _file(remote: Path, name: str, data: bytes) -> Entry:
    return ("100644", "blob", _blob(remote, data), name)


@pytest.mark.slow
def test_a_tree_thousands_of_folders_deep_is_not_walked(alpha: Machine, remote: Path) -> None:
    alpha.publish("/memories/global/notes.md", "notes\n")
    deep = _tree(remote, [_file(remote, "x.md", b"deep\n")])
    for _level in range(1500):
        deep = _tree(remote, [_dir(deep, "d")])
    _push(remote, [_dir(deep, "d"), _file(remote, "fine.md", b"fine\n")])

    report = alpha.sync()

    assert alpha.text("/memories/global/fine.md") == "fine\n"
    [problem] = report.targets[0].problems
    assert "folders deeper than" in problem
    assert alpha.sync().targets[0].status == "synced"


@pytest.mark.slow
def test_a_huge_file_is_never_read(alpha: Machine, remote: Path) -> None:
    alpha.publish("/memories/global/notes.md", "notes\n")
    _push(remote, [_file(remote, "huge.md", bytes(64 * 1024 * 1024))])

    tracemalloc.start()
    try:
        report = alpha.sync()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert peak < 16 * 1024 * 1024
    assert alpha.text("/memories/global/huge.md") is None
    assert any("huge.md was not brought in" in p for p in report.targets[0].problems)


def test_names_and_keys_no_memory_file_has_are_never_written(alpha: Machine, remote: Path) -> None:
    alpha.publish("/memories/global/notes.md", "notes\n")
    up = _tree(remote, [_file(remote, "evil.md", b"outside\n")])
    meta = {"entries": {"../evil.md": {"pinned": True}, "notes.md": {"pinned": True}}}
    _push(remote, [_dir(up, "..")], json.dumps(meta).encode())

    alpha.sync()

    assert not (alpha.home.global_root.parent / "evil.md").exists()
    keys = json.loads((alpha.home.root / "memory-meta.json").read_text())
    assert "global:../evil.md" not in json.dumps(keys)
    assert alpha.pinned("/memories/global/notes.md")


@pytest.mark.skipif(not FILESYSTEM_FLUSH_WORKS, reason="file by file: no scope staged whole")
def test_a_machine_joining_a_hostile_remote_stages_only_what_an_import_writes(
    alpha: Machine, beta: Machine, remote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Beta's scope has no file yet: brought in whole, staged in a folder of Memtab's own
    # and renamed into place, with every check a file written by itself gets.
    shared = alpha.share_notes(10)
    up = _tree(remote, [_file(remote, "evil.md", b"outside\n")])
    link = ("120000", "blob", _blob(remote, b"../../../memtab/sync/memory/config"), "link.md")
    hidden = _file(remote, ".hidden.md", b"hidden\n")
    huge = _file(remote, "huge.md", bytes(MAX_HISTORY_FILE_BYTES + 1))
    _push(remote, [_dir(up, ".."), link, hidden, huge])
    moved = calls_through(monkeypatch, Directory, "move_whole")

    report = beta.sync()
    monkeypatch.undo()

    assert [target.display(new) for _, name, target, new in moved if name == STAGING_NAME] == [
        str(beta.home.global_root)
    ]
    assert beta.files() == shared
    root = beta.home.global_root
    assert sorted(p.name for p in root.iterdir()) == sorted(f"n{n:02d}.md" for n in range(10))
    for above in (root.parent, beta.sync_dir, beta.sync_dir.parent):  # the scope's, staging's
        assert not (above / "evil.md").exists()
    assert any("huge.md was not brought in" in p for p in report.targets[0].problems)
    assert not (beta.sync_dir / ".new-scope").exists()


def test_a_pinned_file_a_teammate_deletes_comes_back_pinned(alpha: Machine, beta: Machine) -> None:
    notes = "/memories/global/notes.md"
    alpha.publish(notes, "notes\n", beta)
    alpha.store.set_pinned(vpath(notes), True)
    beta.store.delete(vpath(notes))
    beta.sync()

    [target] = alpha.sync().targets

    assert target.deleted == (notes,) and notes in target.pulled
    assert any("in the trash with its pin" in note for note in target.notes)
    [item] = trash(alpha.store)
    restore(alpha.store, vpath(item.path), item.version.id)
    assert alpha.text(notes) == "notes\n" and alpha.pinned(notes)


@pytest.mark.expect_log(
    "memtab.store.files", "WARNING", r"^Not listed, searched or recorded: the contents of "
)
def test_a_local_tree_deeper_than_memory_paths_go_is_left_out_and_said(
    alpha: Machine, beta: Machine, remote: Path, deep_tree: Callable[..., None]
) -> None:
    alpha.publish("/memories/global/notes.md", "notes\n")
    deep_tree(alpha.home.global_root, "deep", MAX_PATH_DEPTH + 8, file="bottom.md")

    report = alpha.sync()

    assert report.targets[0].status == "synced"
    [problem] = report.targets[0].problems
    assert "not synced: the contents of /memories/global/deep/d/…" in problem
    in_repository = _git(remote, "ls-tree", "-r", "--name-only", "main").splitlines()
    assert not any("bottom.md" in path for path in in_repository)
    beta.sync()
    assert beta.files() == {"/memories/global/notes.md": "notes\n"}
