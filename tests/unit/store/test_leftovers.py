"""Temp files a killed Memtab left in the home's own directories (sidecars, history) are
removed the next time Memtab opens the home to write: only Memtab's own pattern, only
regular files, only once they are over a minute old (a live writer's are younger)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.components.history.history import record_external_changes
from memtab.store.home import Home
from memtab.store.leftovers import remove_leftover_temps
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from support.memory_paths import vpath

HEX = "0123abcd"


def left(path: Path, *, age_s: float = 120.0) -> Path:
    """A file as a killed writer left it, `age_s` old."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"half written")
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


@pytest.fixture
def kept_store(home: Home, workspace: Workspace) -> MemoryStore:
    """A home whose history holds a version (on the real clock: nothing is pruned)."""
    store = MemoryStore(home, workspace)
    store.create_file(vpath("/memories/global/a.md"), "a\n")
    return store


def leftovers(home: Home) -> dict[str, Path]:
    shard = next(p for p in home.history_blobs_dir.iterdir() if len(p.name) == 2)
    return {
        "sidecar": left(home.root / f".memory-meta.json.{HEX}.tmp"),
        "index": left(home.history_index_dir / f".global.jsonl.{HEX}.tmp"),
        "blob": left(shard / f".{'e' * 62}.z.{HEX}.tmp"),
        "pack": left(home.history_blobs_dir / "packs" / f".{'f' * 16}.pack.{HEX}.tmp"),
        "holder": left(home.memtab_dir / "locks" / f".consolidation.holder.json.{HEX}.tmp"),
    }


def kept_apart(home: Home) -> dict[str, Path]:
    """What must stay: a live writer's temp, names not of Memtab's pattern, a directory."""
    live = left(home.root / f".config.json.{HEX}.tmp", age_s=1)
    not_ours = left(home.root / ".memory-meta.json.tmp")
    mux_temp = left(home.history_dir / f"runs.jsonl.{HEX}.tmp")
    directory = home.history_dir / f".folder.{HEX}.tmp"
    directory.mkdir()
    old = time.time() - 120
    os.utime(directory, (old, old))
    return {"live": live, "not ours": not_ours, "no dot": mux_temp, "directory": directory}


def test_the_home_and_history_are_cleaned_of_old_temps_only(
    home: Home, kept_store: MemoryStore
) -> None:
    gone = leftovers(home)
    stay = kept_apart(home)
    assert remove_leftover_temps(home) == len(gone)
    assert [name for name, path in gone.items() if path.exists()] == []
    assert [name for name, path in stay.items() if not path.exists()] == []


def test_a_writing_command_removes_them_first(
    home: Home, kept_store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = leftovers(home)
    call = '{"command": "view", "path": "/memories/global/a.md"}'
    assert main(["--home", str(home.root), "tool", call]) == 0
    assert [name for name, path in gone.items() if path.exists()] == []


def test_the_windows_first_sync_removes_them(home: Home, kept_store: MemoryStore) -> None:
    gone = leftovers(home)
    record_external_changes(kept_store)
    assert [name for name, path in gone.items() if path.exists()] == []
