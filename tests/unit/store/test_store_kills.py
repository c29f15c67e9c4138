"""Crash safety: a writer SIGKILLed in the middle of a save leaves no torn file and, once
the store starts again, no temp file (split from test_store_concurrency.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memtab.fs.atomic import is_temp_name
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scope_walk import STALE_TEMP_AGE_S
from memtab.store.scopes.memory import MemoryStore
from support.logfail import ExpectLog
from support.memory_paths import vpath

CRASH_ROUNDS = 20
CRASH_FILE_SIZE = 2 << 20  # 2 MiB: each save takes a few milliseconds
CRASH_NAMES = ("one.md", "two.md", "three.md")


def _kill_mid_write(
    mode: str, where: Path, size: int, names: tuple[str, ...], randomness: random.Random
) -> None:
    """Start crash_writer.py, let it write for a random moment, SIGKILL it."""
    writer = Path(__file__).with_name("crash_writer.py")
    child = subprocess.Popen(
        [sys.executable, str(writer), mode, str(where), str(size), *names],
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"writing\n"
        # Not waiting for anything: a random moment in the middle of the write loop.
        threading.Event().wait(randomness.uniform(0, 0.04))
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        if child.stdout:
            child.stdout.close()
    assert child.returncode == -signal.SIGKILL


def _left_a_history_line_open(home: Home) -> bool:
    """Whether the global scope's history index, which the next save appends to and reads,
    ends inside a line (its writer killed appending)."""
    index = home.root / "memtab" / "history" / "index" / "global.jsonl"
    data = index.read_bytes() if index.exists() else b""
    return bool(data) and not data.endswith(b"\n")


def _age_leftovers(directory: Path) -> list[str]:
    """Make the temp files a killed writer left look a minute old; returns their names."""
    leftovers = [path for path in directory.iterdir() if path.name.startswith(".")]
    then = time.time() - 2 * STALE_TEMP_AGE_S
    for path in leftovers:
        os.utime(path, (then, then))
    return [path.name for path in leftovers]


@pytest.mark.slow
def test_sigkill_during_atomic_writes_never_leaves_a_torn_file(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    old, new = b"A" * CRASH_FILE_SIZE, b"B" * CRASH_FILE_SIZE
    for name in CRASH_NAMES:
        (root / name).write_bytes(old)
    randomness = random.Random(1234)
    for _ in range(CRASH_ROUNDS):
        _kill_mid_write("atomic", root, CRASH_FILE_SIZE, CRASH_NAMES, randomness)
        for name in CRASH_NAMES:
            assert (root / name).read_bytes() in (old, new), f"{name} is torn"
        assert all(is_temp_name(name) for name in _age_leftovers(root))
        listing = store.list_scope(Scope.GLOBAL)  # the next start of the store
        assert [f.path.name for f in listing.files] == sorted(CRASH_NAMES)
        assert all(f.size_bytes == CRASH_FILE_SIZE for f in listing.files)
        assert sorted(os.listdir(root)) == sorted(CRASH_NAMES), "a temp file was left behind"


STORE_CRASH_SIZE = MAX_FILE_BYTES  # memory files are capped: the largest a save can be
STORE_CRASH_NAMES = ("saved.md", "edited.md", "saved-too.md", "edited-too.md")


@pytest.mark.slow
def test_sigkill_during_store_saves_and_edits_leaves_no_torn_file_and_no_temp(
    home: Home, expect_log: ExpectLog
) -> None:
    store = MemoryStore(home)
    root = store.root(Scope.GLOBAL)
    root.mkdir(parents=True)
    contents = ("A" * STORE_CRASH_SIZE, "B" * STORE_CRASH_SIZE)
    randomness = random.Random(4321)
    declared = False
    for _ in range(CRASH_ROUNDS):
        for name in STORE_CRASH_NAMES:  # every round starts from A
            (root / name).write_text(contents[0])
        _kill_mid_write("store", home.root, STORE_CRASH_SIZE, STORE_CRASH_NAMES, randomness)
        if not declared and _left_a_history_line_open(home):
            # The kill landed in a history append: the next append closes that line, and
            # reading it skips it, saying so.
            expect_log("memtab.store.history.jsonlines", "WARNING", r"Skipped 1 unreadable")
            declared = True
        for name in STORE_CRASH_NAMES:
            assert (root / name).read_text() in contents, f"{name} is torn"
        _age_leftovers(root)
        store.list_scope(Scope.GLOBAL)  # the next start of the store
        assert sorted(os.listdir(root)) == sorted(STORE_CRASH_NAMES), "a temp was left behind"
        # The killed writer's scope lock died with it: the next edit goes straight on.
        current = store.read(vpath("/memories/global/saved.md"))
        store.save(vpath("/memories/global/saved.md"), contents[0], current.sha256)
