"""What another program can put in a folder, for the tests that put it there: a tree a
thousand folders deep (the fixture `deep_tree`), a FIFO nothing writes to
(`fifo_at`), and a guard that fails a call blocking on one instead of hanging the run
(`answers_within`)."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from memtab.fs.atomic import Directory
from memtab.fs.confined import entries_of, remove_tree

DEEP = 1100
"""Deeper than Python recurses (its limit is 1000 frames)."""
T = TypeVar("T")


def make_deep_tree(parent: Path, name: str, depth: int = DEEP, *, file: str = "x.md") -> None:
    """`parent/name/d/d/…` `depth` folders deep, `file` at the bottom, made a level at a
    time relative to the last (a path that long is past what one system call takes)."""
    parent.mkdir(parents=True, exist_ok=True)
    current = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for level in range(depth):
            below = name if level == 0 else "d"
            os.mkdir(below, dir_fd=current)
            child = os.open(below, os.O_RDONLY | os.O_DIRECTORY, dir_fd=current)
            os.close(current)
            current = child
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=current)
        os.write(fd, b"deep down\n")
        os.close(fd)
    finally:
        os.close(current)


@pytest.fixture
def deep_tree() -> Iterator[Callable[..., None]]:
    """`make_deep_tree`; when the test ends, every folder in the folders it made trees in
    is removed (a tree may have been moved meanwhile), as pytest's own clean-up cannot:
    shutil.rmtree recurses, and its failure would stop every later run's clean-up of the
    temp dirs, this machine's other users' too."""
    parents: list[Path] = []

    def make(parent: Path, name: str, depth: int = DEEP, *, file: str = "x.md") -> None:
        parents.append(parent)
        make_deep_tree(parent, name, depth, file=file)

    yield make
    for parent in parents:
        with contextlib.suppress(FileNotFoundError), Directory.open(parent) as directory:
            for entry in entries_of(directory):
                if entry.is_dir(follow_symlinks=False):
                    remove_tree(directory, entry.name)


def fifo_at(path: Path) -> Path:
    """A FIFO at `path` that nothing writes to: an ordinary open waits for ever."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def answers_within(seconds: float, call: Callable[[], T], *fifos: Path) -> T:
    """`call()`'s result, failing the test if it takes longer than `seconds` (a read
    blocked on one of `fifos` is then let go: a writer opens and closes it)."""
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(call())
        except BaseException as error:  # reported on the test's thread
            failed.append(error)

    thread = threading.Thread(target=run, name="answers-within", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for fifo in fifos:
            with contextlib.suppress(OSError):  # succeeds only while a reader waits on it
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(seconds)
        pytest.fail(f"no answer within {seconds:g} s: a read waited on a FIFO")
    if failed:
        raise failed[0]
    return done[0]
