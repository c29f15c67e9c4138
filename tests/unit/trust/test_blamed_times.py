"""When each side of a contradiction was written is blamed once per file (issue 94, speed):
a next run with nothing changed — the next process's — blames no file; a file whose
history or text changed is blamed again; a cache not as Memtab wrote it is worked out
anew (docs/formats.md §19.10)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from memtab.blame import service
from memtab.fs.clock import now_ms
from memtab.kept.per_file import CACHE_VERSION, MAGIC, cache_file_for, memo_of
from memtab.store.catch_up.external import record_external
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import Contradiction

DAY_MS = 24 * 60 * 60 * 1000


@pytest.fixture
def blamed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The path of every mux memory file blamed."""
    paths: list[str] = []
    blame = service.blame_memory_file

    def counted(store: MemoryStore, raw_path: str) -> Any:
        paths.append(raw_path)
        return blame(store, raw_path)

    monkeypatch.setattr(service, "blame_memory_file", counted)
    return paths


def _home(root: Path) -> Home:
    """Two files saying two ports, a month and a day old, recorded by history."""
    home = Home(root / "home")
    home.global_root.mkdir(parents=True)
    old, new = home.global_root / "old.md", home.global_root / "new.md"
    old.write_text("# Ports\n\n- The API runs on port 8000.\n")
    new.write_text("# Service\n\n- The API listens on port 8080.\n")
    today = now_ms() // 1000 * 1000
    os.utime(old, ns=(0, (today - 30 * DAY_MS) * 1_000_000))
    os.utime(new, ns=(0, (today - DAY_MS) * 1_000_000))
    assert record_external(MemoryStore(home)).problems == []
    return home


def _found(home: Home) -> tuple[Contradiction, ...]:
    """A next process's run."""
    return ContradictionsEngine(home, sources=False).find().contradictions


def test_a_next_run_with_nothing_changed_blames_no_file(tmp_path: Path, blamed: list[str]) -> None:
    home = _home(tmp_path)
    first = _found(home)
    assert sorted(blamed) == ["/memories/global/new.md", "/memories/global/old.md"]
    blamed.clear()
    assert _found(home) == first
    assert blamed == []
    engine = ContradictionsEngine(home, sources=False)  # the window's: run after run
    assert engine.find().contradictions == first
    assert engine.find().contradictions == first
    assert blamed == []


def test_a_file_whose_history_changed_is_blamed_again(tmp_path: Path, blamed: list[str]) -> None:
    """`new.md` is as it was, but its scope's history has a version more (`old.md`'s)."""
    home = _home(tmp_path)
    _found(home)
    old = home.global_root / "old.md"
    old.write_text("# Ports\n\n- The API runs on port 8000.\n- Its health is /healthz.\n")
    assert record_external(MemoryStore(home)).problems == []
    blamed.clear()
    found = _found(home)
    assert sorted(blamed) == ["/memories/global/new.md", "/memories/global/old.md"]
    cache_file_for(home, "contradictions-blame").unlink()
    assert found == _found(home)  # as a run that kept nothing finds


def test_a_cache_not_as_made_is_blamed_anew(tmp_path: Path, blamed: list[str]) -> None:
    home = _home(tmp_path)
    first = _found(home)
    memo = memo_of(home, "contradictions-blame")
    key = "mux:global::/memories/global/old.md"
    for values in (("8000", 3), (1, 2, 3), (0, 5)):  # a str, a line without a time, line 0
        held = (CACHE_VERSION, str(home.root), "contradictions-blame", (), (key,), b"0" * 16)
        memo.write_sealed(MAGIC, (*held, (values,)))
        blamed.clear()
        assert _found(home) == first
        assert blamed, values
        blamed.clear()
        assert _found(home) == first  # the cache written anew
        assert blamed == []
