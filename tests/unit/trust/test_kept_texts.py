"""The texts of mux's files as the trust commands last read them (`kept.texts`,
docs/formats.md §19.10): a file still as it was is not opened again; an edit is read
whatever its size and time; a file changed just before its reading is read again."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.fs.atomic import atomic_write_text
from memtab.kept.per_file import cache_file_for
from memtab.kept.texts import KeptTexts
from memtab.store.home import Home
from memtab.trust.memories import read_memories
from support.memory_home import MAIN, PROJECT, make_home

LATER = 60 * 1_000_000_000


def _later() -> int:
    """A minute from now: every file was written well before its reading."""
    return time.time_ns() + LATER


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "ports.md", "# Ports\n\n- The API runs on port 8000.\n")
    atomic_write_text(home.project_root(PROJECT) / "local.md", "# Local\n\n- Port 8080.\n")
    return home


Read = list[tuple[str, str]]


def _run(
    home: Home, now_ns: Callable[[], int] = _later, workspace: str | None = None
) -> tuple[Read, int]:
    """What a next process reads: each document's key and text, and how many files it
    opened."""
    texts = KeptTexts(home, now_ns=now_ns)
    collected = read_memories(home, workspace, sources=False, texts=texts)
    return sorted((d.key, d.text) for d in collected.documents), texts.last_read


def _plain(home: Home, workspace: str | None = None) -> Read:
    return sorted((d.key, d.text) for d in read_memories(home, workspace, sources=False).documents)


def test_a_file_still_as_read_is_not_read_again(home: Home) -> None:
    first, read = _run(home)
    assert first == _plain(home) and read == len(first) == 10
    assert _run(home) == (first, 0)


def test_an_edit_is_read_whatever_its_size_and_time(home: Home) -> None:
    _run(home)
    path = home.global_root / "ports.md"
    before, before_text = os.stat(path), path.read_text(encoding="utf-8")
    path.write_text("# Ports\n\n- The API runs on port 9000.\n", encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # its time set back
    assert os.stat(path).st_size == before.st_size
    texts, read = _run(home)
    assert read == 1 and texts == _plain(home)
    assert ("mux:global::/memories/global/ports.md", before_text.replace("8000", "9000")) in texts


def test_a_file_changed_just_before_its_reading_is_read_again(home: Home) -> None:
    """Within 2 s a write may keep the mtime on a coarse clock: not remembered."""
    assert _run(home, now_ns=time.time_ns)[1] == 10
    assert _run(home, now_ns=time.time_ns)[1] == 10
    assert _run(home)[1] == 10
    assert _run(home)[1] == 0


def test_a_damaged_cache_is_read_anew(home: Home) -> None:
    first, _ = _run(home)
    path = cache_file_for(home, "texts")
    path.write_bytes(path.read_bytes()[:100])
    assert _run(home) == (first, 10)
    assert _run(home) == (first, 0)


def test_a_workspace_s_run_keeps_the_other_files(home: Home) -> None:
    _run(home)
    texts, read = _run(home, workspace=MAIN)
    assert read == 0 and texts == _plain(home, MAIN) and len(texts) < 10
    atomic_write_text(home.global_root / "new.md", "# New\n\n- A new note.\n")
    assert _run(home, workspace=MAIN)[1] == 1
    assert _run(home)[1] == 0  # the files no workspace run read are still kept
