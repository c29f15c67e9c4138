"""The fast tier's fsync switch: `--no-fsync` (tests/conftest.py; `make test-fast`).

Memtab makes a write durable in three ways: `os.fsync` of a file or directory
(fs/atomic.py, history's journal and blobs), one `syncfs` of the file system for a batch
(`fs.atomic.make_filesystem_durable`: history's batches, a sync's bulk restore), and `os.sync` where
the kernel has no `syncfs`. Under `--no-fsync` all three do nothing in a test, but in the
tests that count on them or watch them (marked `fsync`); the data still reaches the files,
and child processes still flush. tests/unit/test_fast_tier.py checks that the code flushes
in no other way.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from memtab.fs import atomic

# Every flush the code makes, as the code spells it (the check scans for these names).
SILENCED = ("fsync", "sync", "_syncfs")


def _no_fsync(fd: int) -> None:
    """fsync in the fast tier: nothing."""


def _no_sync() -> None:
    """sync in the fast tier: nothing."""


def _no_syncfs(fd: int) -> int:
    """syncfs in the fast tier: nothing, and no error (0)."""
    return 0


def silence_flushes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every flush in `SILENCED` does nothing until `monkeypatch` is undone."""
    monkeypatch.setattr(os, "fsync", _no_fsync)
    monkeypatch.setattr(os, "sync", _no_sync)
    monkeypatch.setattr(atomic, "_syncfs", _no_syncfs)


def silence_unless_tested(request: pytest.FixtureRequest) -> Callable[[], None]:
    """Under `--no-fsync`, every flush does nothing in a test not marked `fsync` (each
    test's fixture in tests/conftest.py); returns what gives them back."""
    if not request.config.getoption("--no-fsync") or "fsync" in request.keywords:
        return _nothing
    patches = pytest.MonkeyPatch()
    silence_flushes(patches)
    return patches.undo


def _nothing() -> None:
    """Nothing to undo."""
