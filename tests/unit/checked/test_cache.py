"""The check cache (docs/formats.md §19.8): private (0600 in a 0700 folder whatever the
umask, never written through a link), and trusted only while the file and its checkout
are as they were checked — another text, another stat stamp (size, mtime, ctime, inode; the
text's digest where it was checked within the racy margin), a commit or `git add` in
the checkout each make the entry outdated; a file it has nothing of is "not read"."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from memtab.checked.cache import (
    NOT_READ,
    OUTDATED,
    CheckCache,
    CheckedFiles,
    FileCheck,
    LineMark,
    checkout_stamp,
)
from memtab.checked.marks import (
    MARK,
    NOT_CHECKED_NOTE,
    demoted,
    marked_lines,
    row_state,
    view_notes,
)
from memtab.store.files import content_sha256
from memtab.store.home import Home
from support.checkouts import add_to_git

TEXT = "# Deploy\n\n- Run `scripts/deploy.sh`.\n"


def _entry(
    memory: Path, checkout: Path | None, text: str = TEXT, *, racy: bool = False
) -> FileCheck:
    info = memory.stat()
    return FileCheck(
        sha256=content_sha256(text),
        size=info.st_size,
        mtime_ns=info.st_mtime_ns,
        ctime_ns=info.st_ctime_ns,
        inode=info.st_ino,
        racy=racy,
        at=1,
        checkout=str(checkout) if checkout is not None else None,
        stamp=checkout_stamp(checkout) if checkout is not None else "",
        marks=(LineMark(line=3, kind="missing-path", says="`scripts/deploy.sh` is not in acme"),),
    )


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "acme"
    (root / "scripts").mkdir(parents=True)
    (root / "scripts" / "build.sh").write_text("#!/bin/sh\n", "utf-8")
    add_to_git(root)
    return root


def test_written_private_whatever_the_umask_and_never_through_a_link(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # as an older Memtab left it
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}", "utf-8")
    cache = CheckCache(Home(tmp_path / "home"), path=folder / "checks.json")
    cache.path.symlink_to(elsewhere)  # a link at its name: replaced, never followed
    memory = tmp_path / "m.md"
    memory.write_text(TEXT, "utf-8")
    old = os.umask(0)
    try:
        cache.write({str(memory): _entry(memory, None)}, forget=lambda _key: False)
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    info = os.lstat(cache.path)
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert elsewhere.read_text("utf-8") == "{}"
    assert CheckedFiles.read(json.loads(cache.path.read_text("utf-8"))) is not None


def test_an_entry_holds_while_the_file_and_its_checkout_are_as_checked(
    tmp_path: Path, checkout: Path
) -> None:
    memory = tmp_path / "deploy.md"
    memory.write_text(TEXT, "utf-8")
    cache = CheckCache(Home(tmp_path / "home"), path=tmp_path / "cache" / "checks.json")
    cache.write({str(memory): _entry(memory, checkout)}, forget=lambda _key: False)

    state = cache.state(memory)
    assert state.checked and [m.line for m in state.marks] == [3]
    assert cache.state(memory, sha256=content_sha256(TEXT)).checked
    assert cache.state(memory, sha256=content_sha256(TEXT + "- more\n")) == OUTDATED
    assert cache.state(tmp_path / "other.md") == NOT_READ

    (checkout / "scripts" / "deploy.sh").write_text("#!/bin/sh\n", "utf-8")
    subprocess.run(["git", "-C", str(checkout), "add", "-A"], check=True)  # the code changed
    assert cache.state(memory) == OUTDATED

    cache.write({str(memory): _entry(memory, checkout)}, forget=lambda _key: False)
    assert cache.state(memory).checked
    memory.write_text(TEXT + "- more\n", "utf-8")  # the memory changed
    assert cache.state(memory) == OUTDATED


def test_a_same_size_edit_keeping_the_mtime_is_not_served_stale(tmp_path: Path) -> None:
    """An edit of the same size whose mtime is put back (a coarse clock's one tick, a tool
    keeping times) changes the file's ctime: its entry no longer holds."""
    memory = tmp_path / "deploy.md"
    memory.write_text(TEXT, "utf-8")
    cache = CheckCache(Home(tmp_path / "home"), path=tmp_path / "cache" / "checks.json")
    cache.write({str(memory): _entry(memory, None)}, forget=lambda _key: False)
    assert cache.state(memory).checked
    before = memory.stat()
    memory.write_text(TEXT.replace("deploy", "DEPLOY"), "utf-8")
    os.utime(memory, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert memory.stat().st_size == before.st_size
    assert cache.state(memory) == OUTDATED


def test_a_file_checked_within_the_racy_margin_is_known_by_its_digest(tmp_path: Path) -> None:
    """A file changed in the clock tick it was checked in keeps its whole stat (size, times,
    inode): an entry made then holds only while the text's digest is the one checked."""
    memory = tmp_path / "deploy.md"
    memory.write_text(TEXT, "utf-8")
    cache = CheckCache(Home(tmp_path / "home"), path=tmp_path / "cache" / "checks.json")
    other = TEXT.replace("deploy", "DEPLOY")  # what the file held when checked, its stat now
    cache.write({str(memory): _entry(memory, None, other, racy=True)}, forget=lambda _k: False)
    assert cache.state(memory) == OUTDATED
    cache.write({str(memory): _entry(memory, None, TEXT, racy=True)}, forget=lambda _k: False)
    assert cache.state(memory).checked
    cache.write({str(memory): _entry(memory, None, other)}, forget=lambda _k: False)
    assert cache.state(memory).checked  # past the margin its stat decides, unread


def test_a_cache_another_process_wrote_is_read_again(tmp_path: Path) -> None:
    memory = tmp_path / "m.md"
    memory.write_text(TEXT, "utf-8")
    path = tmp_path / "cache" / "checks.json"
    reader = CheckCache(Home(tmp_path / "home"), path=path)
    assert reader.state(memory) == NOT_READ
    CheckCache(Home(tmp_path / "home"), path=path).write(
        {str(memory): _entry(memory, None)}, forget=lambda _key: False
    )
    assert reader.state(memory).checked
    path.write_text("not json", "utf-8")  # a cache that cannot be read is no cache
    assert reader.state(memory) == NOT_READ


def test_a_check_that_changed_nothing_rewrites_nothing_but_says_it_ran(tmp_path: Path) -> None:
    """A warm `memtab check` finds every file as the cache has it: the cache is touched (its
    age: a check ran now), never rewritten; an entry changed or forgotten rewrites it."""
    memory, other = tmp_path / "m.md", tmp_path / "other.md"
    for file in (memory, other):
        file.write_text(TEXT, "utf-8")
    cache = CheckCache(Home(tmp_path / "home"), path=tmp_path / "cache" / "checks.json")
    entries = {str(memory): _entry(memory, None), str(other): _entry(other, None)}
    cache.write(entries, forget=lambda _key: False)
    written = cache.path.stat()
    os.utime(cache.path, ns=(written.st_atime_ns, written.st_mtime_ns - 10**9))

    later = {key: entry.replaced(at=2) for key, entry in entries.items()}
    cache.write(later, forget=lambda _key: False)
    touched = cache.path.stat()
    assert touched.st_ino == written.st_ino  # not replaced
    assert touched.st_mtime_ns > written.st_mtime_ns - 10**9
    assert cache.state(memory).checked and cache.state(memory).at == 1

    cache.write({str(memory): _entry(memory, None).replaced(marks=())}, forget=lambda _k: False)
    assert cache.path.stat().st_ino != touched.st_ino
    assert cache.state(memory).marks == ()
    rewritten = cache.path.stat().st_ino
    cache.write({}, forget=lambda key: key == str(other))
    assert cache.path.stat().st_ino != rewritten
    assert cache.state(other) == NOT_READ


def test_what_an_answer_says(tmp_path: Path) -> None:
    memory = tmp_path / "m.md"
    memory.write_text(TEXT, "utf-8")
    cache = CheckCache(Home(tmp_path / "home"), path=tmp_path / "c" / "checks.json")
    cache.write({str(memory): _entry(memory, None)}, forget=lambda _key: False)
    state = cache.state(memory)
    lines = TEXT.rstrip("\n").split("\n")
    marked = marked_lines(lines, 1, state)
    assert marked[:2] == lines[:2]
    assert marked[2] == f"{lines[2]}  ⟵ {MARK} `scripts/deploy.sh` is not in acme"
    assert row_state(state) == "1 line false or stale (3)"
    assert row_state(OUTDATED) == "not checked as it is now" and row_state(NOT_READ) is None
    assert view_notes(OUTDATED) == (NOT_CHECKED_NOTE,)
    assert demoted(2.0, state) == 1.0 and demoted(2.0, OUTDATED) == 2.0  # the ranking's hook


def test_a_link_at_its_name_is_never_read_through(tmp_path: Path) -> None:
    """Read as every memo is (`fs.memo`): a link where the cache belongs is removed, unread."""
    memory = tmp_path / "m.md"
    memory.write_text(TEXT, "utf-8")
    elsewhere = CheckCache(Home(tmp_path / "home"), path=tmp_path / "elsewhere" / "checks.json")
    elsewhere.write({str(memory): _entry(memory, None)}, forget=lambda _key: False)
    path = tmp_path / "cache" / "checks.json"
    path.parent.mkdir()
    path.symlink_to(elsewhere.path)
    assert CheckCache(Home(tmp_path / "home"), path=path).state(memory) == NOT_READ
    assert not path.is_symlink() and elsewhere.path.is_file()


def test_an_index_replaced_with_the_same_size_and_mtime_changes_the_checkout_s_stamp(
    checkout: Path,
) -> None:
    """git writes its index anew and renames it over the old: a new inode, whatever its
    size and mtime."""
    index = checkout / ".git" / "index"
    before, info = checkout_stamp(checkout), index.stat()
    fresh = index.with_name("index.lock")
    fresh.write_bytes(index.read_bytes())
    os.utime(fresh, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(fresh, index)
    assert (index.stat().st_size, index.stat().st_mtime_ns) == (info.st_size, info.st_mtime_ns)
    assert checkout_stamp(checkout) != before
