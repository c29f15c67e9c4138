"""What Memtab keeps in its cache dir holds memory text or its words, so it is private
whatever the umask, and never written through a link (docs/formats.md §15.5): the search
index (a folder of files), the description cache, sync's files seen — 0600 in a 0700
folder; ones made looser before are made private; a link (or a dangling one) at any of
their names is replaced, its target never written or made."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.fs.config.config_dir import cache_dir
from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.store.description_cache import DescriptionCache, cache_file_for
from memtab.sync.repository.scopes import SeenFiles, seen_files_path

SECRET = "kestrel-7 opens the vault"
LATER_NS = 10 * 10**9


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def memory_file(tmp_path: Path) -> IndexedFile:
    folder = tmp_path / "home"
    folder.mkdir(exist_ok=True)
    path = folder / "vault.md"
    path.write_text(SECRET + "\n")
    info = os.lstat(path)
    stamp = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    return IndexedFile("r", "vault.md", "vault.md", str(path), stamp)


def index_a_memory(tmp_path: Path) -> Path:
    """Index one memory file in the home at `tmp_path`'s index; the index's path."""
    path = index_file_for(tmp_path / "home")
    index = SearchIndex(path)
    index.refresh([memory_file(tmp_path)], ("r",))
    assert [hit.id for hit in index.search("kestrel", ("r",), limit=5)] == ["vault.md"]
    index.close()
    assert mode(path) == 0o700
    made = list(path.iterdir())
    assert len(made) > 3 and {p.name: mode(p) for p in made} == {p.name: 0o600 for p in made}
    return path


def save_caches(tmp_path: Path) -> tuple[Path, Path]:
    """Save a description cache and sync's files seen for the home at `tmp_path`."""
    home = tmp_path / "home"
    note = memory_file(tmp_path)
    later = lambda: time.time_ns() + LATER_NS  # noqa: E731 - the files are settled
    descriptions = DescriptionCache(home, cache_file_for(home), now_ns=later)
    known = descriptions.for_root(home)
    known.learn("vault.md", os.lstat(note.physical or ""), (SECRET, SECRET, False))
    descriptions.save()
    seen = SeenFiles(home, "origin", now_ns=later)
    seen.start()
    seen.learn("vault.md", os.lstat(note.physical or ""), "0" * 40, "0" * 64)
    seen.save()
    return cache_file_for(home), seen_files_path(home, "origin")


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o000])
def test_the_index_and_the_caches_are_private_whatever_the_umask(tmp_path: Path, mask: int) -> None:
    with umask(mask):
        index_a_memory(tmp_path)
        descriptions, seen = save_caches(tmp_path)
    assert mode(cache_dir()) == 0o700
    assert mode(descriptions) == 0o600 and mode(seen) == 0o600


def test_an_index_and_caches_made_open_to_others_before_are_made_private(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "memtab.fs.private")
    with umask(0o022):
        path = index_a_memory(tmp_path)
        descriptions, seen = save_caches(tmp_path)
    # As an older Memtab left them under the default umask.
    cache_dir().chmod(0o755)
    path.chmod(0o755)
    for name in (*path.iterdir(), descriptions, seen):
        name.chmod(0o644)
    index = SearchIndex(path)
    assert [hit.id for hit in index.search("kestrel", ("r",), limit=5)] == ["vault.md"]
    index.close()
    DescriptionCache.of_home(tmp_path / "home").for_root(tmp_path / "home")
    SeenFiles(tmp_path / "home", "origin").start()
    assert mode(cache_dir()) == 0o700
    assert mode(path) == 0o700
    for name in (*path.iterdir(), descriptions, seen):
        assert mode(name) == 0o600, name
    assert "made private" in caplog.text


@pytest.mark.expect_log("memtab.search_index.opening", "WARNING", r"was (no folder|a link)")
@pytest.mark.parametrize("where", ["folder", "lock", "inside"])
@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_at_the_index_path_is_never_written_through(
    tmp_path: Path, where: str, dangling: bool
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "target"
    if not dangling:
        target.mkdir() if where == "folder" else target.write_bytes(b"the user's own file\n")
    path = index_file_for(tmp_path / "home")
    path.parent.mkdir(parents=True)
    if where == "inside":
        SearchIndex(path).close()
        link = path / "meta.json"
        link.unlink()
    else:
        link = path if where == "folder" else path.parent / f".{path.name}.lock"
    os.symlink(target, link)
    index_a_memory(tmp_path)
    assert not link.is_symlink()
    if dangling:
        assert list(outside.iterdir()) == []  # never made where the link pointed
    elif where == "folder":
        assert list(target.iterdir()) == []
    else:
        assert target.read_bytes() == b"the user's own file\n"


@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_at_a_cache_path_is_replaced_never_written_through(
    tmp_path: Path, dangling: bool
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    home = tmp_path / "home"
    for name in (cache_file_for(home), seen_files_path(home, "origin")):
        name.parent.mkdir(parents=True, exist_ok=True)
        target = outside / name.name
        if not dangling:
            target.write_bytes(b"the user's own file\n")
        os.symlink(target, name)
    descriptions, seen = save_caches(tmp_path)
    for name in (descriptions, seen):
        assert stat.S_ISREG(os.lstat(name).st_mode) and mode(name) == 0o600
        assert SECRET not in (outside / name.name).read_text() if not dangling else True
    if dangling:
        assert list(outside.iterdir()) == []
    else:
        assert {p.read_bytes() for p in outside.iterdir()} == {b"the user's own file\n"}
