"""Memtab's own folders and the files it appends to are private (`fs/private.py`,
docs/formats.md §16.2): folders 0700 and files 0600 whatever the umask, a folder an older
Memtab left open closed whole, nothing written through a link."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from memtab.fs.private import close_tree, open_private_append, private_dir, private_folders
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


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's link needs root")
@pytest.mark.expect_log("memtab.fs.private", "WARNING", r"was a link of another user \(uid 65534\)")
def test_a_link_another_user_planted_at_a_folders_name_is_removed_not_followed(
    tmp_path: Path,
) -> None:
    """History's shards planted as links to another user's folder (while `memtab/` was
    open to others) made every later copy in history fail, for good ("the folder belongs
    to another user"): such a link is removed, never followed, and the folder made anew
    (issue 70 point 2); the user's own link to a folder is still that folder."""
    own = tmp_path / "memtab"
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o777)
    os.chown(theirs, 65534, 65534)
    (own / "history" / "blobs").mkdir(parents=True)
    shard = own / "history" / "blobs" / "ab"
    shard.symlink_to(theirs)
    os.chown(shard, 65534, 65534, follow_symlinks=False)
    assert private_folders(shard, below=own) == shard
    assert shard.is_dir() and not shard.is_symlink() and mode_of(shard) == 0o700
    assert list(theirs.iterdir()) == []
    mine = tmp_path / "mine"
    mine.mkdir()
    (own / "history" / "blobs" / "cd").symlink_to(mine)
    private_folders(own / "history" / "blobs" / "cd", below=own)
    assert (own / "history" / "blobs" / "cd").is_symlink() and mode_of(mine) == 0o700


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's folder needs root")
def test_a_folder_inside_another_users_folder_is_never_private(tmp_path: Path) -> None:
    """A cache or config dir set inside a folder another user owns (MEMTAB_CONFIG_DIR in
    their /tmp folder) is refused: they could rename the user's folder away and put a link
    to theirs in its place while Memtab writes there (issue 70 point 2)."""
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o777)
    os.chown(theirs, 65534, 65534)
    with pytest.raises(PermissionError, match=r"the folder above belongs to another user"):
        private_dir(theirs / "cache")
    assert list(theirs.iterdir()) == []
    rooted = tmp_path / "rooted"  # root's folders (/tmp, /run/user) are the user's own
    rooted.mkdir()
    assert private_dir(rooted / "cache").is_dir()


def test_a_cache_folder_an_older_memtab_left_open_is_closed_with_what_it_holds(
    tmp_path: Path,
) -> None:
    """Round 5, row 1b: `descriptions-v2-*.json` and `checks-*.json` stayed 0666 inside the
    re-closed cache folder until an MCP session rewrote them. Closing the folder closes
    them at once, and another home's index folder in it too; a link is never followed."""
    cache = tmp_path / "cache" / "memtab"
    other_index = cache / "search-v4-other"
    other_index.mkdir(parents=True)
    words = {
        cache / "descriptions-v2-ab.json": "platypusword",
        cache / "checks-ab.json": "{}",
        other_index / "meta.json": "{}",
    }
    for path, text in words.items():
        path.write_text(text)
        os.chmod(path, 0o666)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not Memtab's")
    os.chmod(elsewhere, 0o666)
    (cache / "link").symlink_to(elsewhere)
    for folder in (cache, other_index):
        os.chmod(folder, 0o777)
    private_dir(cache)
    assert mode_of(cache) == 0o700 and mode_of(other_index) == 0o700
    assert {path.name: mode_of(path) for path in words} == dict.fromkeys(
        ("descriptions-v2-ab.json", "checks-ab.json", "meta.json"), 0o600
    )
    assert mode_of(elsewhere) == 0o666
    assert (cache / "descriptions-v2-ab.json").read_text() == "platypusword"
