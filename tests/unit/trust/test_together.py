"""The three questions over one read (the window's `TrustEngines`): what each engine finds
alone, found together; a file the listing says is unchanged is not read again, a changed
one is."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_store import ScopeStore
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.together import TrustEngines
from support.memory_home import OTHER_PROJECT, PROJECT, make_home, touch_later


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "ports.md", "# Ports\n\n- The API runs on port 8000.\n")
    atomic_write_text(
        home.project_root(PROJECT) / "local.md", "# Local\n\n- The API runs on port 8080.\n"
    )
    atomic_write_text(
        home.global_root / "web.md", f"# Web\n\nThe app lives in {OTHER_PROJECT}/src/app.tsx.\n"
    )
    return home


def test_one_read_finds_what_each_engine_finds_alone(home: Home) -> None:
    report = TrustEngines(home, sources=False).find()
    assert report.duplicates == DuplicatesEngine(home, sources=False).find().groups
    contradictions = ContradictionsEngine(home, sources=False).find().contradictions
    assert report.contradictions == contradictions and len(contradictions) == 1
    leaks = LeaksEngine(home, sources=False).find().leaks
    assert report.leaks == leaks and [leak.place.path for leak in leaks] == [
        "/memories/global/web.md"
    ]
    assert report.files_read == 11


def test_a_file_unchanged_is_not_read_again(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    original = ScopeStore.read_many

    def counted(store: ScopeStore, paths: Iterable[VirtualPath]) -> Iterator[object]:
        paths = list(paths)
        read.extend(str(p) for p in paths)
        return original(store, paths)

    monkeypatch.setattr(ScopeStore, "read_many", counted)
    engines = TrustEngines(home, sources=False)
    engines.find()
    assert "/memories/global/ports.md" in read
    read.clear()
    touch_later(home.global_root / "ports.md", "# Ports\n\n- The API runs on port 9000.\n")
    report = engines.find()
    assert read == ["/memories/global/ports.md"]
    [found] = report.contradictions
    assert {found.first.value, found.second.value} == {"9000", "8080"}
