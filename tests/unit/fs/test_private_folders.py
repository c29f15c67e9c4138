"""Memtab's own folders and the files it appends to are private (`fs/private.py`,
docs/formats.md §16.2): folders 0700 and files 0600 whatever the umask, a folder an older
Memtab left open closed whole, nothing written through a link."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memtab.fs.private import close_tree, open_private_append, private_folders
from support.private_modes import mode_of, open_to_others


def test_each_folder_from_memtabs_own_down_is_made_private(tmp_path: Path, umask: int) -> None:
    home = tmp_path / "home"
    home.mkdir()
    own = home / "memtab"
    leaf = private_folders(own / "history" / "blobs" / "ab", below=own)
    assert leaf.is_dir() and open_to_others(own) == []
    assert mode_of(home) == 0o777 & ~umask  # the agent's folder is not Memtab's to change


def test_a_folder_an_older_memtab_left_open_is_closed_whole(tmp_path: Path) -> None:
    own = tmp_path / "memtab"
    deep = own / "history" / "blobs" / "ab"
    deep.mkdir(parents=True)
    (deep / "blob.z").write_bytes(b"memory")
    (own / "runs.jsonl").write_text("{}\n")
    os.chmod(deep / "blob.z", 0o644)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not Memtab's")
    os.chmod(elsewhere, 0o644)
    (own / "link").symlink_to(elsewhere)
    for folder in (own, own / "history", own / "history" / "blobs", deep):
        os.chmod(folder, 0o755)
    private_folders(own / "proposals", below=own)
    assert [line for line in open_to_others(own) if not line.startswith(str(own / "link"))] == []
    assert mode_of(elsewhere) == 0o644  # a link is never followed
    assert (deep / "blob.z").read_bytes() == b"memory"


def test_a_closed_tree_keeps_the_owners_own_bits(tmp_path: Path) -> None:
    (tmp_path / "read-only").write_text("x")
    os.chmod(tmp_path / "read-only", 0o444)
    assert close_tree(tmp_path) == 1
    assert mode_of(tmp_path / "read-only") == 0o400


def test_a_file_appended_to_is_private_and_never_a_links(tmp_path: Path, umask: int) -> None:
    precious = tmp_path / "precious"
    precious.write_text("kept")
    (tmp_path / "log").symlink_to(precious)
    handle = open_private_append(tmp_path / "log")
    try:
        os.write(handle, b"line\n")
    finally:
        os.close(handle)
    assert precious.read_text() == "kept" and not (tmp_path / "log").is_symlink()
    assert (tmp_path / "log").read_text() == "line\n" and mode_of(tmp_path / "log") == 0o600
    os.chmod(tmp_path / "log", 0o664)
    os.close(open_private_append(tmp_path / "log"))
    assert mode_of(tmp_path / "log") == 0o600


def test_a_folder_removed_since_is_made_private_again(tmp_path: Path) -> None:
    own = tmp_path / "memtab"
    private_folders(own / "history" / "ab", below=own)
    shutil.rmtree(own / "history")
    assert private_folders(own / "history" / "ab", below=own).is_dir()
    assert open_to_others(own) == []
